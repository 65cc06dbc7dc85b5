// ScatterElements: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include <algorithm>

#include "ops/common/data_movement.h"
#include "ops/index/gather_elements.h"
#include "ops/index/scatter_elements.h"

namespace cnnx {

void scatter_elements_ref(const ScatterElementsParams& p, const KernelIO& io) {
  const Tensor &data = *io.in[0], &indices = *io.in[1], &updates = *io.in[2];
  Tensor& y = *io.out[0];
  const size_t axis = size_t(normalize_axis(p.axis, data.rank(), "axis"));
  check_gather_elements_shapes(data.shape(), indices.shape(), axis);
  if (updates.shape() != indices.shape() || y.shape() != data.shape() || y.dtype() != data.dtype() ||
      updates.dtype() != data.dtype())
    fail("updates or output do not match the data and indices");
  const std::vector<int64_t> dst_at = element_offsets(data, indices, axis);  // all checked before writing
  const int64_t count = indices.numel();
  copy_bytes(data, y);
  visit_dtype(data.dtype(), [&](auto z) {
    using T = decltype(z);
    T* d = y.data<T>();
    const T* u = updates.data<T>();
    auto scatter = [&](auto combine) {
      for (int64_t k = 0; k < count; ++k) {
        T& dst = d[dst_at[size_t(k)]];
        dst = combine(dst, u[k]);
      }
    };
    switch (p.reduction) {  // chosen once, not per element
      case ScatterReduction::none: scatter([](T, T b) { return b; }); break;
      case ScatterReduction::add: scatter([](T a, T b) { return T(a + b); }); break;
      case ScatterReduction::mul: scatter([](T a, T b) { return T(a * b); }); break;
      case ScatterReduction::max: scatter([](T a, T b) { return std::max(a, b); }); break;
      case ScatterReduction::min: scatter([](T a, T b) { return std::min(a, b); }); break;
    }
  });
}

}  // namespace cnnx
