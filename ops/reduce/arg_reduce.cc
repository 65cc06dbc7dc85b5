#include "ops/reduce/arg_reduce.h"

#include <type_traits>

namespace cnnx {

Shape arg_reduce_shape(const ArgReduceParams& p, const Shape& in, int64_t axis) {
  Shape out;
  for (size_t d = 0; d < in.size(); ++d) {
    if (int64_t(d) != axis) out.push_back(in[d]);
    else if (p.keepdims) out.push_back(1);
  }
  return out;
}

int64_t arg_reduce_axis(const ArgReduceParams& p, int64_t rank) {
  return normalize_axis(p.axis, std::max<int64_t>(rank, 1), "axis");
}

std::string arg_reduce_caution(const ArgReduceParams& p, const std::vector<ValueInfo>&) {
  if (p.negative_axis || p.axis >= 0) return "";
  return "axis " + std::to_string(p.axis) + " is negative, which ONNX documents from opset 11 on; read from the back, " +
         "as ONNX Runtime does";
}

ArgReduceParams parse_arg_reduce(bool is_max, const Node& node) {
  ArgReduceParams p;
  p.is_max = is_max;
  require_inputs(node, 1, 1);
  require_outputs(node, 1, 1);
  for (const auto& [name, value] : node.attrs.all()) {
    if (name == "select_last_index")
      require(node.opset >= 12, "attribute 'select_last_index' needs opset 12 or newer; the model imports opset ",
              node.opset);
    else
      require(name == "axis" || name == "keepdims", "unknown attribute '", name, "'");
  }
  p.negative_axis = node.opset >= 11;
  p.axis = node.attrs.get_int("axis", 0);
  p.keepdims = node.attrs.get_flag("keepdims", true);
  p.select_last_index = node.attrs.get_flag("select_last_index", false);
  return p;
}

std::vector<ValueInfo> infer_arg_reduce(const ArgReduceParams& p, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32, DType::f64, DType::i32, DType::i64, DType::i8, DType::u8});
  const ValueInfo& x = in[0];
  require(x.rank() >= 1, "input 0 must have rank 1 or more, got a scalar");
  const int64_t axis = arg_reduce_axis(p, x.rank());
  require(x.shape[size_t(axis)] != 0, "axis ", p.axis, " has size 0: there is no index to return");
  return {ValueInfo::of(DType::i64, arg_reduce_shape(p, x.shape, axis))};
}

}  // namespace cnnx
