// QLinearConv (opset 10): Conv on quantized tensors.
//
//   inputs  x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point[, B]
//   acc[n, m, o..] = sum (x - x_zero_point) * (w - w_zero_point[m]) + B[m]        exact, int64
//   y = saturate(round_half_even(acc * (x_scale * w_scale[m] / y_scale)) + y_zero_point)
//
// x and w are int8 or uint8 (each its own); zero points have their tensor's type (omitted: 0; y then has x's
// type); x_scale, y_scale and their zero points are one value; w_scale and w_zero_point one value or one per
// output channel [M]; B is int32 [M], quantized with scale x_scale * w_scale[m] and zero point 0. Conv's
// attributes and geometry (ops/conv/conv.h), padding being the real value 0 (ops/quant/integer_conv.h).
//
// Requantization: ONNX defines y as the quantized real value acc * x_scale * w_scale / y_scale but leaves the
// floating-point order and precision open (ONNX Runtime multiplies a float32 acc by a float32 multiplier).
// cnnx computes the multiplier in double and applies it with one double multiplication to the exact sum, then
// rounds half to even: within 2^-50 relative of the real value, so it differs from the exact result only on
// (near-)ties, and from an engine computing in float32 by at most one step where the value lies within that
// engine's rounding error of a half step. Hence the tolerance: one quantization step (kOneQuantStep).
#pragma once

#include <limits>

#include "ops/quant/conv_integer.h"

namespace cnnx {

// Outputs of ops that requantize a real value computed in some floating-point order ONNX leaves open: within
// one step of the integer type (abs 1), exact elsewhere.
constexpr Tolerance kOneQuantStep{1, 0};

struct QLinearConvParams : OpParams {
  ConvParams conv;
  // FusedQLinearConv only: y clamped to [y_min, y_max] after saturation (a Relu or Clip the fold-qdq pass
  // took: Q(relu(v)) = max(Q(v), y_zero_point) and Q(clip(v, a, b)) = clamp(Q(v), Q(a), Q(b)) because Q is
  // monotone, so the clamp is exact). QLinearConv: y's whole range.
  int64_t y_min = std::numeric_limits<int64_t>::min(), y_max = std::numeric_limits<int64_t>::max();
};

// cnnx.internal FusedQLinearConv: QLinearConv's inputs and attributes plus ints `y_min` and `y_max` (in y's
// type's range, y_min <= y_max), made by the fold-qdq pass (passes/fold_qdq.cc) from DQ -> Conv -> Relu/Clip -> Q.
QLinearConvParams parse_fused_qlinear_conv(const Node& node);

// The oneDNN int8 kernel (ops/quant/qlinear_conv_dnnl.cc), shared by QLinearConv, FusedQLinearConv and ConvInteger.
Kernel<QLinearConvParams> qlinear_conv_dnnl_kernel();
Kernel<ConvIntegerParams> conv_integer_dnnl_kernel();

QLinearConvParams parse_qlinear_conv(const Node& node);
std::vector<ValueInfo> infer_qlinear_conv(const QLinearConvParams& p, const std::vector<ValueInfo>& in);
void qlinear_conv_ref(const QLinearConvParams& p, const KernelIO& io);

}  // namespace cnnx
