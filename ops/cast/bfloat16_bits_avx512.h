// float32 to bfloat16 bits in registers, 16 lanes (AVX512F): bfloat16_rounded_bits (ops/cast/round_to_float16.h)
// for kernels that round values they hold in registers. Not vcvtneps2bf16, which takes subnormal inputs as zero
// and needs AVX512_BF16.
#pragma once

#include <cstdint>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

namespace cnnx {

// GCC 12's AVX-512 intrinsics pass an undefined value as the unused merge source, which it then reports as
// maybe uninitialized.
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
__attribute__((target("avx512f"))) inline __m256i bfloat16_bits16(__m512 x) {
  const __m512i b = _mm512_castps_si512(x);
  const __m512i nearest = _mm512_add_epi32(_mm512_add_epi32(b, _mm512_set1_epi32(0x7fff)),
                                           _mm512_and_si512(_mm512_srli_epi32(b, 16), _mm512_set1_epi32(1)));
  const __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(b, _mm512_set1_epi32(0x7fffffff)),
                                                _mm512_set1_epi32(0x7f800000));
  const __m512i r = _mm512_mask_or_epi32(nearest, nan, b, _mm512_set1_epi32(0x00400000));
  return _mm512_cvtepi32_epi16(_mm512_srli_epi32(r, 16));
}
// The 16 float32 values stored in bfloat16 at p, widened exactly.
__attribute__((target("avx512f"))) inline __m512 widen_bfloat16x16(const uint16_t* p) {
  const __m256i bits = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(bits), 16));
}
#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace cnnx
#endif
