#include "ops/eltwise/prelu.h"

#include "ops/common/broadcast.h"

namespace cnnx {

PReluParams parse_prelu(const Node& node) {
  require_inputs(node, 2, 2);
  require_outputs(node, 1, 1);
  if (node.opset < 6) {
    node.attrs.allow_only({"consumed_inputs"});
    node.attrs.get_ints("consumed_inputs");  // a legacy in-place hint: read (for its type) and ignored
  } else {
    node.attrs.allow_only({});
  }
  PReluParams p;
  p.legacy_channel_slope = node.opset < 7;
  return p;
}

Shape slope_shape(const PReluParams& p, const Shape& x, const Shape& slope) {
  if (!p.legacy_channel_slope || slope.size() != 1 || x.size() < 2 || slope[0] != x[1] || slope[0] < 0 ||
      slope[0] == 1)
    return slope;
  Shape per_channel(x.size() - 1, 1);
  per_channel[0] = slope[0];
  return per_channel;
}

std::string prelu_caution(const PReluParams& p, const std::vector<ValueInfo>& in) {
  if (in.size() < 2 || !in[0].rank_known || !in[1].rank_known || slope_shape(p, in[0].shape, in[1].shape) == in[1].shape)
    return "";
  return "slope " + to_string(in[1].shape) + " is read per channel (X's dim 1), as opsets 1-6 meant and PyTorch " +
         "exports nn.PReLU; opset 7 on would broadcast it onto the last axis";
}

std::vector<ValueInfo> infer_prelu(const PReluParams& p, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32});
  require_dtype(in, 1, {DType::f32}, "slope");
  const Shape& x = in[0].shape;
  const Shape s = slope_shape(p, x, in[1].shape);
  require(s.size() <= x.size(), "slope ", to_string(s), " does not broadcast onto X ", to_string(x),
          " (it has more dims)");
  for (size_t i = 0; i < s.size(); ++i) {
    const int64_t sd = s[s.size() - 1 - i], xd = x[x.size() - 1 - i];
    require(sd < 0 || xd < 0 || sd == xd || sd == 1, "slope ", to_string(s), " does not broadcast onto X ",
            to_string(x));
  }
  return {same_as_input(in)};
}

}  // namespace cnnx
