#include "engine/float16.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <immintrin.h>
#include <limits>

#include "engine/error.h"

namespace cnnx {

namespace {

static_assert(std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559,
              "the 16-bit float conversions rely on IEEE 754 float32 and float64");

uint32_t bits_of(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}

float float_of(uint32_t b) {
  float x;
  std::memcpy(&x, &b, 4);
  return x;
}

// Rounds |x| (finite or not) to a binary format with MANT stored mantissa bits and EXP exponent bits, ties to
// even, in one rounding: the value is scaled by a power of two (exact in float64) so that the kept bits are
// the integer part, and std::nearbyint rounds that under the default rounding mode (to nearest even).
template <int MANT, int EXP>
uint16_t round_double_to(double x) {
  constexpr int kBias = (1 << (EXP - 1)) - 1;
  constexpr int kMinExp = 1 - kBias;  // exponent of the smallest normal
  constexpr uint32_t kInf = ((uint32_t(1) << EXP) - 1) << MANT;
  uint64_t b;
  std::memcpy(&b, &x, 8);
  const uint32_t sign = uint32_t(b >> 63) << (MANT + EXP);
  if (std::isnan(x)) {  // quiet NaN, sign and the top payload bits kept
    const uint32_t payload = uint32_t((b & ((uint64_t(1) << 52) - 1)) >> (52 - MANT));
    return uint16_t(sign | kInf | (uint32_t(1) << (MANT - 1)) | payload);
  }
  const double a = std::fabs(x);
  if (std::isinf(a)) return uint16_t(sign | kInf);
  if (a < std::ldexp(1.0, kMinExp)) {  // subnormal (or zero): units of 2^(kMinExp - MANT)
    const uint32_t r = uint32_t(std::nearbyint(std::ldexp(a, MANT - kMinExp)));
    return uint16_t(sign | r);  // r == 2^MANT is the smallest normal, which these bits spell
  }
  int e2 = 0;
  std::frexp(a, &e2);  // a = f * 2^e2, f in [0.5, 1): a in [2^(e2-1), 2^e2)
  const int e = e2 - 1;
  const uint32_t r = uint32_t(std::nearbyint(std::ldexp(a, MANT - e)));  // in [2^MANT, 2^(MANT+1)]
  const uint64_t out = (uint64_t(e + kBias) << MANT) + (r - (uint32_t(1) << MANT));  // a carry bumps the exponent
  if (out >= kInf) return uint16_t(sign | kInf);
  return uint16_t(sign | uint32_t(out));
}

// Branch-light forms (selects the compiler can vectorize), after F. Giesen's half <-> float conversions.
inline float f16_to_f32(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16;
  const uint32_t exp = (h >> 10) & 0x1f;
  uint32_t o = uint32_t(h & 0x7fff) << 13;  // exponent and mantissa in place
  o += (127 - 15) << 23;                    // rebias
  if (exp == 31) o += (128 - 16) << 23;     // inf, NaN: exponent all ones (payload kept)
  float f = float_of(o);
  if (exp == 0) f = float_of(o + (1u << 23)) - float_of(113u << 23);  // zero, subnormal: exact renormalization
  return float_of(bits_of(f) | sign);
}

inline uint16_t f32_to_f16(float x) {
  const uint32_t b = bits_of(x);
  const uint32_t sign = (b >> 16) & 0x8000, ax = b & 0x7fffffffu;
  uint32_t o;
  if (ax >= 0x47800000u) {  // >= 65536, inf, NaN (65520..65536 carry into inf below)
    o = ax > 0x7f800000u ? 0x7e00 | ((ax >> 13) & 0x3ff) : 0x7c00;  // NaN: quiet, payload top bits
  } else if (ax < 0x38800000u) {  // below 2^-14: one float32 add aligns the bits to 2^-24 and rounds to even
    o = bits_of(float_of(ax) + float_of(126u << 23)) - (126u << 23);
  } else {  // normal: add half an ulp minus one, plus the kept lsb (ties to even), rebias 127 -> 15
    o = (ax + 0xfffu + ((ax >> 13) & 1u) - (112u << 23)) >> 13;
  }
  return uint16_t(o | sign);
}

inline uint16_t f32_to_bf16(float x) {
  const uint32_t b = bits_of(x);
  if ((b & 0x7fffffffu) > 0x7f800000u) return uint16_t((b >> 16) | 0x0040);  // NaN stays a quiet NaN
  return uint16_t((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);  // ties to even; a carry past the max gives inf
}

}  // namespace

float float16_to_float(uint16_t h) { return f16_to_f32(h); }

float bfloat16_to_float(uint16_t b) { return float_of(uint32_t(b) << 16); }

uint16_t float_to_float16(float x) { return f32_to_f16(x); }
uint16_t float_to_bfloat16(float x) { return f32_to_bf16(x); }

uint16_t double_to_float16(double x) { return round_double_to<10, 5>(x); }
uint16_t double_to_bfloat16(double x) { return round_double_to<7, 8>(x); }

namespace {

// Elementwise f over n elements, chosen by dtype: f16 when it is float16, bf16 when bfloat16.
template <class From, class To, class F16, class BF16>
void convert_family(DType dtype, const From* src, To* dst, size_t n, F16 f16, BF16 bf16) {
  require(is_float16_family(dtype), "expected float16 or bfloat16, got ", dtype_name(dtype));
  if (dtype == DType::f16)
    std::transform(src, src + n, dst, f16);
  else
    std::transform(src, src + n, dst, bf16);
}

// float16 arrays by F16C, taken on CPUs with AVX2 (every one has F16C, which came a generation earlier; clang's
// __builtin_cpu_supports does not name f16c): vcvtps2ph rounds to nearest even, overflows to inf, keeps
// subnormals, signs and NaN (quieted, payload's top bits) exactly as f32_to_f16 does; vcvtph2ps is exact.
const bool kF16c = __builtin_cpu_supports("avx2");

__attribute__((target("avx2,f16c"))) void f32_to_f16_f16c(const float* src, uint16_t* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT));
  for (; i < n; ++i) dst[i] = f32_to_f16(src[i]);
}

__attribute__((target("avx2,f16c"))) void f16_to_f32_f16c(const uint16_t* src, float* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i))));
  for (; i < n; ++i) dst[i] = f16_to_f32(src[i]);
}

}  // namespace

void float16_family_to_float(DType dtype, const uint16_t* src, float* dst, size_t n) {
  if (dtype == DType::f16 && kF16c) return f16_to_f32_f16c(src, dst, n);
  convert_family(dtype, src, dst, n, f16_to_f32, bfloat16_to_float);
}

void float_to_float16_family(DType dtype, const float* src, uint16_t* dst, size_t n) {
  if (dtype == DType::f16 && kF16c) return f32_to_f16_f16c(src, dst, n);
  convert_family(dtype, src, dst, n, f32_to_f16, f32_to_bf16);
}

}  // namespace cnnx
