#include "ops/index/one_hot.h"

#include <cmath>

#include "ops/common/data_movement.h"

namespace cnnx {

OneHotParams parse_one_hot(const Node& node) {
  check_node(node, 3, 3, {"axis"});
  OneHotParams p;
  p.axis = node.attrs.get_int("axis", -1);
  p.negative_indices = node.opset >= 11;
  return p;
}

int64_t one_hot_depth(const Tensor& depth) {
  require(depth.numel() == 1, "depth must hold one value, got shape ", to_string(depth.shape()));
  const double d = depth.double_at(0);
  require(std::isfinite(d) && std::trunc(d) >= 1 && std::trunc(d) <= double(kMaxSize), "depth is ", d,
          "; it must be at least 1 and at most ", kMaxSize);
  return int64_t(d);
}

std::vector<ValueInfo> infer_one_hot(const OneHotParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& indices = input(in, 0);
  require(indices.dtype != DType::boolean, "indices must be numeric, got bool");
  for (size_t i : {size_t(1), size_t(2)})
    require(input(in, i).dtype != DType::undefined, "input ", i, " has no element type");
  require(in[1].dtype != DType::boolean, "depth must be numeric, got bool");
  require(in[1].rank() == 0 || (in[1].rank() == 1 && in[1].shape[0] <= 1), "depth must be a scalar, got shape ",
          to_string(in[1].shape));
  require(in[2].rank() == 1 && (in[2].shape[0] < 0 || in[2].shape[0] == 2),
          "values must be [off_value, on_value], got shape ", to_string(in[2].shape));
  const int64_t rank = indices.rank() + 1;
  const int64_t axis = normalize_axis(p.axis, rank, "axis");
  Shape y = indices.shape;
  y.insert(y.begin() + axis, in[1].constant ? one_hot_depth(*in[1].constant) : kUnknownDim);
  return {ValueInfo::of(in[2].dtype, y)};
}

}  // namespace cnnx
