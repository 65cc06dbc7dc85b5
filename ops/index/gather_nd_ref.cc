// GatherND: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/index/gather_nd.h"

#include <cstring>

#include "ops/common/data_movement.h"

namespace cnnx {

void gather_nd_ref(const GatherNDParams& p, const KernelIO& io) {
  const Tensor& data = *io.in[0];
  const Tensor& indices = *io.in[1];
  Tensor& y = *io.out[0];
  const Shape out = gather_nd_shape(p.batch_dims, data.shape(), indices.shape());
  if (out != y.shape()) fail("output shape ", to_string(y.shape()), " does not match ", to_string(out));
  const size_t b = size_t(p.batch_dims);
  const int64_t k = indices.shape().back();
  const int64_t batches = numel_range(data.shape(), 0, b);
  const int64_t tuples = indices.numel() / std::max<int64_t>(k, 1);
  const int64_t per_batch = batches ? tuples / batches : 0;
  const std::vector<int64_t> ds = strides_of(data.shape());
  const int64_t batch_stride = numel_range(data.shape(), b, data.shape().size());
  const size_t block = size_t(numel_range(data.shape(), b + size_t(k), data.shape().size())) * dtype_size(data.dtype());
  // Every index checked before anything is written.
  std::vector<int64_t> src_at(static_cast<size_t>(tuples));
  for (int64_t t = 0; t < tuples; ++t)
    src_at[size_t(t)] = (per_batch ? t / per_batch : 0) * batch_stride + nd_offset(data.shape(), ds, b, indices, t, k);
  const char* src = static_cast<const char*>(data.raw());
  char* dst = static_cast<char*>(y.raw());
  const size_t elem = dtype_size(data.dtype());
  if (block)
    for (int64_t t = 0; t < tuples; ++t) std::memcpy(dst + size_t(t) * block, src + size_t(src_at[size_t(t)]) * elem, block);
}

}  // namespace cnnx
