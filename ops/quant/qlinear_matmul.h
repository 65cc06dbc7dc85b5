// QLinearMatMul (opset 10): MatMul on quantized tensors (numpy matmul, ops/gemm/matmul.h).
//
//   inputs  a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point
//   acc[.., m, n] = sum_k (a - a_zero_point) * (b - b_zero_point[n])             exact, int64
//   y = saturate(round_half_even(acc * (a_scale * b_scale[n] / y_scale)) + y_zero_point)
//
// a and b int8 or uint8 (each its own); zero points have their tensor's type (omitted: 0; y then has a's
// type); a_scale, y_scale and their zero points one value; b_scale and b_zero_point one value or one per
// column of b [N] (as ONNX Runtime accepts). Requantized as QLinearConv is (ops/quant/qlinear_conv.h, which
// derives the tolerance: one quantization step).
#pragma once

#include "engine/op.h"

namespace cnnx {

std::vector<ValueInfo> infer_qlinear_matmul(const NoParams& p, const std::vector<ValueInfo>& in);
void qlinear_matmul_ref(const NoParams& p, const KernelIO& io);

}  // namespace cnnx
