// Cast: converts every element to the element type `to` (float32, float64, float16, bfloat16, int64, int32,
// int8, uint8, bool).
//
// cast_value is defined for every input value; where ONNX leaves the result undefined, cnnx picks one:
//   float -> float     IEEE round to nearest; beyond float32's range gives +-inf; NaN stays NaN.
//   float -> integer   truncates toward zero; NaN gives 0; values beyond the target's range SATURATE to its
//                      min or max (e.g. 1e10 -> int32 2147483647, -inf -> int64 min, -1.5 -> uint8 0).
//                      C++ makes these conversions undefined behaviour and numpy's results are platform
//                      specific, so no other answer is "right"; saturation is what most hardware does.
//   integer -> integer wraps modulo 2^bits (two's complement), like numpy's astype.
//   integer -> float   nearest representable value.
//   x -> bool          x != 0 (NaN -> true, as numpy); bool -> number gives 0 or 1.
//   -> float16/bfloat16  one rounding to nearest even from the source value (engine/float16.h: overflow to
//                      +-inf, subnormals kept, NaN stays NaN); integers go through float64, exact below 2^53.
//   float16/bfloat16 -> x  the exact float32 value, then the float32 rule above.
// Opset 19's `saturate` concerns float8 targets only, which cnnx does not hold; it is accepted and unused.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include "engine/op.h"

namespace cnnx {

struct CastParams : OpParams {
  DType to = DType::undefined;
};

CastParams parse_cast(const Node& node);
std::vector<ValueInfo> infer_cast(const CastParams& p, const std::vector<ValueInfo>& in);
// Exact (kExact) like the rest of the family: one conversion per element, each correctly rounded (or exact)
// under IEEE 754, so any engine gets the same bits, except for the values cast_value defines where ONNX does
// not (NaN/out-of-range float -> integer).
void cast_ref(const CastParams& p, const KernelIO& io);
// Every element of `x` converted to y's element type, by the rules above (Cast's and CastLike's kernels).
void cast_elements(const Tensor& x, Tensor& y);

static_assert(std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559,
              "Cast relies on IEEE 754 floats (out-of-range double -> float rounds to infinity)");

template <class To, class From>
To cast_value(From x) {
  if constexpr (std::is_same_v<To, bool>) {
    return x != From(0);
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(x);
  } else if constexpr (std::is_floating_point_v<From>) {
    using L = std::numeric_limits<To>;
    const double v = double(x);
    if (std::isnan(v)) return To(0);
    const double limit = std::ldexp(1.0, L::digits);  // max + 1, exact in double for every integer type
    if (v >= limit) return L::max();
    if (v < double(L::min())) return L::min();  // (min - 1, min) truncates to min anyway
    return static_cast<To>(v);                  // in range: truncation toward zero
  } else if constexpr (std::is_unsigned_v<To>) {
    return static_cast<To>(x);  // modulo 2^bits: defined for unsigned targets
  } else {
    using U = std::make_unsigned_t<To>;
    const U u = static_cast<U>(x);  // modulo 2^bits
    if (u <= U(std::numeric_limits<To>::max())) return To(u);
    // Beyond a signed target's max: u - 2^bits, computed without an implementation-defined conversion.
    return To(To(u - U(std::numeric_limits<To>::max()) - 1) + std::numeric_limits<To>::min());
  }
}

}  // namespace cnnx
