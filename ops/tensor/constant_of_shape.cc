// ConstantOfShape (opset 9+), any element type.
#include "ops/tensor/constant_of_shape.h"

#include <algorithm>

#include "ops/common/data_movement.h"

namespace cnnx {

ConstantOfShapeParams parse_constant_of_shape(const Node& node) {
  check_node(node, 1, 1, {"value"});
  ConstantOfShapeParams p;
  if (node.attrs.has("value")) {
    p.value = node.attrs.require_tensor("value");
    require(p.value.numel() == 1, "attribute 'value' must hold one element, got shape ", to_string(p.value.shape()));
  } else {
    p.value = Tensor(DType::f32, {1});  // zero-filled
  }
  return p;
}

std::vector<ValueInfo> infer_constant_of_shape(const ConstantOfShapeParams& p, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::i64}, "input");
  const ValueInfo& s = in[0];
  require(s.rank() == 1, "input 0 (shape) must be 1-D, got shape ", to_string(s.shape));
  std::vector<int64_t> shape;
  if (!constant_ints(in, 0, shape))
    return {s.shape[0] >= 0 ? unknown_dims(p.value.dtype(), s.shape[0]) : ValueInfo::unknown(p.value.dtype())};
  for (int64_t d : shape) require(d >= 0, "input 0 (shape) ", list_string(shape), " has a negative dim");
  checked_numel(shape);  // overflow-checked: beyond kMaxSize elements is an error, not a wrap-around
  return {ValueInfo::of(p.value.dtype(), shape)};
}

}  // namespace cnnx
