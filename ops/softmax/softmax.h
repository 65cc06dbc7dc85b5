// Softmax, float32. Before opset 13 the input is viewed as 2-D [a0*...*a(k-1), ak*...*a(n-1)] at k = `axis`
// (default 1) and each row of that view is normalized; from opset 13 softmax runs over the single dim `axis`
// (default -1). `axis` is in [-rank, rank-1].
//
// Computed stably: y = exp(x - max) / sum(exp(x - max)), accumulated in double. A row whose max is -inf (all
// -inf) or that holds a NaN or +inf gives NaN, as Exp/ReduceSum/Div (ONNX's function body) would.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct SoftmaxParams : OpParams {
  int64_t axis = -1;        // as written in the model; normalized against the input rank when shapes are known
  bool coerce_2d = false;   // opset < 13: normalize over all dims from `axis` on
};

// Outputs are in [0, 1]. Another engine in float32 rounds d = x - max (error u |d|, u = 2^-24), which exp
// turns into a relative error u |d| of y = e^-d / sum <= e^-d: at most u max(d e^-d) = u / e ~ 2.2e-8
// absolute, hence abs 1e-7. Relative: expf and the division ~3 ulp, plus a float32 sum of n positive terms
// (relative error <= n u sequentially, ~log2(n) u pairwise or vectorized); 1e-5 ~ 170 u covers rows of
// ~1000 classes summed in blocks.
constexpr Tolerance kSoftmaxTolerance{1e-7, 1e-5};

SoftmaxParams parse_softmax(const Node& node);
std::vector<ValueInfo> infer_softmax(const SoftmaxParams& p, const std::vector<ValueInfo>& in);
// Row by row in double, one rounding per output (ops/softmax/softmax.cc).
void softmax_ref(const SoftmaxParams& p, const KernelIO& io);
// oneDNN softmax_forward over a plain view of X (ops/softmax/softmax_dnnl.cc).
Kernel<SoftmaxParams> softmax_dnnl_kernel();

}  // namespace cnnx
