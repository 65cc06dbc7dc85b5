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

// oneDNN softmax_forward over a plain view of X (ops/softmax/softmax_dnnl.cc).
KernelDef softmax_dnnl_kernel();

}  // namespace cnnx
