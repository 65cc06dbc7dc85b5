#include "ops/reduce/cumsum.h"

#include <type_traits>

#include "ops/common/node_checks.h"
#include "ops/common/data_movement.h"

namespace cnnx {

CumSumParams parse_cumsum(const Node& node) {
  check_node(node, 2, 2, {"exclusive", "reverse"});
  CumSumParams p;
  p.exclusive = node.attrs.get_flag("exclusive", false);
  p.reverse = node.attrs.get_flag("reverse", false);
  return p;
}

std::vector<ValueInfo> infer_cumsum(const CumSumParams&, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32, DType::f64, DType::i32, DType::i64});
  require_dtype(in, 1, {DType::i32, DType::i64}, "input");
  const ValueInfo& x = in[0];
  const ValueInfo& a = in[1];
  require(!x.rank_known || x.rank() >= 1, "input 0 must have rank 1 or more, got a scalar");
  require(!a.rank_known || a.rank() == 0 || (a.rank() == 1 && (a.shape[0] == 1 || a.shape[0] == kUnknownDim)),
          "input 1 (axis) must be a scalar or hold one value, got shape ", to_string(a.shape));
  std::vector<int64_t> axis;
  if (x.rank_known && constant_ints(in, 1, axis) && !axis.empty()) normalize_axis(axis[0], x.rank(), "axis");
  return {same_as_input(in)};
}

}  // namespace cnnx
