// Gather: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/index/gather.h"

#include <cstring>

#include "ops/common/data_movement.h"

namespace cnnx {

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
  for (int64_t k = 0; k < count; ++k) rows[size_t(k)] = checked_gather_index(indices.int_at(k), n, k, axis);
  const char* src = static_cast<const char*>(data.raw());
  char* dst = static_cast<char*>(y.raw());
  if (block == 0) return;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < count; ++k, dst += block)
      std::memcpy(dst, src + size_t(o * n + rows[size_t(k)]) * block, block);
}

}  // namespace cnnx
