// GatherND (opset 11+), any data element type.
#include "ops/index/gather_nd.h"

#include <cstring>

#include "ops/common/data_movement.h"

namespace cnnx {

GatherNDParams parse_gather_nd(const Node& node) {
  require_inputs(node, 2, 2);
  require_outputs(node, 1, 1);
  if (node.opset >= 12) node.attrs.allow_only({"batch_dims"});
  else node.attrs.allow_only({});
  GatherNDParams p;
  p.batch_dims = node.attrs.get_int("batch_dims", 0);
  require(p.batch_dims >= 0, "attribute 'batch_dims' must be >= 0, got ", p.batch_dims);
  return p;
}

int64_t nd_offset(const Shape& data, const std::vector<int64_t>& strides, size_t first, const Tensor& indices,
                  int64_t tuple, int64_t k) {
  int64_t off = 0;
  for (int64_t j = 0; j < k; ++j) {
    const int64_t n = data[first + size_t(j)];
    const int64_t i = indices.int_at(tuple * k + j);
    require(i >= -n && i < n, "index ", i, " (entry ", tuple * k + j, " of the indices) is out of range for axis ",
            first + size_t(j), " of size ", n);
    off += (i < 0 ? i + n : i) * strides[first + size_t(j)];
  }
  return off;
}

Shape gather_nd_shape(int64_t b, const Shape& data, const Shape& indices) {
  const int64_t r = int64_t(data.size()), q = int64_t(indices.size());
  require(r >= 1 && q >= 1, "data and indices must have rank >= 1");
  require(b < std::min(r, q), "batch_dims ", b, " must be less than the ranks of data (", r, ") and indices (", q,
          ")");
  const int64_t k = indices.back();
  if (k >= 0)
    require(k >= 1 && k <= r - b, "the last dim of indices (", k, ") must be in [1, ", r - b, "]");
  for (size_t a = 0; a < size_t(b); ++a)
    require(data[a] < 0 || indices[a] < 0 || data[a] == indices[a], "batch dim ", a, " of data ", to_string(data),
            " and indices ", to_string(indices), " differ");
  Shape out(indices.begin(), indices.end() - 1);
  if (k < 0) return Shape();  // rank unknown: caller handles
  out.insert(out.end(), data.begin() + b + k, data.end());
  return out;
}

std::vector<ValueInfo> infer_gather_nd(const GatherNDParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& data = input(in, 0);
  require_dtype(in, 1, {DType::i64}, "input");
  const ValueInfo& indices = in[1];
  if (!indices.shape.empty() && indices.shape.back() < 0) {
    gather_nd_shape(p.batch_dims, data.shape, indices.shape);  // the checks that can be made
    return {ValueInfo::unknown(data.dtype)};
  }
  return {ValueInfo::of(data.dtype, gather_nd_shape(p.batch_dims, data.shape, indices.shape))};
}

}  // namespace cnnx
