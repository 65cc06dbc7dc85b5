// com.microsoft MatMulIntegerToFloat and DynamicQuantizeMatMul (ONNX Runtime's contrib ops, written by its
// dynamic quantizer for MatMul):
//
//   MatMulIntegerToFloat   inputs A, B, a_scale, b_scale, a_zero_point, b_zero_point, bias   (last three optional)
//   DynamicQuantizeMatMul  inputs A (float32), B, b_scale, b_zero_point, bias                (last two optional)
//   Y (float32) = (A - a_zp)(B - b_zp[n]) * a_scale * b_scale[n] + bias[n]
//
// A and B are int8 or uint8 (each its own; DynamicQuantizeMatMul quantizes its float A to uint8 first, exactly as
// DynamicQuantizeLinear does: ops/quant/dynamic_quantize_linear.h), numpy matmul (ops/quant/integer_matmul.h);
// a_scale and a_zero_point one value; b_scale and b_zero_point one value or one per column [N]; bias float32
// [N]. The sum is exact; cnnx scales it in double and rounds once to float32 after the bias. ONNX Runtime
// converts the sum to float32 and multiplies by a float32 scale product, then adds the bias: a few float32
// roundings of the product (u = 2^-24 each), hence the tolerance: rel 1e-6 of the result, and abs 1e-6 for
// results a bias cancels.
#pragma once

#include "engine/op.h"

namespace cnnx {

constexpr Tolerance kIntegerToFloatTolerance{1e-6, 1e-6};

struct MatMulIntegerToFloatParams : OpParams {
  bool dynamic = false;  // DynamicQuantizeMatMul: A is float32 and quantized here
};

MatMulIntegerToFloatParams parse_matmul_integer_to_float(const Node& node);
MatMulIntegerToFloatParams parse_dynamic_quantize_matmul(const Node& node);
std::vector<ValueInfo> infer_matmul_integer_to_float(const MatMulIntegerToFloatParams& p,
                                                     const std::vector<ValueInfo>& in);
void matmul_integer_to_float_ref(const MatMulIntegerToFloatParams& p, const KernelIO& io);

// Where each input is: MatMulIntegerToFloat and DynamicQuantizeMatMul order them differently (-1: none).
struct IntegerToFloatInputs {
  int a = 0, b = 1, a_scale = 2, b_scale = 3, a_zero_point = 4, b_zero_point = 5, bias = 6;
};
IntegerToFloatInputs integer_to_float_inputs(const MatMulIntegerToFloatParams& p);

}  // namespace cnnx
