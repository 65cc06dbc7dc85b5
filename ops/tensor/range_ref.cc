// Range: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/tensor/range.h"

#include <cmath>

#include "ops/common/data_movement.h"

namespace cnnx {

void range_ref(const NoParams&, const KernelIO& io) {
  Tensor& y = *io.out[0];
  const int64_t n = range_length(*io.in[0], *io.in[1], *io.in[2]);
  if (y.shape() != Shape{n}) fail("output shape ", to_string(y.shape()), " does not match [", n, "]");
  visit_dtype(y.dtype(), [&](auto t) {
    using T = decltype(t);
    T* d = y.data<T>();
    if constexpr (std::is_floating_point_v<T>) {
      const double s = io.in[0]->double_at(0), step = io.in[2]->double_at(0);
      for (int64_t i = 0; i < n; ++i) d[i] = T(s + double(i) * step);
    } else {
      // Every value lies in [start, limit) (or (limit, start]): no overflow.
      const int64_t s = io.in[0]->int_at(0), step = io.in[2]->int_at(0);
      for (int64_t i = 0; i < n; ++i) d[i] = T(s + i * step);
    }
  });
}

}  // namespace cnnx
