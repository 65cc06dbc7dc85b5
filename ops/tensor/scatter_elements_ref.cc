// ScatterElements: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include <algorithm>

#include "ops/tensor/common.h"
#include "ops/tensor/gather_elements.h"
#include "ops/tensor/scatter_elements.h"

namespace cnnx {

void scatter_elements_ref(const ScatterElementsParams& p, const KernelIO& io) {
  const Tensor &data = *io.in[0], &indices = *io.in[1], &updates = *io.in[2];
  Tensor& y = *io.out[0];
  const size_t axis = size_t(normalize_axis(p.axis, data.rank(), "axis"));
  check_gather_elements_shapes(data.shape(), indices.shape(), axis);
  if (updates.shape() != indices.shape() || y.shape() != data.shape() || y.dtype() != data.dtype() ||
      updates.dtype() != data.dtype())
    fail("updates or output do not match the data and indices");
  const int64_t count = indices.numel(), n = data.dim(int64_t(axis));
  const size_t rank = data.shape().size();
  const std::vector<int64_t> ds = strides_of(data.shape());
  // Every index checked before anything is written.
  std::vector<int64_t> dst_at(static_cast<size_t>(count));
  std::vector<int64_t> idx(rank, 0);
  int64_t base = 0;  // data offset of idx with the axis coordinate left out
  for (int64_t k = 0; k < count; ++k) {
    const int64_t i = indices.int_at(k);
    require(i >= -n && i < n, "index ", i, " (entry ", k, " of the indices) is out of range for axis ", axis,
            " of size ", n);
    dst_at[size_t(k)] = base + (i < 0 ? i + n : i) * ds[axis];
    for (size_t a = rank; a-- > 0;) {
      if (++idx[a] < indices.dim(int64_t(a))) {
        if (a != axis) base += ds[a];
        break;
      }
      if (a != axis) base -= ds[a] * (idx[a] - 1);
      idx[a] = 0;
    }
  }
  copy_bytes(data, y);
  visit_dtype(data.dtype(), [&](auto z) {
    using T = decltype(z);
    T* d = y.data<T>();
    const T* u = updates.data<T>();
    for (int64_t k = 0; k < count; ++k) {
      T& dst = d[dst_at[size_t(k)]];
      switch (p.reduction) {
        case ScatterReduction::none: dst = u[k]; break;
        case ScatterReduction::add: dst = T(dst + u[k]); break;
        case ScatterReduction::mul: dst = T(dst * u[k]); break;
        case ScatterReduction::max: dst = std::max(dst, u[k]); break;
        case ScatterReduction::min: dst = std::min(dst, u[k]); break;
      }
    }
  });
}

}  // namespace cnnx
