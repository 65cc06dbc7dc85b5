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
  return {};
}

std::vector<ValueInfo> infer_prelu(const PReluParams&, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32});
  require_dtype(in, 1, {DType::f32}, "slope");
  const Shape& x = in[0].shape;
  const Shape& s = in[1].shape;
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
