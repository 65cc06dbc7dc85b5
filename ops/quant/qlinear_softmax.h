// com.microsoft QLinearSoftmax (ONNX Runtime's contrib op):
//
//   inputs  X, X_scale, x_zero_point, y_scale, y_zero_point                    (zero points optional)
//   attrs   axis (-1), opset (the opset of the Softmax it replaces; required)
//   Y = saturate(round_half_even(softmax((X - x_zp) X_scale) / y_scale) + y_zp)
//
// Softmax as the given opset defines it: from 13 over the one axis, before 13 over X coerced to 2-D at axis
// (every axis from `axis` on). X and Y share one type, int8 or uint8; scales and zero points one value each.
// Computed in double (ONNX Runtime tabulates exp in float32): within one quantization step (kOneQuantStep).
#pragma once

#include "engine/op.h"

namespace cnnx {

struct QLinearSoftmaxParams : OpParams {
  int64_t axis = -1;
  bool coerce_2d = false;  // opset < 13
};

QLinearSoftmaxParams parse_qlinear_softmax(const Node& node);
std::vector<ValueInfo> infer_qlinear_softmax(const QLinearSoftmaxParams& p, const std::vector<ValueInfo>& in);
void qlinear_softmax_ref(const QLinearSoftmaxParams& p, const KernelIO& io);

}  // namespace cnnx
