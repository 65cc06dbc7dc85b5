// ScatterND (opset 11+), any data element type.
#include "ops/index/scatter_nd.h"

#include <algorithm>
#include <cstring>

#include "ops/common/data_movement.h"
#include "ops/index/gather_nd.h"

namespace cnnx {

ScatterReduction parse_scatter_reduction(const Node& node) {
  if (node.opset < 16) return ScatterReduction::none;
  const std::string r = node.attrs.get_string("reduction", "none");
  if (r == "none") return ScatterReduction::none;
  if (r == "add") return ScatterReduction::add;
  if (r == "mul") return ScatterReduction::mul;
  if (r == "max" && node.opset >= 18) return ScatterReduction::max;
  if (r == "min" && node.opset >= 18) return ScatterReduction::min;
  fail("attribute 'reduction' = '", r, "' is not one of none, add, mul",
       node.opset >= 18 ? ", max, min" : " (max and min need opset 18)");
}

ScatterNDParams parse_scatter_nd(const Node& node) {
  require_inputs(node, 3, 3);
  require_outputs(node, 1, 1);
  if (node.opset < 16) node.attrs.allow_only({});
  else node.attrs.allow_only({"reduction"});
  ScatterNDParams p;
  p.reduction = parse_scatter_reduction(node);
  return p;
}

void check_scatter_nd_shapes(const Shape& data, const Shape& indices, const Shape& updates) {
  require(!data.empty() && !indices.empty(), "data and indices must have rank >= 1");
  const int64_t k = indices.back();
  if (k < 0) return;
  require(k >= 1 && k <= int64_t(data.size()), "the last dim of indices (", k, ") must be in [1, ", data.size(), "]");
  Shape want(indices.begin(), indices.end() - 1);
  want.insert(want.end(), data.begin() + k, data.end());
  require(want.size() == updates.size(), "updates ", to_string(updates), " must have shape ", to_string(want));
  for (size_t a = 0; a < want.size(); ++a)
    require(want[a] < 0 || updates[a] < 0 || want[a] == updates[a], "updates ", to_string(updates),
            " must have shape ", to_string(want));
}

std::vector<ValueInfo> infer_scatter_nd(const ScatterNDParams&, const std::vector<ValueInfo>& in) {
  const ValueInfo& data = input(in, 0);
  require_dtype(in, 1, {DType::i64}, "input");
  const ValueInfo& updates = input(in, 2);
  require(updates.dtype == data.dtype, "updates have element type ", dtype_name(updates.dtype), "; data has ",
          dtype_name(data.dtype));
  check_scatter_nd_shapes(data.shape, in[1].shape, updates.shape);
  return {same_as_input(in)};
}

}  // namespace cnnx
