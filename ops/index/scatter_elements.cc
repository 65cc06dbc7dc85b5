// ScatterElements (opset 11+) and Scatter (9, 10), any data element type.
#include "ops/index/scatter_elements.h"

#include "ops/common/data_movement.h"
#include "ops/index/gather_elements.h"

namespace cnnx {

ScatterElementsParams parse_scatter_elements(const Node& node) {
  ScatterElementsParams p;
  require_inputs(node, 3, 3);
  require_outputs(node, 1, 1);
  if (node.op_type == "ScatterElements" && node.opset >= 16) {
    node.attrs.allow_only({"axis", "reduction"});
    p.reduction = parse_scatter_reduction(node);
  } else {
    node.attrs.allow_only({"axis"});
  }
  p.axis = node.attrs.get_int("axis", 0);
  return p;
}

std::vector<ValueInfo> infer_scatter_elements(const ScatterElementsParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& data = input(in, 0);
  require_dtype(in, 1, {DType::i64, DType::i32}, "input");
  const ValueInfo& updates = input(in, 2);
  require(data.rank() >= 1, "input 0 (data) must have rank >= 1, got a scalar");
  require(updates.dtype == data.dtype, "updates have element type ", dtype_name(updates.dtype), "; data has ",
          dtype_name(data.dtype));
  const size_t axis = size_t(normalize_axis(p.axis, data.rank(), "axis"));
  check_gather_elements_shapes(data.shape, in[1].shape, axis);
  require(updates.shape.size() == in[1].shape.size(), "updates ", to_string(updates.shape),
          " must have the shape of indices ", to_string(in[1].shape));
  for (size_t a = 0; a < updates.shape.size(); ++a)
    require(updates.shape[a] < 0 || in[1].shape[a] < 0 || updates.shape[a] == in[1].shape[a], "updates ",
            to_string(updates.shape), " must have the shape of indices ", to_string(in[1].shape));
  return {same_as_input(in)};
}

}  // namespace cnnx
