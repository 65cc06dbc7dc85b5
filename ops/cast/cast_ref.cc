// Cast: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/cast/cast.h"

#include <cctype>
#include <string>

#include "engine/float16.h"

namespace cnnx {

namespace {

template <class To, class From>
void convert(const Tensor& x, Tensor& y) {
  const int64_t n = x.numel();
  To* d = static_cast<To*>(y.raw());
  if constexpr (std::is_same_v<From, bool>) {
    // Stored bool bytes are read as bytes: any nonzero byte is true.
    const uint8_t* s = static_cast<const uint8_t*>(x.raw());
    for (int64_t i = 0; i < n; ++i) d[i] = cast_value<To>(uint8_t(s[i] != 0));
  } else {
    const From* s = static_cast<const From*>(x.raw());
    for (int64_t i = 0; i < n; ++i) d[i] = cast_value<To>(s[i]);
  }
}

// One element of a 16-bit float tensor, as the float32 value it is exactly.
float float16_family_value(DType dtype, uint16_t bits) {
  return dtype == DType::f16 ? float16_to_float(bits) : bfloat16_to_float(bits);
}

// From float16/bfloat16: the exact float32 value, then the float32 -> To rule of cast_value (or one rounding
// to the other 16-bit type).
void convert_from_float16_family(const Tensor& x, Tensor& y) {
  const int64_t n = x.numel();
  const uint16_t* s = static_cast<const uint16_t*>(x.raw());
  if (y.dtype() == DType::f32) return float16_family_to_float(x.dtype(), s, static_cast<float*>(y.raw()), size_t(n));
  if (is_float16_family(y.dtype())) {
    uint16_t* d = static_cast<uint16_t*>(y.raw());
    for (int64_t i = 0; i < n; ++i) {
      const float v = float16_family_value(x.dtype(), s[i]);
      d[i] = y.dtype() == DType::f16 ? float_to_float16(v) : float_to_bfloat16(v);
    }
    return;
  }
  visit_dtype(y.dtype(), [&](auto to) {
    using To = decltype(to);
    To* d = static_cast<To*>(y.raw());
    for (int64_t i = 0; i < n; ++i) d[i] = cast_value<To>(float16_family_value(x.dtype(), s[i]));
  });
}

// To float16/bfloat16: one rounding (ties to even) from the source value: float32 and float64 directly,
// integers and bool through float64 (exact up to 2^53, far beyond either type's range).
void convert_to_float16_family(const Tensor& x, Tensor& y) {
  const int64_t n = x.numel();
  uint16_t* d = static_cast<uint16_t*>(y.raw());
  const bool to_f16 = y.dtype() == DType::f16;
  if (x.dtype() == DType::f32) {
    float_to_float16_family(y.dtype(), static_cast<const float*>(x.raw()), d, size_t(n));
    return;
  }
  visit_dtype(x.dtype(), [&](auto from) {
    using From = decltype(from);
    for (int64_t i = 0; i < n; ++i) {
      double v;
      if constexpr (std::is_same_v<From, bool>) v = static_cast<const uint8_t*>(x.raw())[i] != 0 ? 1.0 : 0.0;
      else v = double(static_cast<const From*>(x.raw())[i]);
      d[i] = to_f16 ? double_to_float16(v) : double_to_bfloat16(v);
    }
  });
}

}  // namespace

void cast_ref(const CastParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& y = *io.out[0];
  if (!(y.dtype() == p.to && y.numel() == x.numel()))
    fail("output ", dtype_name(y.dtype()), to_string(y.shape()), " does not match the input");
  cast_elements(x, y);
}

void cast_elements(const Tensor& x, Tensor& y) {
  require(y.numel() == x.numel(), "output ", dtype_name(y.dtype()), to_string(y.shape()),
          " does not match the input");
  if (is_float16_family(x.dtype())) return convert_from_float16_family(x, y);
  if (is_float16_family(y.dtype())) return convert_to_float16_family(x, y);
  visit_dtype(x.dtype(), [&](auto from) {
    visit_dtype(y.dtype(), [&](auto to) { convert<decltype(to), decltype(from)>(x, y); });
  });
}

}  // namespace cnnx
