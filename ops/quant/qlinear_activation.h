// com.microsoft QLinearSigmoid and QLinearLeakyRelu (ONNX Runtime's contrib ops):
//
//   inputs  X, X_scale, X_zero_point, Y_scale, Y_zero_point             (zero points optional)
//   r = (X - X_zp) X_scale;   Y = saturate(round_half_even(f(r) / Y_scale) + Y_zp)
//   QLinearSigmoid f(r) = 1 / (1 + exp(-r));  QLinearLeakyRelu f(r) = r >= 0 ? r : alpha r (alpha default 0.01)
//
// X and Y share one type, int8 or uint8; scales and zero points are one value each. f is computed in double
// (ONNX Runtime tabulates it in float32 for the 256 inputs): within one quantization step (kOneQuantStep).
#pragma once

#include "engine/op.h"

namespace cnnx {

struct QLinearActivationParams : OpParams {
  bool leaky_relu = false;  // else sigmoid
  double alpha = 0.01;      // LeakyRelu's slope below 0 (the float attribute, widened)
};

QLinearActivationParams parse_qlinear_sigmoid(const Node& node);
QLinearActivationParams parse_qlinear_leaky_relu(const Node& node);
std::vector<ValueInfo> infer_qlinear_activation(const QLinearActivationParams& p, const std::vector<ValueInfo>& in);
void qlinear_activation_ref(const QLinearActivationParams& p, const KernelIO& io);

}  // namespace cnnx
