// Gather (opset 1+), any data element type.
#include "ops/index/gather.h"

#include <cstring>

#include "ops/common/data_movement.h"

namespace cnnx {

GatherParams parse_gather(const Node& node) {
  GatherParams p;
  p.axis = parse_axis_node(node, 2);
  return p;
}

// Index `i` (entry `at` of the indices) mapped into [0, n), or throws.
int64_t checked_gather_index(int64_t i, int64_t n, int64_t at, int64_t axis) {
  require(i >= -n && i < n, "index ", i, " (entry ", at, " of the indices) is out of range for axis ", axis,
          " of size ", n);
  return i < 0 ? i + n : i;
}

std::vector<ValueInfo> infer_gather(const GatherParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& data = input(in, 0);
  require_dtype(in, 1, {DType::i64, DType::i32}, "input");
  const ValueInfo& indices = in[1];
  require(data.rank() >= 1, "input 0 (data) must have rank >= 1, got a scalar");
  const size_t axis = size_t(normalize_axis(p.axis, data.rank(), "axis"));
  const int64_t n = data.shape[axis];
  if (indices.constant && n >= 0)  // catch bad constant indices at load time
    for (int64_t k = 0; k < indices.constant->numel(); ++k)
      checked_gather_index(indices.constant->int_at(k), n, k, int64_t(axis));
  Shape out(data.shape.begin(), data.shape.begin() + int64_t(axis));
  out.insert(out.end(), indices.shape.begin(), indices.shape.end());
  out.insert(out.end(), data.shape.begin() + int64_t(axis) + 1, data.shape.end());
  return {ValueInfo::of(data.dtype, out)};
}

}  // namespace cnnx
