// cnnx.internal QLinearChannelLookup: parse and shape inference.
#include "ops/quant/qlinear_channel_lookup.h"

#include "ops/quant/quantization.h"

namespace cnnx {

NoParams parse_qlinear_channel_lookup(const Node& node) {
  require_inputs(node, 2, 1 + 4096);
  require_outputs(node, 1, 1);
  node.attrs.allow_only({});
  return {};
}

std::vector<ValueInfo> infer_qlinear_channel_lookup(const NoParams&, const std::vector<ValueInfo>& in) {
  require_quantized(in, 0, "table");
  const ValueInfo& table = input(in, 0);
  require(table.rank_known && table.rank() == 2 && table.shape[1] == 256, "table (input 0) must be [C, 256]; got ",
          table.rank_known ? to_string(table.shape) : std::string("an unknown shape"));
  Shape y;
  int64_t channels = 0;
  for (size_t i = 1; i < in.size(); ++i) {
    const std::string name = "x_" + std::to_string(i - 1);
    require_quantized(in, i, name.c_str());
    const ValueInfo& x = input(in, i);
    if (!x.rank_known) return {ValueInfo::unknown(table.dtype)};
    require(x.rank() >= 2, name, " must have a channel axis (rank >= 2); got ", to_string(x.shape));
    if (i == 1) y = x.shape;
    require(x.rank() == int64_t(y.size()), name, " has rank ", x.rank(), "; x_0 has ", y.size());
    for (size_t d = 0; d < y.size(); ++d)
      if (d != 1) {
        require(y[d] < 0 || x.shape[d] < 0 || y[d] == x.shape[d], name, " ", to_string(x.shape),
                " differs from x_0 on axis ", d, ", which is not the channel axis");
        if (y[d] < 0) y[d] = x.shape[d];
      }
    channels = channels < 0 || x.shape[1] < 0 ? kUnknownDim : channels + x.shape[1];
  }
  require(channels < 0 || table.shape[0] < 0 || channels == table.shape[0], "the inputs hold ", channels,
          " channels; the table has ", table.shape[0], " rows");
  y[1] = table.shape[0] >= 0 ? table.shape[0] : channels;
  return {ValueInfo::of(table.dtype, y)};
}

}  // namespace cnnx
