// QLinearConv: parse and shape inference.
#include "ops/quant/qlinear_conv.h"

#include "ops/quant/quantization.h"

namespace cnnx {

QLinearConvParams parse_qlinear_conv(const Node& node) {
  QLinearConvParams p;
  p.conv = parse_quantized_conv_window(node, 8, 9);
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
  return {ValueInfo::of(y, g.output_shape())};
}

}  // namespace cnnx
