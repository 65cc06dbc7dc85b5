// Add, Sub, Mul, Div, Pow, Mod, comparisons, And, Or, Xor, Sum, Max, Min, Mean and Where: the reference kernels (plain
// loops; the oracle the op's other kernels are checked against).
#include "ops/eltwise/binary.h"

#include <cmath>
#include <type_traits>

#include "engine/op.h"
#include "ops/common/broadcast.h"

namespace cnnx {

namespace {

// ---- element functions ----

// Integer remainder with the sign of the divisor (fmod = false, Python's %) or of the dividend (C's %).
template <class T>
T int_mod(T a, T b, bool fmod) {
  require(b != 0, "integer Mod by zero");
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;  // also the one overflowing case, lowest() % -1
  }
  T r = T(a % b);
  if constexpr (std::is_signed_v<T>) {
    if (!fmod && r != 0 && ((r < 0) != (b < 0))) r = T(r + b);
  }
  return r;
}

// x^y for integers: exact by squaring (wrapping like numpy on overflow); negative exponents give the
// truncated 1/x^|y|: 1 for x = 1, +-1 for x = -1, 0 otherwise (numpy refuses them; ONNX's cast of the real
// power gives this).
template <class T>
T int_pow(T x, int64_t y) {
  using U = std::make_unsigned_t<T>;
  if (y < 0) {
    if (x == 1) return 1;
    if constexpr (std::is_signed_v<T>) {
      if (x == -1) return (y % 2) ? T(-1) : T(1);
    }
    require(x != 0, "integer Pow of 0 to a negative exponent");
    return 0;
  }
  U result = 1, base = U(x);
  for (uint64_t e = uint64_t(y); e; e >>= 1) {
    if (e & 1) result = U(result * base);
    base = U(base * base);
  }
  return T(result);
}

template <class T>
T arith(BinaryKind kind, bool fmod, T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    // Integers wrap on overflow like numpy (computed unsigned, where wrapping is defined).
    using U = std::make_unsigned_t<T>;
    switch (kind) {
      case BinaryKind::add: return T(U(a) + U(b));
      case BinaryKind::sub: return T(U(a) - U(b));
      case BinaryKind::mul: return T(U(a) * U(b));
      case BinaryKind::div:
        require(b != 0, "integer division by zero");
        // ONNX integer Div truncates toward zero (C semantics); the one overflowing case wraps like numpy.
        if constexpr (std::is_signed_v<T>) {
          if (b == -1) return T(U(0) - U(a));
        }
        return T(a / b);
      case BinaryKind::mod: return int_mod<T>(a, b, fmod);
      case BinaryKind::max: return a < b ? b : a;
      case BinaryKind::min: return b < a ? b : a;
      default: break;
    }
  } else {
    switch (kind) {
      case BinaryKind::add: return a + b;
      case BinaryKind::sub: return a - b;
      case BinaryKind::mul: return a * b;
      case BinaryKind::div: return a / b;
      case BinaryKind::mod: return T(std::fmod(a, b));  // fmod = 1 (checked in infer)
      // NaN in either operand gives NaN, as numpy's maximum and minimum do.
      case BinaryKind::max: return std::isnan(a) || std::isnan(b) ? a + b : (a < b ? b : a);
      case BinaryKind::min: return std::isnan(a) || std::isnan(b) ? a + b : (b < a ? b : a);
      default: break;
    }
  }
  fail("internal error: ", binary_kind_name(kind), " is not an arithmetic op");
}

template <class T>
bool compare(BinaryKind kind, T a, T b) {
  switch (kind) {
    case BinaryKind::equal: return a == b;
    case BinaryKind::less: return a < b;
    case BinaryKind::less_equal: return a <= b;
    case BinaryKind::greater: return a > b;
    case BinaryKind::greater_equal: return a >= b;
    case BinaryKind::logical_and: return bool(a) && bool(b);
    case BinaryKind::logical_or: return bool(a) || bool(b);
    case BinaryKind::logical_xor: return bool(a) != bool(b);
    default: break;
  }
  fail("internal error: ", binary_kind_name(kind), " does not give bool");
}

template <class T, class E>
T power(T x, E y) {
  if constexpr (std::is_integral_v<T> && std::is_integral_v<E>) {
    return int_pow<T>(x, int64_t(y));
  } else {
    const double r = std::pow(double(x), double(y));
    if constexpr (std::is_integral_v<T>) {
      // An integer base with a float exponent: the real power truncated toward zero (as numpy's astype).
      require(std::isfinite(r) && r > double(std::numeric_limits<T>::lowest()) - 1 &&
                  r < double(std::numeric_limits<T>::max()) + 1,
              "integer Pow result ", r, " is outside ", dtype_name(dtype_of<T>()));
      return T(r);
    } else {
      return T(r);
    }
  }
}

template <class F>
void visit_numeric(DType t, F&& f) {
  visit_dtype(t, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool>) fail("element type bool is not supported here");
    else f(zero);
  });
}

}  // namespace

void binary_ref(const BinaryParams& p, const KernelIO& io) {
  const Tensor& a = *io.in[0];
  const Tensor& b = *io.in[1];
  Tensor& y = *io.out[0];
  const std::vector<std::vector<int64_t>> strides{broadcast_strides(a.shape(), y.shape()),
                                                  broadcast_strides(binary_b_shape(p, a.shape(), b.shape()), y.shape())};
  if (p.kind == BinaryKind::pow) {
    visit_numeric(a.dtype(), [&](auto x0) {
      visit_numeric(b.dtype(), [&](auto e0) {
        using T = decltype(x0);
        using E = decltype(e0);
        const T* pa = a.data<T>();
        const E* pb = b.data<E>();
        T* py = y.data<T>();
        for_each_broadcast<2>(y.shape(), strides, [&](int64_t o, const int64_t* off) {
          py[o] = power<T, E>(pa[off[0]], pb[off[1]]);
        });
      });
    });
    return;
  }
  visit_dtype(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    if (binary_gives_bool(p.kind)) {
      bool* py = y.data<bool>();
      for_each_broadcast<2>(y.shape(), strides, [&](int64_t o, const int64_t* off) {
        py[o] = compare<T>(p.kind, pa[off[0]], pb[off[1]]);
      });
    } else if constexpr (std::is_same_v<T, bool>) {
      fail("element type bool is not supported by ", binary_kind_name(p.kind));
    } else {
      T* py = y.data<T>();
      for_each_broadcast<2>(y.shape(), strides, [&](int64_t o, const int64_t* off) {
        py[o] = arith<T>(p.kind, p.fmod, pa[off[0]], pb[off[1]]);
      });
    }
  });
}

void variadic_ref(const VariadicParams& p, const KernelIO& io) {
  Tensor& y = *io.out[0];
  visit_numeric(y.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if (p.kind == BinaryKind::mean) {
      if constexpr (std::is_floating_point_v<T>) {
        // Sums in double, then one division and one rounding.
        std::vector<double> sum(size_t(y.numel()), 0.0);
        for (const Tensor* x : io.in) {
          const T* px = x->data<T>();
          for_each_broadcast<1>(y.shape(), {broadcast_strides(x->shape(), y.shape())},
                                [&](int64_t o, const int64_t* off) { sum[size_t(o)] += double(px[off[0]]); });
        }
        T* py = y.data<T>();
        for (int64_t i = 0; i < y.numel(); ++i) py[i] = T(sum[size_t(i)] / double(io.in.size()));
      } else {
        fail("Mean takes floats only");
      }
      return;
    }
    T* py = y.data<T>();
    for (size_t k = 0; k < io.in.size(); ++k) {
      const T* px = io.in[k]->data<T>();
      for_each_broadcast<1>(y.shape(), {broadcast_strides(io.in[k]->shape(), y.shape())},
                            [&](int64_t o, const int64_t* off) {
                              py[o] = k == 0 ? px[off[0]] : arith<T>(p.kind, false, py[o], px[off[0]]);
                            });
    }
  });
}

void where_ref(const NoParams&, const KernelIO& io) {
  const Tensor& c = *io.in[0];
  const Tensor& x = *io.in[1];
  const Tensor& z = *io.in[2];
  Tensor& y = *io.out[0];
  const std::vector<std::vector<int64_t>> strides{broadcast_strides(c.shape(), y.shape()),
                                                  broadcast_strides(x.shape(), y.shape()),
                                                  broadcast_strides(z.shape(), y.shape())};
  visit_dtype(y.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const bool* pc = c.data<bool>();
    const T* px = x.data<T>();
    const T* pz = z.data<T>();
    T* py = y.data<T>();
    for_each_broadcast<3>(y.shape(), strides, [&](int64_t o, const int64_t* off) {
      py[o] = pc[off[0]] ? px[off[1]] : pz[off[2]];
    });
  });
}

}  // namespace cnnx
