// IsNaN and IsInf: attributes and shapes.
#include "ops/eltwise/is_nan_inf.h"

#include "ops/common/node_checks.h"

namespace cnnx {

IsNanInfParams parse_is_nan(const Node& node) {
  check_node(node, 1, 1, {});
  IsNanInfParams p;
  p.nan = true;
  return p;
}

IsNanInfParams parse_is_inf(const Node& node) {
  check_node(node, 1, 1, {"detect_negative", "detect_positive"});
  IsNanInfParams p;
  for (auto [name, flag] : {std::pair{"detect_negative", &p.negative}, std::pair{"detect_positive", &p.positive}}) {
    const int64_t v = node.attrs.get_int(name, 1);
    require(v == 0 || v == 1, "attribute '", name, "' must be 0 or 1, got ", v);
    *flag = v == 1;
  }
  return p;
}

std::vector<ValueInfo> infer_is_nan_inf(const IsNanInfParams&, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32, DType::f64});
  ValueInfo y = same_as_input(in);
  y.dtype = DType::boolean;
  return {y};
}

}  // namespace cnnx
