// Gather (opset 1+), any data element type.
#include "ops/tensor/gather.h"

#include <cstring>

namespace cnnx {

GatherParams parse_gather(const Node& node) {
  require_inputs(node, 2, 2);
  require_outputs(node, 1, 1);
  node.attrs.allow_only({"axis"});
  GatherParams p;
  p.axis = node.attrs.get_int("axis", 0);
  return p;
}

namespace {

// Index `i` (entry `at` of the indices) mapped into [0, n), or throws.
int64_t checked_index(int64_t i, int64_t n, int64_t at, int64_t axis) {
  require(i >= -n && i < n, "index ", i, " (entry ", at, " of the indices) is out of range for axis ", axis,
          " of size ", n);
  return i < 0 ? i + n : i;
}

}  // namespace

std::vector<ValueInfo> infer_gather(const GatherParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& data = input(in, 0);
  require_dtype(in, 1, {DType::i64, DType::i32}, "input");
  const ValueInfo& indices = in[1];
  require(data.rank() >= 1, "input 0 (data) must have rank >= 1, got a scalar");
  const size_t axis = size_t(normalize_axis(p.axis, data.rank(), "axis"));
  const int64_t n = data.shape[axis];
  if (indices.constant && n >= 0)  // catch bad constant indices at load time
    for (int64_t k = 0; k < indices.constant->numel(); ++k)
      checked_index(indices.constant->int_at(k), n, k, int64_t(axis));
  Shape out(data.shape.begin(), data.shape.begin() + int64_t(axis));
  out.insert(out.end(), indices.shape.begin(), indices.shape.end());
  out.insert(out.end(), data.shape.begin() + int64_t(axis) + 1, data.shape.end());
  return {ValueInfo::of(data.dtype, out)};
}

void gather_ref(const GatherParams& p, const KernelIO& io) {
  const Tensor& data = *io.in[0];
  const Tensor& indices = *io.in[1];
  Tensor& y = *io.out[0];
  const int64_t axis = normalize_axis(p.axis, data.rank(), "axis");
  const int64_t n = data.dim(axis);
  const int64_t outer = numel_range(data.shape(), 0, size_t(axis));
  const size_t block =
      size_t(numel_range(data.shape(), size_t(axis) + 1, data.shape().size())) * dtype_size(data.dtype());
  const int64_t count = indices.numel();
  if (y.bytes() != size_t(checked_mul(checked_mul(outer, count), int64_t(block))))
    fail("output shape ", to_string(y.shape()), " does not match data ", to_string(data.shape()), " and indices ",
         to_string(indices.shape()));
  // Check every index before writing anything.
  std::vector<int64_t> rows(static_cast<size_t>(count));
  for (int64_t k = 0; k < count; ++k) rows[size_t(k)] = checked_index(indices.int_at(k), n, k, axis);
  const char* src = static_cast<const char*>(data.raw());
  char* dst = static_cast<char*>(y.raw());
  if (block == 0) return;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < count; ++k, dst += block)
      std::memcpy(dst, src + size_t(o * n + rows[size_t(k)]) * block, block);
}

}  // namespace cnnx
