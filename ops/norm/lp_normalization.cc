#include "ops/norm/lp_normalization.h"

#include "ops/common/node_checks.h"

namespace cnnx {

LpNormParams parse_lp_norm(const Node& node) {
  check_node(node, 1, 1, {"axis", "p"});
  LpNormParams p;
  p.axis = node.attrs.get_int("axis", -1);
  const int64_t order = node.attrs.get_int("p", 2);
  require(order == 1 || order == 2, "attribute 'p' must be 1 or 2, got ", order);
  p.p = int(order);
  return p;
}

std::vector<ValueInfo> infer_lp_norm(const LpNormParams& p, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32});
  normalize_axis(p.axis, in[0].rank(), "axis");
  return {same_as_input(in)};
}

}  // namespace cnnx
