// CumSum: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/reduce/cumsum.h"

#include <type_traits>

#include "ops/common/data_movement.h"

namespace cnnx {

namespace {

template <class T, bool = std::is_floating_point_v<T>>
struct AccOf { using type = double; };
template <class T>
struct AccOf<T, false> { using type = std::make_unsigned_t<T>; };

int64_t read_axis(const Tensor* t, int64_t rank) {
  require(t != nullptr, "input 1 (axis) is required");
  require(t->rank() == 0 || (t->rank() == 1 && t->shape()[0] == 1), "input 1 (axis) must be a scalar or hold one value, got shape ",
          to_string(t->shape()));
  const std::vector<int64_t> v = ints_of(t, "axis");
  return normalize_axis(v[0], std::max<int64_t>(rank, 1), "axis");
}

}  // namespace

void cumsum_ref(const CumSumParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& y = *io.out[0];
  require(x.rank() >= 1, "input 0 must have rank 1 or more, got a scalar");
  const int64_t axis = read_axis(io.in[1], x.rank());
  const Shape& s = x.shape();
  const int64_t outer = numel_range(s, 0, size_t(axis)), inner = numel_range(s, size_t(axis) + 1, s.size());
  const int64_t n = s[size_t(axis)];
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int32_t> ||
                  std::is_same_v<T, int64_t>) {
      // Floats sum in double; integers in the unsigned type of their width (wrap-around, no UB).
      using Acc = typename AccOf<T>::type;
      const T* src = x.data<T>();
      T* dst = y.data<T>();
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          const int64_t base = o * n * inner + i;
          Acc acc = 0;
          for (int64_t k = 0; k < n; ++k) {
            const int64_t at = base + (p.reverse ? n - 1 - k : k) * inner;
            if (p.exclusive) {
              dst[at] = T(acc);
              acc = Acc(acc + Acc(src[at]));
            } else {
              acc = Acc(acc + Acc(src[at]));
              dst[at] = T(acc);
            }
          }
        }
    } else {
      fail("element type ", dtype_name(x.dtype()), " is not supported");
    }
  });
}

}  // namespace cnnx
