// QLinearConv: parse and shape inference.
#include "ops/quant/qlinear_conv.h"

#include <tuple>

#include "ops/quant/quantization.h"

namespace cnnx {

QLinearConvParams parse_qlinear_conv(const Node& node) {
  QLinearConvParams p;
  p.conv = parse_quantized_conv_window(node, 8, 9);
  return p;
}

QLinearConvParams parse_fused_qlinear_conv(const Node& node) {
  require_inputs(node, 8, 9);
  require_outputs(node, 1, 1);
  node.attrs.allow_only({"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides", "y_min", "y_max"});
  QLinearConvParams p;
  static_cast<ConvWindow&>(p.conv) = parse_conv_window(node);
  std::tie(p.y_min, p.y_max) = parse_output_clamp(node);
  return p;
}

std::vector<ValueInfo> infer_qlinear_conv(const QLinearConvParams& p, const std::vector<ValueInfo>& in) {
  require_quantized(in, 0, "x");
  require_quantized(in, 3, "w");
  const DType y = type_or(in, 7, in[0].dtype);
  if (!in[0].rank_known || !in[3].rank_known) return {ValueInfo::unknown(y)};
  const ConvGeometry g = resolve_conv_geometry(p.conv, {in[0], in[3]});
  check_scale_zero_point(in, 1, 2, "x_scale", "x_zero_point", in[0].dtype, {});
  check_scale_zero_point(in, 4, 5, "w_scale", "w_zero_point", in[3].dtype, {true, g.M});
  check_scale_zero_point(in, 6, 7, "y_scale", "y_zero_point", DType::undefined, {});
  if (present(in, 8)) {
    const ValueInfo& b = in[8];
    require(b.dtype == DType::i32, "B (input 8) has element type ", dtype_name(b.dtype), "; expected int32");
    require(!b.rank_known || (b.rank() == 1 && (b.shape[0] < 0 || g.M < 0 || b.shape[0] == g.M)),
            "B (input 8) must be 1-D with one value per output channel (", g.M, "), got shape ", to_string(b.shape));
  }
  const QuantRange r = quant_range(y);
  require(p.y_min <= r.hi && p.y_max >= r.lo, "y_min ", p.y_min,
          " and y_max ", p.y_max, " leave no value of y's type ", dtype_name(y));
  return {ValueInfo::of(y, g.output_shape())};
}

}  // namespace cnnx
