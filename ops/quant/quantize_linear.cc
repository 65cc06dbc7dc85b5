// QuantizeLinear and DequantizeLinear: parse and shape inference.
#include "ops/quant/quantize_linear.h"

#include "ops/quant/quantization.h"

namespace cnnx {

namespace {

LinearQuantParams parse_linear_quant(const Node& node) {
  require_inputs(node, 2, 3);
  require_outputs(node, 1, 1);
  if (node.opset >= 19) node.attrs.allow_only({"axis", "saturate", "block_size", "output_dtype"});
  else if (node.opset >= 13) node.attrs.allow_only({"axis"});
  else node.attrs.allow_only({});
  require(node.attrs.get_int("block_size", 0) == 0, "attribute 'block_size' = ", node.attrs.get_int("block_size", 0),
          ": blocked quantization (opset 21) is not supported");
  require(node.attrs.get_int("output_dtype", 0) == 0, "attribute 'output_dtype' = ",
          node.attrs.get_int("output_dtype", 0), " (opset 21) is not supported; give y_zero_point's type instead");
  const int64_t saturate = node.attrs.get_int("saturate", 1);
  require(saturate == 0 || saturate == 1, "attribute 'saturate' must be 0 or 1, got ", saturate);
  LinearQuantParams p;
  p.axis = node.attrs.get_int("axis", 1);
  p.axis_allowed = node.opset >= 13;
  return p;
}

// True when input i is known to hold more than one value (a per-axis scale).
bool per_axis(const std::vector<ValueInfo>& in, size_t i) {
  const ValueInfo& v = in[i];
  return v.rank_known && v.rank() == 1 && v.shape[0] != 1;
}

// The length of x's quantization axis, checking `axis` when the scale is per axis.
ScaleShape scale_shape(const LinearQuantParams& p, const ValueInfo& x, const std::vector<ValueInfo>& in) {
  ScaleShape s;
  s.per_axis_allowed = p.axis_allowed;
  if (!x.rank_known || !per_axis(in, 1)) return s;
  const int64_t axis = normalize_axis(p.axis, x.rank(), "attribute 'axis'");
  s.axis_len = x.shape[size_t(axis)];
  return s;
}

}  // namespace

LinearQuantParams parse_quantize_linear(const Node& node) { return parse_linear_quant(node); }
LinearQuantParams parse_dequantize_linear(const Node& node) { return parse_linear_quant(node); }

AxisWalk axis_walk(const Shape& shape, int64_t axis, int64_t scale_count) {
  AxisWalk w;
  if (scale_count <= 1) return w;
  const int64_t a = normalize_axis(axis, int64_t(shape.size()), "attribute 'axis'");
  w.inner = numel_range(shape, size_t(a) + 1, shape.size());
  w.len = shape[size_t(a)];
  require(w.len == scale_count, "the scale has ", scale_count, " values; axis ", a, " of ", to_string(shape), " has ",
          w.len);
  return w;
}

std::vector<ValueInfo> infer_quantize_linear(const LinearQuantParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  require(x.dtype == DType::f32 || x.dtype == DType::i32, "x (input 0) has element type ", dtype_name(x.dtype),
          "; expected float32 or int32");
  const DType y = type_or(in, 2, DType::u8);
  check_scale_zero_point(in, 1, 2, "y_scale", "y_zero_point", DType::undefined, scale_shape(p, x, in));
  if (!x.rank_known) return {ValueInfo::unknown(y)};
  return {ValueInfo::of(y, x.shape)};
}

std::vector<ValueInfo> infer_dequantize_linear(const LinearQuantParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  require(is_quantized_type(x.dtype) || x.dtype == DType::i32, "x (input 0) has element type ", dtype_name(x.dtype),
          "; expected int8, uint8 or int32");
  check_scale_zero_point(in, 1, 2, "x_scale", "x_zero_point", x.dtype, scale_shape(p, x, in));
  if (!x.rank_known) return {ValueInfo::unknown(DType::f32)};
  return {ValueInfo::of(DType::f32, x.shape)};
}

}  // namespace cnnx
