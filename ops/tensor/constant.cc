// Constant (opset 1+).
#include "ops/tensor/constant.h"

#include <algorithm>

#include "ops/common/data_movement.h"

namespace cnnx {

ConstantParams parse_constant(const Node& node) {
  require_inputs(node, 0, 0);
  require_outputs(node, 1, 1);
  const Attributes& a = node.attrs;
  require(!a.has("sparse_value"), "attribute 'sparse_value' is not supported (cnnx has no sparse tensors)");
  for (const char* s : {"value_string", "value_strings"})
    require(!a.has(s), "attribute '", s, "' is not supported (cnnx has no string tensors)");
  if (node.opset >= 12) a.allow_only({"value", "value_float", "value_floats", "value_int", "value_ints"});
  else a.allow_only({"value"});
  int set = 0;
  for (const char* s : {"value", "value_float", "value_floats", "value_int", "value_ints"}) set += a.has(s);
  require(set == 1, "exactly one of the attributes value, value_float, value_floats, value_int, value_ints must be "
          "given, got ", set);
  ConstantParams p;
  if (a.has("value")) {
    p.value = a.require_tensor("value");
  } else if (a.has("value_float")) {
    p.value = Tensor(DType::f32, {});
    p.value.data<float>()[0] = a.get_float("value_float", 0);
  } else if (a.has("value_floats")) {
    const std::vector<float> v = a.get_floats("value_floats");
    p.value = Tensor(DType::f32, {int64_t(v.size())});
    std::copy(v.begin(), v.end(), p.value.data<float>());
  } else if (a.has("value_int")) {
    p.value = Tensor(DType::i64, {});
    p.value.data<int64_t>()[0] = a.get_int("value_int", 0);
  } else {
    const std::vector<int64_t> v = a.get_ints("value_ints");
    p.value = Tensor(DType::i64, {int64_t(v.size())});
    std::copy(v.begin(), v.end(), p.value.data<int64_t>());
  }
  return p;
}

std::vector<ValueInfo> infer_constant(const ConstantParams& p, const std::vector<ValueInfo>&) {
  return {ValueInfo::of(p.value)};
}

}  // namespace cnnx
