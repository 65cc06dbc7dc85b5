#include "ops/norm/mean_variance_normalization.h"

#include "ops/common/data_movement.h"

namespace cnnx {

MvnParams parse_mvn(const Node& node) {
  check_node(node, 1, 1, {"axes"});
  MvnParams p;
  p.axes = node.attrs.get_ints("axes", p.axes);
  return p;
}

std::vector<ValueInfo> infer_mvn(const MvnParams& p, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32});
  normalize_axes(p.axes, in[0].rank(), "axes");
  return {same_as_input(in)};
}

}  // namespace cnnx
