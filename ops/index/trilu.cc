// Trilu (opset 14+).
#include "ops/index/trilu.h"

#include <cstring>

#include "ops/common/data_movement.h"

namespace cnnx {

TriluParams parse_trilu(const Node& node) {
  check_node(node, 1, 2, {"upper"});
  TriluParams p;
  const int64_t upper = node.attrs.get_int("upper", 1);
  require(upper == 0 || upper == 1, "attribute 'upper' must be 0 or 1, got ", upper);
  p.upper = upper == 1;
  return p;
}

std::vector<ValueInfo> infer_trilu(const TriluParams&, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  require(x.rank() >= 2, "input 0 must have rank >= 2, got shape ", to_string(x.shape));
  if (present(in, 1)) {
    require_dtype(in, 1, {DType::i64}, "input");
    const ValueInfo& k = in[1];
    require(k.rank() == 0 || (k.rank() == 1 && k.shape[0] <= 1), "input 1 (k) must be a scalar, got shape ",
            to_string(k.shape));
  }
  return {same_as_input(in)};
}

}  // namespace cnnx
