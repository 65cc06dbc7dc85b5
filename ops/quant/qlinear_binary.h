// com.microsoft QLinearAdd and QLinearMul (ONNX Runtime's contrib ops, written by its quantizer for Add and Mul):
//
//   inputs  A, A_scale, A_zero_point, B, B_scale, B_zero_point, C_scale, C_zero_point    (zero points optional)
//   QLinearAdd  C = saturate(round_half_even(((A - A_zp) A_scale + (B - B_zp) B_scale) / C_scale) + C_zp)
//   QLinearMul  C = saturate(round_half_even((A - A_zp) (B - B_zp) (A_scale B_scale / C_scale)) + C_zp)
//
// A, B and C share one type, int8 or uint8 (C's is C_zero_point's, A's when omitted); scales and zero points are
// one value each; A and B broadcast numpy-style. The real values are computed in double: (A - A_zp) A_scale is
// exact there, the sum and the division round once each (QLinearAdd); the integer product is exact and the
// multiplier rounds twice (QLinearMul). ONNX Runtime computes in float32, so results agree within one
// quantization step (kOneQuantStep, ops/quant/qlinear_conv.h has the argument).
#pragma once

#include <limits>

#include "engine/op.h"

namespace cnnx {

// The domain of ONNX Runtime's contrib ops; cnnx accepts it only for the quantized ops registered here.
constexpr const char* kMicrosoftDomain = "com.microsoft";

struct QLinearBinaryParams : OpParams {
  bool multiply = false;  // QLinearMul; else QLinearAdd
  // FusedQLinearAdd only: C clamped to [y_min, y_max] after saturation (a Relu or Clip the fold-qdq pass took;
  // exact because Q is monotone, ops/quant/qlinear_conv.h). Otherwise C's whole range.
  int64_t y_min = std::numeric_limits<int64_t>::min(), y_max = std::numeric_limits<int64_t>::max();
};

// cnnx.internal FusedQLinearAdd: QLinearAdd's inputs plus ints `y_min` and `y_max` (y_min <= y_max), made by
// the fold-qdq pass (passes/fold_qdq.cc) from DQ(A), DQ(B) -> Add [-> Relu | Clip] -> Q.
QLinearBinaryParams parse_fused_qlinear_add(const Node& node);

// QLinearAdd's and FusedQLinearAdd's native kernel (ops/quant/qlinear_add_native.cc): A and B of one shape
// (no broadcasting), in the layout both arrive in, computed in float32 in the order the QDQ graph it replaces
// computes (DequantizeLinear, Add, QuantizeLinear).
Kernel<QLinearBinaryParams> qlinear_add_native_kernel();

QLinearBinaryParams parse_qlinear_add(const Node& node);
QLinearBinaryParams parse_qlinear_mul(const Node& node);
std::vector<ValueInfo> infer_qlinear_binary(const QLinearBinaryParams& p, const std::vector<ValueInfo>& in);
void qlinear_binary_ref(const QLinearBinaryParams& p, const KernelIO& io);

}  // namespace cnnx
