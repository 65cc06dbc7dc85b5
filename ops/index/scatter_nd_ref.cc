// ScatterND: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/index/scatter_nd.h"

#include <algorithm>
#include <cstring>

#include "ops/common/data_movement.h"
#include "ops/index/gather_nd.h"

namespace cnnx {

void scatter_nd_ref(const ScatterNDParams& p, const KernelIO& io) {
  const Tensor& data = *io.in[0];
  const Tensor& indices = *io.in[1];
  const Tensor& updates = *io.in[2];
  Tensor& y = *io.out[0];
  check_scatter_nd_shapes(data.shape(), indices.shape(), updates.shape());
  if (y.shape() != data.shape() || y.dtype() != data.dtype() || updates.dtype() != data.dtype())
    fail("output does not match the data");
  const int64_t k = indices.shape().back();
  const int64_t tuples = indices.numel() / k;
  const int64_t block = numel_range(data.shape(), size_t(k), data.shape().size());
  const std::vector<int64_t> ds = strides_of(data.shape());
  // Every index checked before anything is written.
  std::vector<int64_t> dst_at(static_cast<size_t>(tuples));
  for (int64_t t = 0; t < tuples; ++t) dst_at[size_t(t)] = nd_offset(data.shape(), ds, 0, indices, t, k);
  copy_bytes(data, y);
  visit_dtype(data.dtype(), [&](auto z) {
    using T = decltype(z);
    T* d = y.data<T>();
    const T* u = updates.data<T>();
    for (int64_t t = 0; t < tuples; ++t) {
      T* dst = d + dst_at[size_t(t)];
      const T* src = u + t * block;
      for (int64_t e = 0; e < block; ++e) {
        switch (p.reduction) {
          case ScatterReduction::none: dst[e] = src[e]; break;
          case ScatterReduction::add: dst[e] = T(dst[e] + src[e]); break;
          case ScatterReduction::mul: dst[e] = T(dst[e] * src[e]); break;
          case ScatterReduction::max: dst[e] = std::max(dst[e], src[e]); break;
          case ScatterReduction::min: dst[e] = std::min(dst[e], src[e]); break;
        }
      }
    }
  });
}

}  // namespace cnnx
