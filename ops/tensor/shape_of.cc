// Shape (opset 1+; start/end from opset 15).
#include "ops/tensor/shape_of.h"

#include <algorithm>

#include "ops/common/node_checks.h"

namespace cnnx {

ShapeParams parse_shape_of(const Node& node) {
  require_inputs(node, 1, 1);
  require_outputs(node, 1, 1);
  if (node.opset >= 15) node.attrs.allow_only({"start", "end"});
  else node.attrs.allow_only({});
  ShapeParams p;
  p.start = node.attrs.get_int("start", p.start);
  p.end = node.attrs.get_int("end", p.end);
  return p;
}

namespace {

Tensor dims_tensor(const Shape& dims) {
  Tensor t(DType::i64, {int64_t(dims.size())});
  std::copy(dims.begin(), dims.end(), t.data<int64_t>());
  return t;
}

}  // namespace

// The selected dims [start, end) of `shape`.
Shape shape_of_dims(const ShapeParams& p, const Shape& shape) {
  const int64_t rank = int64_t(shape.size());
  auto clamp = [rank](int64_t i) { return std::max<int64_t>(0, std::min(rank, i < 0 ? i + rank : i)); };
  const int64_t start = clamp(p.start), end = clamp(p.end);
  return end > start ? Shape(shape.begin() + start, shape.begin() + end) : Shape{};
}

std::vector<ValueInfo> infer_shape_of(const ShapeParams& p, const std::vector<ValueInfo>& in) {
  const Shape dims = shape_of_dims(p, input(in, 0).shape);
  if (is_concrete(dims)) return {ValueInfo::of(dims_tensor(dims))};
  return {ValueInfo::of(DType::i64, {int64_t(dims.size())})};
}

std::vector<ValueInfo> infer_size(const NoParams&, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  if (!x.concrete()) return {ValueInfo::of(DType::i64, {})};
  Tensor count(DType::i64, {});
  *count.data<int64_t>() = checked_numel(x.shape);
  return {ValueInfo::of(count)};
}

}  // namespace cnnx
