// ReduceMean, ReduceSum, ... ReduceLogSumExp: the reference kernel (plain loops; the oracle the op's other kernels are
// checked against).
#include "ops/reduce/reduce.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "ops/common/broadcast.h"

namespace cnnx {

namespace {

// The axes a kernel run uses: input 1's values when given (opset 18), else the attribute's.
std::vector<int64_t> axes_of_run(const ReduceParams& p, const KernelIO& io) {
  if (!p.axes_from_input || io.in.size() < 2 || !io.in[1]) return p.axes;
  const Tensor& t = *io.in[1];
  require(t.dtype() == DType::i64, "input 1 (axes) must be int64, got ", dtype_name(t.dtype()));
  require(t.rank() == 1, "input 1 (axes) must be 1-D, got shape ", to_string(t.shape()));
  return std::vector<int64_t>(t.data<int64_t>(), t.data<int64_t>() + t.numel());
}

// Reduces x into y over `reduced` with accumulator type A (double for floating-point data, int64 otherwise).
// Accumulators are laid out like the output; the input walks them with stride 0 along reduced dims.
template <class T, class A>
void reduce_over(ReduceKind kind, const Tensor& x, const std::vector<bool>& reduced, Tensor& y) {
  const Shape& shape = x.shape();
  Shape kept = shape;
  int64_t count = 1;
  for (size_t d = 0; d < shape.size(); ++d)
    if (reduced[d]) count *= shape[d], kept[d] = 1;
  std::vector<int64_t> acc_strides = strides_of(kept);
  for (size_t d = 0; d < shape.size(); ++d)
    if (reduced[d]) acc_strides[d] = 0;
  constexpr bool fp = std::is_floating_point_v<A>;
  using L = std::numeric_limits<A>;
  const A lowest = fp ? -L::infinity() : A(std::numeric_limits<T>::lowest());
  const A highest = fp ? L::infinity() : A(std::numeric_limits<T>::max());
  A init = 0;
  if (kind == ReduceKind::prod) init = 1;
  if (kind == ReduceKind::max || kind == ReduceKind::log_sum_exp) init = lowest;
  if (kind == ReduceKind::min) init = highest;
  std::vector<A> acc(size_t(y.numel()), init);
  const T* src = x.data<T>();
  auto walk = [&](auto&& f) {
    for_each_broadcast<1>(shape, {acc_strides}, [&](int64_t i, const int64_t* off) { f(acc[size_t(off[0])], A(src[i]), off[0]); });
  };
  // Integer sums and products wrap like two's complement (no signed-overflow UB).
  auto add = [](A a, A b) -> A { if constexpr (fp) return a + b; else return A(uint64_t(a) + uint64_t(b)); };
  auto mul = [](A a, A b) -> A { if constexpr (fp) return a * b; else return A(uint64_t(a) * uint64_t(b)); };
  std::vector<A> top;  // LogSumExp: the maximum, subtracted before exp
  switch (kind) {
    case ReduceKind::mean:
    case ReduceKind::sum:
    case ReduceKind::log_sum: walk([&](A& a, A v, int64_t) { a = add(a, v); }); break;
    case ReduceKind::prod: walk([&](A& a, A v, int64_t) { a = mul(a, v); }); break;
    case ReduceKind::max: walk([](A& a, A v, int64_t) { if (v > a || v != v) a = v; }); break;  // NaN sticks
    case ReduceKind::min: walk([](A& a, A v, int64_t) { if (v < a || v != v) a = v; }); break;
    case ReduceKind::l1: walk([&](A& a, A v, int64_t) { a = add(a, v < 0 ? A(0) - v : v); }); break;
    case ReduceKind::l2:
    case ReduceKind::sum_square: walk([&](A& a, A v, int64_t) { a = add(a, mul(v, v)); }); break;
    case ReduceKind::log_sum_exp:
      if constexpr (fp) {
        walk([](A& a, A v, int64_t) { if (v > a || v != v) a = v; });
        top = acc;
        std::fill(acc.begin(), acc.end(), A(0));
        walk([&](A& a, A v, int64_t j) { a += std::exp(v - top[size_t(j)]); });
      }
      break;
  }
  T* dst = y.data<T>();
  for (size_t j = 0; j < acc.size(); ++j) {
    A r = acc[j];
    if constexpr (fp) {
      if (kind == ReduceKind::mean) r = r / A(count);  // count 0: NaN
      else if (kind == ReduceKind::l2) r = std::sqrt(r);
      else if (kind == ReduceKind::log_sum) r = std::log(r);
      else if (kind == ReduceKind::log_sum_exp) r = std::isinf(top[j]) || std::isnan(top[j]) ? top[j] : top[j] + std::log(r);
    }
    dst[j] = T(r);
  }
}

}  // namespace

void reduce_ref(const ReduceParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& y = *io.out[0];
  const std::vector<bool> reduced = resolve_reduce_axes(p, axes_of_run(p, io), x.rank());
  const Shape want = reduced_shape(x.shape(), reduced, p.keepdims);
  require(y.shape() == want, "the axes give output shape ", to_string(want), " but the output has shape ",
          to_string(y.shape()));
  require(y.dtype() == x.dtype(), "output element type ", dtype_name(y.dtype()), " differs from the input's ",
          dtype_name(x.dtype()));
  require_reduce_dtype(p.kind, x.dtype());
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_floating_point_v<T>) reduce_over<T, double>(p.kind, x, reduced, y);
    else if constexpr (!std::is_same_v<T, bool>) reduce_over<T, int64_t>(p.kind, x, reduced, y);
  });
}

}  // namespace cnnx
