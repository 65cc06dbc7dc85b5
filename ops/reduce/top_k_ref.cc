// TopK: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/reduce/top_k.h"

#include <algorithm>
#include <numeric>
#include <type_traits>

#include "ops/common/data_movement.h"

namespace cnnx {

namespace {

int64_t k_from_input(const Tensor* t) {
  require(t != nullptr, "input 1 (K) is required");
  require(t->numel() == 1 && t->rank() <= 1, "input 1 (K) must hold one value, got shape ", to_string(t->shape()));
  return ints_of(t, "K")[0];
}

template <class T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return v != v;
  else return false;
}

}  // namespace

void top_k_ref(const TopKParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& values = *io.out[0];
  Tensor& indices = *io.out[1];
  require(x.rank() >= 1, "input 0 must have rank 1 or more, got a scalar");
  const int64_t axis = normalize_axis(p.axis, x.rank(), "axis");
  const Shape& s = x.shape();
  const int64_t n = s[size_t(axis)];
  const int64_t k = checked_top_k(p.k >= 0 ? p.k : k_from_input(io.in[1]), n, p.axis);
  Shape out = s;
  out[size_t(axis)] = k;
  require(values.shape() == out && indices.shape() == out && indices.dtype() == DType::i64, "the outputs are ",
          to_string(values.shape()), " and ", to_string(indices.shape()), "; expected ", to_string(out));
  const int64_t outer = numel_range(s, 0, size_t(axis)), inner = numel_range(s, size_t(axis) + 1, s.size());
  int64_t* idx_out = indices.data<int64_t>();
  visit_numeric_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T* src = x.data<T>();
    T* val_out = values.data<T>();
    std::vector<int64_t> order(static_cast<size_t>(n), 0);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        const T* row = src + o * n * inner + i;
        // a before b: a is better, or equal with the lower index. NaN ranks above every number.
        auto before = [&](int64_t a, int64_t b) {
          const T va = row[a * inner], vb = row[b * inner];
          const bool na = is_nan(va), nb = is_nan(vb);
          if (na || nb) {
            if (na && nb) return a < b;
            return p.largest ? na : nb;
          }
          if (va == vb) return a < b;
          return p.largest ? va > vb : va < vb;
        };
        std::iota(order.begin(), order.end(), int64_t(0));
        std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
        const int64_t base = o * k * inner + i;
        for (int64_t j = 0; j < k; ++j) {
          val_out[base + j * inner] = row[order[size_t(j)] * inner];
          idx_out[base + j * inner] = order[size_t(j)];
        }
      }
  });
}

}  // namespace cnnx
