// Swish in place: see swish.h for why this exists beside oneDNN's post-op and how exact it is.
#include "ops/conv/swish.h"

#include <algorithm>
#include <cmath>

#include "ops/cast/round_to_float16.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace cnnx {

namespace {

// Below this many floats one thread does it (a parallel region costs more than it saves; unused where
// OpenMP is off).
[[maybe_unused]] constexpr int64_t kParallelFloats = int64_t(1) << 14;
constexpr float kZeroBelow = -87.f;  // see swish.h; also where sigmoid's argument is clamped

void swish_generic(float* x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    x[i] = v < kZeroBelow ? v * 0.f : float(double(v) / (1 + std::exp(-double(v))));
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
#define CNNX_SWISH_AVX512 1
// GCC 12's rcp14/min/max/scalef intrinsics pass _mm512_undefined_ps() as the unused merge source, which it
// then reports as maybe uninitialized (Clang has no such warning).
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
// x * sigmoid(x) = x / (1 + e), e = exp(-x) = 2^n * exp(r), n = round(-x log2 e), r = -x - n ln2 (ln2 in a
// high and a low part, so r is exact enough), exp(r) = 1 + r + r^2 P(r), Cephes's expf with P of degree 5.
__attribute__((target("avx512f"))) inline __m512 swish16(__m512 v) {
  const __m512 x = _mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(kZeroBelow)), _mm512_set1_ps(-kZeroBelow));
  const __m512 round = _mm512_set1_ps(12582912.f);  // 1.5 * 2^23: adding it rounds to an integer
  const __m512 n = _mm512_sub_ps(_mm512_fmadd_ps(x, _mm512_set1_ps(-1.44269504088896341f), round), round);
  __m512 r = _mm512_fnmsub_ps(n, _mm512_set1_ps(0.693359375f), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_fmadd_ps(_mm512_set1_ps(1.9875691500e-4f), r, _mm512_set1_ps(1.3981999507e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.f));
  const __m512 d = _mm512_add_ps(_mm512_scalef_ps(p, n), _mm512_set1_ps(1.f));
  const __m512 rcp = _mm512_rcp14_ps(d);
  const __m512 y = _mm512_mul_ps(_mm512_mul_ps(v, rcp), _mm512_fnmadd_ps(d, rcp, _mm512_set1_ps(2.f)));
  // Below -87: x * 0, so that -inf gives NaN as Sigmoid then Mul would.
  return _mm512_mask_mul_ps(y, _mm512_cmp_ps_mask(v, _mm512_set1_ps(kZeroBelow), _CMP_LT_OQ), v, _mm512_setzero_ps());
}

__attribute__((target("avx512f"))) void swish_avx512(float* x, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(x + i, swish16(_mm512_loadu_ps(x + i)));
  if (i < n) {
    const __mmask16 tail = __mmask16((1u << (n - i)) - 1);
    _mm512_mask_storeu_ps(x + i, tail, swish16(_mm512_maskz_loadu_ps(tail, x + i)));
  }
}
#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif

// The same with AVX2 and FMA, 8 lanes: 2^n built in the exponent bits (n is within [-126, 126] once x is
// clamped to +-87), and x / (1 + e) an exact division (without rcp14, a 12-bit rcp and one Newton step would
// be ~2^-22 off; outside a convolution's loop the division is not the bottleneck).
__attribute__((target("avx2,fma"))) inline __m256 swish8(__m256 v) {
  const __m256 x = _mm256_min_ps(_mm256_max_ps(v, _mm256_set1_ps(kZeroBelow)), _mm256_set1_ps(-kZeroBelow));
  const __m256 round = _mm256_set1_ps(12582912.f);  // 1.5 * 2^23: adding it rounds to an integer
  const __m256 n = _mm256_sub_ps(_mm256_fmadd_ps(x, _mm256_set1_ps(-1.44269504088896341f), round), round);
  __m256 r = _mm256_fnmsub_ps(n, _mm256_set1_ps(0.693359375f), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_fmadd_ps(_mm256_set1_ps(1.9875691500e-4f), r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.f));
  const __m256 two_n = _mm256_castsi256_ps(
      _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23));
  const __m256 y = _mm256_div_ps(v, _mm256_fmadd_ps(p, two_n, _mm256_set1_ps(1.f)));
  // Below -87: x * 0, so that -inf gives NaN as Sigmoid then Mul would (NaN compares false: stays NaN).
  return _mm256_blendv_ps(y, _mm256_mul_ps(v, _mm256_setzero_ps()), _mm256_cmp_ps(v, _mm256_set1_ps(kZeroBelow), _CMP_LT_OQ));
}

__attribute__((target("avx2,fma"))) void swish_avx2(float* x, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(x + i, swish8(_mm256_loadu_ps(x + i)));
  if (i < n) {
    alignas(32) float tail[8] = {};
    std::copy(x + i, x + n, tail);
    _mm256_store_ps(tail, swish8(_mm256_load_ps(tail)));
    std::copy(tail, tail + (n - i), x + i);
  }
}
#endif

void swish_range(float* x, int64_t n) {
#ifdef CNNX_SWISH_AVX512
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (avx512) return swish_avx512(x, n);
  if (avx2) return swish_avx2(x, n);
#endif
  swish_generic(x, n);
}

}  // namespace

constexpr int64_t kBlock = 1024;  // floats per work item: whole vectors, in L1

void swish_in_place(float* x, int64_t n) {
  const int64_t blocks = (n + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(static) if (n >= kParallelFloats)
  for (int64_t b = 0; b < blocks; ++b) swish_range(x + b * kBlock, std::min(kBlock, n - b * kBlock));
}

void swish_round_to_float16_in_place(float* x, int64_t n, bool swish) {
  const int64_t blocks = (n + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(static) if (n >= kParallelFloats)
  for (int64_t b = 0; b < blocks; ++b) {
    float* block = x + b * kBlock;
    const int64_t m = std::min(kBlock, n - b * kBlock);
    if (swish) swish_range(block, m);
    round_to_float16(DType::f16, block, block, size_t(m));
  }
}

}  // namespace cnnx
