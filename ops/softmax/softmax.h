// Softmax, LogSoftmax and Hardmax, float32 (one params type, the op's kind in it). Before opset 13 the input is viewed as 2-D [a0*...*a(k-1), ak*...*a(n-1)] at k = `axis`
// (default 1) and each row of that view is normalized; from opset 13 softmax runs over the single dim `axis`
// (default -1). `axis` is in [-rank, rank-1].
//
// Computed stably: y = exp(x - max) / sum(exp(x - max)), accumulated in double. A row whose max is -inf (all
// -inf) or that holds a NaN or +inf gives NaN, as Exp/ReduceSum/Div (ONNX's function body) would.
// LogSoftmax: y = x - max - log(sum(exp(x - max))), the same way (a NaN row likewise).
// Hardmax: 1 at the first maximum of each row, 0 elsewhere; a row holding a NaN marks its first NaN (numpy's
// argmax, which ONNX's reference uses, takes NaN as the maximum).
#pragma once

#include "engine/op.h"

namespace cnnx {

enum class SoftmaxKind { softmax, log_softmax, hardmax };

struct SoftmaxParams : OpParams {
  SoftmaxKind kind = SoftmaxKind::softmax;
  int64_t axis = -1;        // as written in the model; normalized against the input rank when shapes are known
  bool coerce_2d = false;   // opset < 13: normalize over all dims from `axis` on
};

// Outputs are in [0, 1]. Another engine in float32 rounds d = x - max (error u |d|, u = 2^-24), which exp
// turns into a relative error u |d| of y = e^-d / sum <= e^-d: at most u max(d e^-d) = u / e ~ 2.2e-8
// absolute, hence abs 1e-7. Relative: expf and the division ~3 ulp, plus a float32 sum of n positive terms
// (relative error <= n u sequentially, ~log2(n) u pairwise or vectorized); 1e-5 ~ 170 u covers rows of
// ~1000 classes summed in blocks.
constexpr Tolerance kSoftmaxTolerance{1e-7, 1e-5};

// LogSoftmax's outputs are <= 0 and unbounded below. A float32 engine rounds d = x - max (u |d|, u = 2^-24,
// relative to |y| >= |d|) and log(sum): the sum's relative error (~log2(n) u summed in blocks, n u at worst)
// becomes an absolute error of the same size after log, plus ~2 u |log sum| from log and the subtraction.
// For rows of ~1000 classes that is ~1e-6 absolute worst case near y = 0. oneDNN 2.6's vectorized log (a
// polynomial after range reduction) is accurate to an absolute few 1e-6 rather than relatively near
// log(1) = 0: rows whose max dominates (sum ~1) came out ~3.5e-6 off in the kernel cases. Hence abs 1e-5;
// rel 1e-5 as Softmax.
constexpr Tolerance kLogSoftmaxTolerance{1e-5, 1e-5};
// Hardmax selects: exact.
constexpr Tolerance kHardmaxTolerance = kExact;

SoftmaxParams parse_softmax(const Node& node);
SoftmaxParams parse_log_softmax(const Node& node);
SoftmaxParams parse_hardmax(const Node& node);
std::vector<ValueInfo> infer_softmax(const SoftmaxParams& p, const std::vector<ValueInfo>& in);
// Row by row in double, one rounding per output (ops/softmax/softmax_ref.cc).
void softmax_ref(const SoftmaxParams& p, const KernelIO& io);
// oneDNN softmax_v2_forward (softmax_accurate, or softmax_log for LogSoftmax) over a plain view of X
// (ops/softmax/softmax_dnnl.cc). Hardmax has none: oneDNN 2.6 has no argmax or one-hot primitive.
Kernel<SoftmaxParams> softmax_dnnl_kernel();

}  // namespace cnnx
