#include "ops/norm/mean_variance_normalization.h"

#include "ops/common/node_checks.h"

namespace cnnx {

MvnParams parse_mvn(const Node& node) {
  check_node(node, 1, 1, {"axes"});
  MvnParams p;
  p.axes = node.attrs.get_ints("axes", p.axes);
  return p;
}

std::vector<ValueInfo> infer_mvn(const MvnParams& p, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32});
  std::vector<bool> seen(size_t(in[0].rank()), false);
  for (int64_t a : p.axes) {
    const int64_t axis = normalize_axis(a, in[0].rank(), "axes");
    require(!seen[size_t(axis)], "axes lists axis ", axis, " twice");
    seen[size_t(axis)] = true;
  }
  return {same_as_input(in)};
}

}  // namespace cnnx
