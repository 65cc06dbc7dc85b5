// GatherElements (opset 11+), any data element type.
#include "ops/index/gather_elements.h"

#include "ops/common/data_movement.h"

namespace cnnx {

void check_gather_elements_shapes(const Shape& data, const Shape& indices, size_t axis) {
  require(indices.size() == data.size(), "indices ", to_string(indices), " must have the rank of data ",
          to_string(data));
  for (size_t a = 0; a < data.size(); ++a)
    if (a != axis && data[a] >= 0 && indices[a] > data[a])
      fail("indices ", to_string(indices), " are larger than data ", to_string(data), " along axis ", a);
}

std::vector<ValueInfo> infer_gather_elements(const GatherParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& data = input(in, 0);
  require_dtype(in, 1, {DType::i64, DType::i32}, "input");
  require(data.rank() >= 1, "input 0 (data) must have rank >= 1, got a scalar");
  const size_t axis = size_t(normalize_axis(p.axis, data.rank(), "axis"));
  check_gather_elements_shapes(data.shape, in[1].shape, axis);
  const int64_t n = data.shape[axis];
  if (in[1].constant && n >= 0)
    for (int64_t k = 0; k < in[1].constant->numel(); ++k) {
      const int64_t i = in[1].constant->int_at(k);
      require(i >= -n && i < n, "index ", i, " (entry ", k, " of the indices) is out of range for axis ", axis,
              " of size ", n);
    }
  return {ValueInfo::of(data.dtype, in[1].shape)};
}

}  // namespace cnnx
