// Split (opset 1+), any element type.
#include "ops/tensor/split.h"

#include <cstring>

#include "ops/common/data_movement.h"

namespace cnnx {

SplitParams parse_split(const Node& node) {
  SplitParams p;
  require(!node.outputs.empty(), "expects at least 1 output, got 0");
  p.outputs = node.outputs.size();
  if (node.opset >= 18) node.attrs.allow_only({"axis", "num_outputs"});
  else if (node.opset >= 13) node.attrs.allow_only({"axis"});
  else node.attrs.allow_only({"axis", "split"});
  p.split_from_input = node.opset >= 13 || node.opset == 1;
  require_inputs(node, 1, p.split_from_input ? 2 : 1);
  p.axis = node.attrs.get_int("axis", 0);
  p.has_split = node.attrs.has("split");
  p.split = node.attrs.get_ints("split");
  if (node.attrs.has("num_outputs")) {
    p.num_outputs = node.attrs.require_int("num_outputs");
    require(p.num_outputs >= 1 && size_t(p.num_outputs) == p.outputs, "attribute 'num_outputs' = ", p.num_outputs,
            " must equal the number of outputs, ", p.outputs);
    require(!has_input(node, 1), "give either input 1 (split) or attribute 'num_outputs', not both");
  }
  if (p.has_split)
    require(!has_input(node, 1), "give either input 1 (split) or attribute 'split', not both");
  return p;
}

// Part sizes for an axis of size `dim` (kUnknownDim: sizes that depend on it are unknown).
std::vector<int64_t> split_part_sizes(const SplitParams& p, int64_t dim, const std::vector<int64_t>* given) {
  const size_t n = p.outputs;
  if (given) {
    require(given->size() == n, "split ", list_string(*given), " has ", given->size(), " sizes for ", n,
            " outputs");
    int64_t sum = 0;
    for (int64_t s : *given) {
      require(s >= 0, "split ", list_string(*given), " has a negative size");
      sum = checked_add(sum, s, "sum of split sizes");
    }
    require(dim < 0 || sum == dim, "split ", list_string(*given), " adds up to ", sum, ", not the axis's size ", dim);
    return *given;
  }
  if (dim < 0) return std::vector<int64_t>(n, kUnknownDim);
  if (p.num_outputs > 0) {
    const int64_t chunk = (dim + int64_t(n) - 1) / int64_t(n);
    std::vector<int64_t> sizes(n, chunk);
    const int64_t last = dim - chunk * int64_t(n - 1);
    require(last >= 0, "an axis of size ", dim, " cannot be split into ", n, " parts of ", chunk,
            " with a smaller last one");
    sizes.back() = last;
    return sizes;
  }
  require(dim % int64_t(n) == 0, "an axis of size ", dim, " cannot be split into ", n, " equal parts");
  return std::vector<int64_t>(n, dim / int64_t(n));
}

std::vector<ValueInfo> infer_split(const SplitParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  const size_t axis = size_t(normalize_axis(p.axis, x.rank(), "axis"));
  std::vector<int64_t> given;
  const std::vector<int64_t>* sizes_arg = p.has_split ? &p.split : nullptr;
  if (p.split_from_input && present(in, 1)) {
    require_dtype(in, 1, {DType::i64}, "input");
    if (!constant_ints(in, 1, given)) return std::vector<ValueInfo>(p.outputs, unknown_dims(x.dtype, x.rank()));
    sizes_arg = &given;
  }
  const std::vector<int64_t> sizes = split_part_sizes(p, x.shape[axis], sizes_arg);
  std::vector<ValueInfo> out;
  for (int64_t s : sizes) {
    Shape shape = x.shape;
    shape[axis] = s;
    out.push_back(ValueInfo::of(x.dtype, shape));
  }
  return out;
}

bool constant_split_sizes(const SplitParams& p, const std::vector<ValueInfo>& in, std::vector<int64_t>& sizes) {
  const ValueInfo& x = input(in, 0);
  const size_t axis = size_t(normalize_axis(p.axis, x.rank(), "axis"));
  std::vector<int64_t> given;
  const std::vector<int64_t>* sizes_arg = p.has_split ? &p.split : nullptr;
  if (p.split_from_input && present(in, 1)) {
    if (!constant_ints(in, 1, given)) return false;
    sizes_arg = &given;
  }
  sizes = split_part_sizes(p, x.shape[axis], sizes_arg);
  return true;
}

}  // namespace cnnx
