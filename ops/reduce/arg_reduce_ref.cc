// ArgMax and ArgMin: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/reduce/arg_reduce.h"

#include <type_traits>

namespace cnnx {

namespace {

template <class T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return v != v;
  else return false;
}

// True when v beats the best so far b (strictly; ties go to the last index only with select_last_index).
template <class T>
bool beats(bool is_max, bool last, T v, T b) {
  if (is_nan(b)) return last && is_nan(v);
  if (is_nan(v)) return true;
  if (v == b) return last;
  return is_max ? v > b : v < b;
}

}  // namespace

void arg_reduce_ref(const ArgReduceParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& y = *io.out[0];
  require(x.rank() >= 1, "input 0 must have rank 1 or more, got a scalar");
  const int64_t axis = arg_reduce_axis(p, x.rank());
  const Shape& s = x.shape();
  require(s[size_t(axis)] != 0, "axis ", p.axis, " has size 0: there is no index to return");
  require(y.dtype() == DType::i64 && y.shape() == arg_reduce_shape(p, s, axis), "the output is ", dtype_name(y.dtype()),
          to_string(y.shape()), "; expected int64", to_string(arg_reduce_shape(p, s, axis)));
  const int64_t outer = numel_range(s, 0, size_t(axis)), inner = numel_range(s, size_t(axis) + 1, s.size());
  const int64_t n = s[size_t(axis)];
  int64_t* dst = y.data<int64_t>();
  visit_numeric_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T* src = x.data<T>();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        const T* row = src + o * n * inner + i;
        int64_t best = 0;
        for (int64_t k = 1; k < n; ++k)
          if (beats(p.is_max, p.select_last_index, row[k * inner], row[best * inner])) best = k;
        dst[o * inner + i] = best;
      }
  });
}

}  // namespace cnnx
