// RoundToFloat16 (cnnx.internal): shape inference and the rounding both kernels call.
#include "ops/cast/round_to_float16.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "engine/float16.h"
#include "ops/cast/bfloat16_bits_avx512.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace cnnx {

RoundToFloat16Params parse_round_to_float16(const Node&) {
  fail("RoundToFloat16 is made by cnnx's float16-compute lowering, not read from models");
}

std::vector<ValueInfo> infer_round_to_float16(const RoundToFloat16Params& p, const std::vector<ValueInfo>& in) {
  require(is_float16_family(p.to), "rounds to float16 or bfloat16, not ", dtype_name(p.to));
  require_dtype(in, 0, {DType::f32});
  return {same_as_input(in)};
}

bool is_round_to_float16(const Node& node) {
  return node.domain == kInternalDomain && node.op_type == "RoundToFloat16";
}

namespace {

#if defined(__x86_64__) && defined(__GNUC__)
// float16 by F16C, in registers: vcvtps2ph rounds exactly as engine/float16.h's conversion (nearest even, inf
// beyond the range, subnormals, NaN quieted), vcvtph2ps widens exactly; the tail goes through engine/float16.h.
// Taken on CPUs with AVX2 (all of them have F16C), as engine/float16.cc does.
const bool kF16c = __builtin_cpu_supports("avx2");

__attribute__((target("avx2,f16c"))) void round_f16_f16c(const float* x, float* y, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(y + i, _mm256_cvtph_ps(_mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT)));
  for (; i < n; ++i) y[i] = float16_to_float(float_to_float16(x[i]));
}
// The same 16 lanes at a time (vcvtps2ph and vcvtph2ps on zmm registers, AVX512F): the same bits.
// GCC 12's AVX-512 intrinsics pass an undefined value as the unused merge source, which it then reports as
// maybe uninitialized (as in ops/conv/swish.cc).
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
__attribute__((target("avx512f"))) void round_f16_avx512(const float* x, float* y, size_t n) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps(y + i, _mm512_cvtph_ps(_mm512_cvtps_ph(_mm512_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT)));
  round_f16_f16c(x + i, y + i, n - i);
}
#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif
const bool kAvx512 = __builtin_cpu_supports("avx512f");
#else
const bool kF16c = false, kAvx512 = false;
void round_f16_f16c(const float*, float*, size_t) {}
void round_f16_avx512(const float*, float*, size_t) {}
#endif

void round_bf16(const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const uint32_t r = bfloat16_rounded_bits(float_bits(x[i]));
    std::memcpy(y + i, &r, sizeof r);
  }
}

}  // namespace

namespace {

void to_bfloat16_bits(const float* x, uint16_t* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = uint16_t(bfloat16_rounded_bits(float_bits(x[i])) >> 16);
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same on the bits, 16 lanes at a time (the baseline build does not vectorize the narrowing): not
// vcvtneps2bf16, which takes subnormal inputs as zero.
__attribute__((target("avx512f"))) void to_bfloat16_bits_avx512(const float* x, uint16_t* y, size_t n) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), bfloat16_bits16(_mm512_loadu_ps(x + i)));
  to_bfloat16_bits(x + i, y + i, n - i);
}
#else
void to_bfloat16_bits_avx512(const float*, uint16_t*, size_t) {}
#endif

}  // namespace

void float_to_bfloat16_bits(const float* x, uint16_t* y, size_t n) {
  if (kAvx512) return to_bfloat16_bits_avx512(x, y, n);
  to_bfloat16_bits(x, y, n);
}

void bfloat16_bits_to_float(const uint16_t* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = bfloat16_bits_value(x[i]);
}

Tensor rounded_to_bfloat16(const Tensor& t) {
  Tensor r = t.clone();
  round_bf16(r.data<float>(), r.data<float>(), size_t(r.numel()));
  return r;
}

void round_to_float16(DType to, const float* x, float* y, size_t n) {
  if (to == DType::f16 && kAvx512) return round_f16_avx512(x, y, n);
  if (to == DType::f16 && kF16c) return round_f16_f16c(x, y, n);
  if (to == DType::bf16) return round_bf16(x, y, n);
  constexpr size_t kChunk = 1024;  // the 16-bit values of one chunk, on the stack
  uint16_t narrow[kChunk];
  for (size_t i = 0; i < n; i += kChunk) {
    const size_t m = std::min(kChunk, n - i);
    float_to_float16_family(to, x + i, narrow, m);
    float16_family_to_float(to, narrow, y + i, m);
  }
}

}  // namespace cnnx
