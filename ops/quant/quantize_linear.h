// QuantizeLinear (opset 10; 13 adds `axis`; 19 adds `saturate`) and DequantizeLinear (same opsets):
//
//   QuantizeLinear   y = saturate(round_half_even(x / y_scale) + y_zero_point)    x float32/int32 -> y int8/uint8
//   DequantizeLinear y = (x - x_zero_point) * x_scale                             x int8/uint8/int32 -> float32
//
// The scale (float32) and zero point (y's / x's type; omitted: 0, and QuantizeLinear then writes uint8) are
// one value (a scalar or a 1-D tensor of one element: per tensor), or from opset 13 a 1-D tensor of
// x.shape[axis] values (per axis; `axis` default 1, negative counts from the end, checked only then).
// ops/quant/quantization.h has the rounding, saturation and NaN rules.
//
// `saturate` (0 or 1) is accepted: it concerns float8 outputs only, which cnnx does not hold. Refused with an
// error naming them: opset 21's `block_size` (blocked quantization) and `output_dtype`. Opset 19's float16 and
// bfloat16 x and scales run in float32 through the float16-compute lowering (passes/float16_compute.cc):
// DequantizeLinear's product (x - zero_point) * scale is exact in float32, so its float16 output is the one
// rounding float16 arithmetic gives; QuantizeLinear rounds the float32 quotient, as ONNX Runtime does.
//
// Both are exact (kExact): x / y_scale is one float32 division (int32 x: one double division, as ONNX's
// reference divides an int32 array), rounded once (as ONNX's reference and ONNX Runtime compute it), and (x - zero_point) is an integer converted to float32 (exact for int8/uint8) times
// the scale: one float32 multiplication.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct LinearQuantParams : OpParams {
  int64_t axis = 1;         // as given; normalized against x's rank where the scale is per axis
  bool axis_allowed = true;  // opset >= 13: a scale may be per axis
};

LinearQuantParams parse_quantize_linear(const Node& node);
LinearQuantParams parse_dequantize_linear(const Node& node);
std::vector<ValueInfo> infer_quantize_linear(const LinearQuantParams& p, const std::vector<ValueInfo>& in);
std::vector<ValueInfo> infer_dequantize_linear(const LinearQuantParams& p, const std::vector<ValueInfo>& in);
void quantize_linear_ref(const LinearQuantParams& p, const KernelIO& io);
// The same arithmetic vectorized and split over the team (ops/quant/quantize_linear_native.cc): float32 x, and
// int8/uint8 x for DequantizeLinear; int32 x declines.
Kernel<LinearQuantParams> quantize_linear_native_kernel();
Kernel<LinearQuantParams> dequantize_linear_native_kernel();
void dequantize_linear_ref(const LinearQuantParams& p, const KernelIO& io);

// For x of `shape` and a scale of `scale_count` values: the stride of axis `axis` (the product of the dims
// after it) and its length; a per-tensor scale gives {numel, 1} (every element maps to index 0).
struct AxisWalk {
  int64_t inner = 1, len = 1;
  int64_t index_of(int64_t i) const { return (i / inner) % len; }
};
AxisWalk axis_walk(const Shape& shape, int64_t axis, int64_t scale_count);

}  // namespace cnnx
