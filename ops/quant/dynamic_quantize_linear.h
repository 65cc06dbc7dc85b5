// DynamicQuantizeLinear (opset 11): x float32 -> y uint8, y_scale float32 scalar, y_zero_point uint8 scalar,
// with the range [min(0, min x), max(0, max x)] mapped onto [0, 255]:
//
//   y_scale      = (max - min) / 255
//   y_zero_point = saturate(round_half_even(0 - min / y_scale))
//   y            = saturate(round_half_even(x / y_scale) + y_zero_point)
//
// ONNX leaves the precision of the first two open; cnnx computes them as ONNX's reference does (max - min and
// the division by 255 in double, the scale then rounded to float32; min / y_scale in double) and y as
// QuantizeLinear does (one float32 division). ONNX Runtime computes the scale in float32: where max - min is
// not exact in float32 the two can differ by one ulp of the scale. NaN inputs are left out of the range (and
// quantize to the zero point); an all-zero x gives y_scale 0, y_zero_point 0 and y 0. Exact (kExact).
#pragma once

#include "engine/op.h"

namespace cnnx {

// The scale and zero point DynamicQuantizeLinear picks for x's `n` values, and x quantized with them into
// `y` (n uint8 values). com.microsoft DynamicQuantizeMatMul quantizes its A the same way.
struct DynamicQuantization {
  float scale = 0;
  uint8_t zero_point = 0;
};
DynamicQuantization dynamic_quantize(const float* x, int64_t n, uint8_t* y);

NoParams parse_dynamic_quantize_linear(const Node& node);
std::vector<ValueInfo> infer_dynamic_quantize_linear(const NoParams& p, const std::vector<ValueInfo>& in);
void dynamic_quantize_linear_ref(const NoParams& p, const KernelIO& io);

}  // namespace cnnx
