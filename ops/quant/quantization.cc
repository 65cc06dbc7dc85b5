// Shared pieces of the quantized ops: ranges, storing, reading and checking scales and zero points.
#include "ops/quant/quantization.h"

namespace cnnx {

bool is_quantized_type(DType t) { return t == DType::i8 || t == DType::u8; }

QuantRange quant_range(DType t) {
  switch (t) {
    case DType::i8: return {-128, 127};
    case DType::u8: return {0, 255};
    case DType::i32: return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    default: break;
  }
  fail("element type ", dtype_name(t), " is not a quantized type (int8, uint8, int32)");
}

void store_quantized(Tensor& y, int64_t i, double r, int64_t zero_point, QuantRange range) {
  const int64_t q = quantized(r, zero_point, range);
  if (y.dtype() == DType::u8) y.data<uint8_t>()[i] = uint8_t(q);
  else y.data<int8_t>()[i] = int8_t(q);
}

QuantParams read_quant_params(const Tensor& scale, const Tensor* zero_point, const std::string& what) {
  QuantParams q;
  const float* s = scale.data<float>();
  for (int64_t i = 0; i < scale.numel(); ++i) {
    require(std::isfinite(s[i]) && s[i] > 0, what, " must be finite and positive, got ", s[i], " at index ", i);
    q.scale.push_back(double(s[i]));
  }
  require(!q.scale.empty(), what, " is empty");
  if (zero_point) {
    require(zero_point->numel() == scale.numel(), what, " has ", scale.numel(), " values but its zero point has ",
            zero_point->numel());
    for (int64_t i = 0; i < zero_point->numel(); ++i) q.zero_point.push_back(zero_point->int_at(i));
  } else {
    q.zero_point.push_back(0);
  }
  return q;
}

QuantParams read_quant_params(const KernelIO& io, size_t scale, const std::string& what) {
  return read_quant_params(*io.in[scale], io.optional_in(scale + 1), what);
}

QuantizedUnaryIO read_quantized_unary(const KernelIO& io, const char* x_scale, const char* y_scale) {
  const QuantParams x = read_quant_params(io, 1, x_scale), y = read_quant_params(io, 3, y_scale);
  Tensor& Y = *io.out[0];
  return {*io.in[0], Y, x.scale_at(0), y.scale_at(0), x.zero_point_at(0), y.zero_point_at(0), quant_range(Y.dtype())};
}

namespace {

bool known(int64_t d) { return d >= 0; }

// Throws unless `v` is one value, or (when allowed) a 1-D tensor of shape.axis_len values.
void check_quant_shape(const ValueInfo& v, const char* name, ScaleShape shape) {
  if (!v.rank_known) return;
  const bool one = v.rank() == 0 || (v.rank() == 1 && v.shape[0] == 1);
  if (one) return;
  if (!shape.per_axis_allowed) {
    require(v.rank() == 1 && !known(v.shape[0]), name, " must be a scalar (per-tensor quantization), got shape ",
            to_string(v.shape));
    return;
  }
  require(v.rank() == 1, name, " must be a scalar or 1-D (one value per index of the axis), got shape ",
          to_string(v.shape));
  require(!known(v.shape[0]) || !known(shape.axis_len) || v.shape[0] == shape.axis_len, name, " has ", v.shape[0],
          " values; the quantization axis has ", shape.axis_len);
}

}  // namespace

void check_scale_zero_point(const std::vector<ValueInfo>& in, size_t scale, size_t zero_point,
                            const char* scale_name, const char* zp_name, DType zp_type, ScaleShape shape) {
  require(present(in, scale), scale_name, " (input ", scale, ") is missing");
  const ValueInfo& s = in[scale];
  require(s.dtype == DType::f32, scale_name, " (input ", scale, ") has element type ", dtype_name(s.dtype),
          "; expected float32", is_floating(s.dtype) ? " (other float scales are not supported yet)" : "");
  check_quant_shape(s, scale_name, shape);
  if (s.constant) read_quant_params(*s.constant, nullptr, scale_name);
  if (!present(in, zero_point)) return;
  const ValueInfo& z = in[zero_point];
  if (zp_type == DType::undefined)
    require(is_quantized_type(z.dtype), zp_name, " (input ", zero_point, ") has element type ", dtype_name(z.dtype),
            "; expected int8 or uint8");
  else
    require(z.dtype == zp_type, zp_name, " (input ", zero_point, ") has element type ", dtype_name(z.dtype),
            "; expected ", dtype_name(zp_type), ", the type of the tensor it quantizes");
  check_quant_shape(z, zp_name, shape);
  if (s.rank_known && z.rank_known && s.concrete() && z.concrete())
    require(checked_numel(s.shape) == checked_numel(z.shape), zp_name, " has ", checked_numel(z.shape),
            " values but ", scale_name, " has ", checked_numel(s.shape));
}

void require_quantized(const std::vector<ValueInfo>& in, size_t i, const char* name) {
  const DType t = input(in, i).dtype;
  require(is_quantized_type(t), name, " (input ", i, ") has element type ", dtype_name(t),
          "; expected int8 or uint8");
}

void check_quantized_pool_inputs(const std::vector<ValueInfo>& in) {
  require_quantized(in, 0, "X");
  const DType t = in[0].dtype;
  check_scale_zero_point(in, 1, 2, "x_scale", "x_zero_point", t, {});
  check_scale_zero_point(in, 3, 4, "y_scale", "y_zero_point", t, {});
  const ValueInfo& x = in[0];
  require(!x.rank_known || x.rank() >= 3, "X must have a batch, a channel and at least one spatial axis, got shape ",
          to_string(x.shape));
}

std::pair<int64_t, int64_t> parse_output_clamp(const Node& node) {
  const int64_t y_min = node.attrs.get_int("y_min", std::numeric_limits<int64_t>::min());
  const int64_t y_max = node.attrs.get_int("y_max", std::numeric_limits<int64_t>::max());
  require(y_min <= y_max, "y_min ", y_min, " exceeds y_max ", y_max);
  return {y_min, y_max};
}

DType type_or(const std::vector<ValueInfo>& in, size_t i, DType fallback) {
  return present(in, i) ? in[i].dtype : fallback;
}

}  // namespace cnnx
