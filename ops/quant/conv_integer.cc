// ConvInteger: parse and shape inference.
#include "ops/quant/conv_integer.h"

#include "ops/common/node_checks.h"
#include "ops/quant/quantization.h"

namespace cnnx {

ConvParams parse_quantized_conv_window(const Node& node, size_t min_inputs, size_t max_inputs) {
  check_node(node, min_inputs, max_inputs, {"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"});
  ConvParams p;
  static_cast<ConvWindow&>(p) = parse_conv_window(node);
  return p;
}

ConvIntegerParams parse_conv_integer(const Node& node) {
  ConvIntegerParams p;
  p.conv = parse_quantized_conv_window(node, 2, 4);
  return p;
}

std::vector<ValueInfo> infer_conv_integer(const ConvIntegerParams& p, const std::vector<ValueInfo>& in) {
  require_quantized(in, 0, "x");
  require_quantized(in, 1, "w");
  for (size_t i : {size_t(2), size_t(3)}) {
    if (!present(in, i)) continue;
    const DType want = in[i - 2].dtype;
    require(in[i].dtype == want, i == 2 ? "x_zero_point" : "w_zero_point", " (input ", i, ") has element type ",
            dtype_name(in[i].dtype), "; expected ", dtype_name(want), ", the type of the tensor it quantizes");
  }
  if (!in[0].rank_known || !in[1].rank_known) return {ValueInfo::unknown(DType::i32)};
  const ConvGeometry g = resolve_conv_geometry(p.conv, {in[0], in[1]});
  if (present(in, 2)) {
    const ValueInfo& z = in[2];
    require(!z.rank_known || z.rank() == 0 || (z.rank() == 1 && z.shape[0] == 1), "x_zero_point must be a scalar, got shape ",
            to_string(z.shape));
  }
  if (present(in, 3)) {
    const ValueInfo& z = in[3];
    require(!z.rank_known || z.rank() == 0 ||
                (z.rank() == 1 && (z.shape[0] == 1 || z.shape[0] < 0 || g.M < 0 || z.shape[0] == g.M)),
            "w_zero_point must be a scalar or 1-D with one value per output channel (", g.M, "), got shape ",
            to_string(z.shape));
  }
  return {ValueInfo::of(DType::i32, g.output_shape())};
}

}  // namespace cnnx
