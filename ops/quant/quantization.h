// What the quantized ops (ops/quant) share: ONNX's linear quantization q = saturate(round(r / scale) + zero_point)
// and r = (q - zero_point) * scale, with scales and zero points given per tensor or per index along one axis.
//
// Rounding is half to even and done on r / scale before the zero point is added (ONNX's reference and ONNX
// Runtime's MLAS round x / y_scale, then add y_zero_point; rounding after the add would differ on ties when
// the zero point is odd). Saturation clamps to the integer type's range. NaN quantizes to the zero point
// (ONNX leaves it undefined; it stands for no value, and 0 is the real value the zero point represents),
// +-inf saturate.
//
// Scales must be finite and positive (a zero scale divides by zero, a negative one mirrors the range; neither
// is what a quantizer writes): checked when infer sees a constant scale and again when a kernel reads one.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "engine/op.h"

namespace cnnx {

// The element types a quantized tensor holds here: int8 and uint8. float8 and 4-bit types are not held by
// cnnx (engine/dtype.h): a model with them is refused where its tensors are read.
bool is_quantized_type(DType t);

// v rounded to the nearest integer, ties to even, whatever the floating-point environment's rounding mode.
// v must be finite.
inline double round_half_even(double v) {
  const double r = std::floor(v);
  const double diff = v - r;
  if (diff > 0.5) return r + 1;
  if (diff < 0.5) return r;
  return std::fmod(r, 2.0) == 0 ? r : r + 1;
}

// An already rounded value plus a zero point, saturated to [lo, hi]; NaN gives the zero point.
inline int64_t saturate_plus(double rounded, int64_t zero_point, int64_t lo, int64_t hi) {
  if (std::isnan(rounded)) return zero_point;
  const double v = rounded + double(zero_point);
  if (v <= double(lo)) return lo;
  if (v >= double(hi)) return hi;
  return int64_t(v);
}

// The range of a quantized element type (int8, uint8, int32).
struct QuantRange {
  int64_t lo = 0, hi = 0;
};
QuantRange quant_range(DType t);

// saturate(round_half_even(r) + zero_point) in `range` (r not finite: saturated, NaN the zero point).
inline int64_t quantized(double r, int64_t zero_point, QuantRange range) {
  return saturate_plus(std::isfinite(r) ? round_half_even(r) : r, zero_point, range.lo, range.hi);
}

// Writes element i of y (int8 or uint8) as quantized(r, zero_point, range).
void store_quantized(Tensor& y, int64_t i, double r, int64_t zero_point, QuantRange range);

// A scale and a zero point as a kernel reads them: one value each (per tensor), or one per index along an
// axis. The zero point is 0 when the input is omitted.
struct QuantParams {
  std::vector<double> scale;
  std::vector<int64_t> zero_point;
  bool per_axis() const { return scale.size() > 1; }
  double scale_at(int64_t i) const { return scale[per_axis() ? size_t(i) : 0]; }
  int64_t zero_point_at(int64_t i) const { return zero_point[zero_point.size() > 1 ? size_t(i) : 0]; }
};

// Reads scale (float32) and zero point (any integer type, nullptr: 0). Throws naming `what` (the input's
// role: "x_scale") when a scale is not finite and positive or the two lengths differ.
QuantParams read_quant_params(const Tensor& scale, const Tensor* zero_point, const std::string& what);
// The same for a kernel's input `scale` and the zero point after it (which the node may omit).
QuantParams read_quant_params(const KernelIO& io, size_t scale, const std::string& what);

// What a quantized op with one quantized input and one quantized output reads (QLinearSigmoid, QLinearLeakyRelu,
// QLinearSoftmax, the quantized pools): inputs X, x_scale, x_zero_point, y_scale, y_zero_point, scales and zero
// points per tensor; `x_scale` and `y_scale` name the scales in messages.
struct QuantizedUnaryIO {
  const Tensor& X;
  Tensor& Y;
  double x_scale, y_scale;
  int64_t x_zero_point, y_zero_point;
  QuantRange range;  // Y's
};
QuantizedUnaryIO read_quantized_unary(const KernelIO& io, const char* x_scale, const char* y_scale);

// How a scale and zero point may be shaped: one value (a scalar or a 1-D tensor of one element), or also a 1-D
// tensor of `axis_len` values (per-axis; axis_len may be kUnknownDim at load time).
struct ScaleShape {
  bool per_axis_allowed = false;
  int64_t axis_len = kUnknownDim;
};

// infer's check of inputs `scale` and `zero_point` (the latter may be omitted): the scale float32, the zero
// point of type `zp_type` (undefined: int8 or uint8), each shaped as `shape` allows and both alike; a
// constant scale finite and positive. `scale_name` and `zp_name` name the inputs in messages ("x_scale").
void check_scale_zero_point(const std::vector<ValueInfo>& in, size_t scale, size_t zero_point,
                            const char* scale_name, const char* zp_name, DType zp_type, ScaleShape shape);

// Throws unless input i is int8 or uint8, naming it.
void require_quantized(const std::vector<ValueInfo>& in, size_t i, const char* name);

// infer's checks of a quantized pool's inputs (QLinearAveragePool, QLinearGlobalAveragePool): X (input 0) int8
// or uint8, x_scale/x_zero_point (1, 2) and y_scale/y_zero_point (3, 4) per tensor, of X's type; X of rank 3 or
// more when its rank is known.
void check_quantized_pool_inputs(const std::vector<ValueInfo>& in);

// The clamp the fold-qdq pass writes on its fused ops (attributes y_min, y_max; defaults: no clamp), checked
// y_min <= y_max.
std::pair<int64_t, int64_t> parse_output_clamp(const Node& node);

// Input i's element type if present, else `fallback`.
DType type_or(const std::vector<ValueInfo>& in, size_t i, DType fallback);

}  // namespace cnnx
