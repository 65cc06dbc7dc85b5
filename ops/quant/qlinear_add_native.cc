// QLinearAdd / FusedQLinearAdd, native: C = clamp(Q(DQ(A) + DQ(B))) elementwise, in float32 in the QDQ graph's
// order: a = (A - A_zp) * A_scale and b likewise (DequantizeLinear's native arithmetic), a + b (Add), then
// (a + b) / C_scale rounded half to even plus C_zp, saturated and clamped (QuantizeLinear's; a Relu or Clip
// between them is the clamp, exact: ops/quant/qlinear_conv.h). So the folded node gives what the float QDQ
// path gives (bit for bit where the compiler does not contract a * x + b into a fused multiply-add), and
// against the op's double-precision reference differs by at most one step, near a rounding tie: the op's
// tolerance (kOneQuantStep).
//
// Rounding without a library call (nearbyint does not vectorize without SSE4.1): v clamped to +-2^22, then
// (v + 1.5 * 2^23) - 1.5 * 2^23, which float32's round-to-nearest-even makes the nearest integer, ties to
// even, exactly for |v| <= 2^22; beyond, the clamp saturates int8 and uint8 alike. v is never NaN: A, B and
// the scales are finite (checked where they are read).
//
// The loop runs 32 elements a step with AVX2 where the CPU has it (chosen at run time), else 16 with SSE2; the
// same float32 operations in the same order either way.
//
// Layouts: elementwise, so A, B and C may sit in any one layout for all three (an int8 convolution's
// channels-last): the kernel takes the dense layout A (else B) arrives in, plain when neither has one.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "ops/common/chunks.h"
#include "ops/quant/qlinear_binary.h"
#include "ops/quant/quantization.h"

namespace cnnx {

namespace {

struct AddQuant {
  float sa, za, sb, zb, sc, zc, lo, hi;
};

// Elements [i, i + 16) of A and B added (the scalar path's arithmetic; see quantize_linear_native.cc for
// why SSE2 by hand): bytes widened to int32 then float32, the same operations in the same order, the rounded
// value clamped to [lo, hi] in float32 (integers there) and narrowed by saturating packs.
#ifdef __SSE2__
template <class T>
void widen16(const T* p, __m128 out[4]) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  __m128i h[2];
  if (std::is_same<T, uint8_t>::value) {
    const __m128i zero = _mm_setzero_si128();
    h[0] = _mm_unpacklo_epi8(v, zero);
    h[1] = _mm_unpackhi_epi8(v, zero);
  } else {  // sign-extend: each byte into the high half of a 16-bit lane, shifted down arithmetically
    h[0] = _mm_srai_epi16(_mm_unpacklo_epi8(v, v), 8);
    h[1] = _mm_srai_epi16(_mm_unpackhi_epi8(v, v), 8);
  }
  for (int k = 0; k < 2; ++k) {
    out[2 * k] = _mm_cvtepi32_ps(_mm_srai_epi32(_mm_unpacklo_epi16(h[k], h[k]), 16));
    out[2 * k + 1] = _mm_cvtepi32_ps(_mm_srai_epi32(_mm_unpackhi_epi16(h[k], h[k]), 16));
  }
}
#endif

#if defined(__x86_64__)
// AVX2, elements [0, returned) of n, 32 a step: the SSE2 loop's operations on 8 lanes (the same results).
template <class T>
__attribute__((target("avx2"))) __m256 widen8_avx2(const T* p) {
  const __m128i v = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  return _mm256_cvtepi32_ps(std::is_same<T, uint8_t>::value ? _mm256_cvtepu8_epi32(v) : _mm256_cvtepi8_epi32(v));
}

template <class T>
__attribute__((target("avx2"))) int64_t add_quantized_avx2(const T* A, const T* B, T* C, int64_t n, const AddQuant& q) {
  constexpr float kMagic = 12582912.f, kLimit = 4194304.f;  // as add_quantized
  const __m256 za = _mm256_set1_ps(q.za), sa = _mm256_set1_ps(q.sa), zb = _mm256_set1_ps(q.zb),
               sb = _mm256_set1_ps(q.sb), sc = _mm256_set1_ps(q.sc), zc = _mm256_set1_ps(q.zc),
               lo = _mm256_set1_ps(q.lo), hi = _mm256_set1_ps(q.hi), limit = _mm256_set1_ps(kLimit),
               neg_limit = _mm256_set1_ps(-kLimit), magic = _mm256_set1_ps(kMagic);
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);  // undoes the packs' per-lane interleave
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i r[4];
    for (int k = 0; k < 4; ++k) {
      const __m256 fa = _mm256_mul_ps(_mm256_sub_ps(widen8_avx2(A + i + 8 * k), za), sa);
      const __m256 fb = _mm256_mul_ps(_mm256_sub_ps(widen8_avx2(B + i + 8 * k), zb), sb);
      __m256 v = _mm256_div_ps(_mm256_add_ps(fa, fb), sc);
      v = _mm256_min_ps(_mm256_max_ps(v, neg_limit), limit);
      v = _mm256_add_ps(_mm256_sub_ps(_mm256_add_ps(v, magic), magic), zc);
      r[k] = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(v, lo), hi));
    }
    const __m256i x = _mm256_packs_epi32(r[0], r[1]), y = _mm256_packs_epi32(r[2], r[3]);
    const __m256i bytes = std::is_same<T, uint8_t>::value ? _mm256_packus_epi16(x, y) : _mm256_packs_epi16(x, y);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(C + i), _mm256_permutevar8x32_epi32(bytes, order));
  }
  return i;
}
#endif

template <class T>
void add_quantized(const T* A, const T* B, T* C, int64_t n, const AddQuant& q) {
#if defined(__x86_64__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
#endif
  constexpr float kMagic = 12582912.f, kLimit = 4194304.f;  // 1.5 * 2^23, 2^22
  for_each_chunk(n, [&](int64_t c0, int64_t count) {
    const int64_t c1 = c0 + count;
    int64_t i = c0;
#if defined(__x86_64__)
    if (avx2) i += add_quantized_avx2(A + c0, B + c0, C + c0, c1 - c0, q);
#endif
#ifdef __SSE2__
    const __m128 za = _mm_set1_ps(q.za), sa = _mm_set1_ps(q.sa), zb = _mm_set1_ps(q.zb), sb = _mm_set1_ps(q.sb),
                 sc = _mm_set1_ps(q.sc), zc = _mm_set1_ps(q.zc), lo = _mm_set1_ps(q.lo), hi = _mm_set1_ps(q.hi),
                 limit = _mm_set1_ps(kLimit), neg_limit = _mm_set1_ps(-kLimit), magic = _mm_set1_ps(kMagic);
    for (; i + 16 <= c1; i += 16) {
      __m128 a[4], b[4];
      __m128i r[4];
      widen16(A + i, a);
      widen16(B + i, b);
      for (int k = 0; k < 4; ++k) {
        const __m128 fa = _mm_mul_ps(_mm_sub_ps(a[k], za), sa), fb = _mm_mul_ps(_mm_sub_ps(b[k], zb), sb);
        __m128 v = _mm_div_ps(_mm_add_ps(fa, fb), sc);
        v = _mm_min_ps(_mm_max_ps(v, neg_limit), limit);
        v = _mm_add_ps(_mm_sub_ps(_mm_add_ps(v, magic), magic), zc);
        r[k] = _mm_cvtps_epi32(_mm_min_ps(_mm_max_ps(v, lo), hi));
      }
      const __m128i x = _mm_packs_epi32(r[0], r[1]), y = _mm_packs_epi32(r[2], r[3]);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(C + i),
                       std::is_same<T, uint8_t>::value ? _mm_packus_epi16(x, y) : _mm_packs_epi16(x, y));
    }
#endif
    for (; i < c1; ++i) {
      const float a = (float(A[i]) - q.za) * q.sa;
      const float b = (float(B[i]) - q.zb) * q.sb;
      float v = (a + b) / q.sc;
      v = std::min(std::max(v, -kLimit), kLimit);
      v = (v + kMagic) - kMagic + q.zc;
      C[i] = T(std::min(std::max(v, q.lo), q.hi));
    }
  });
}

class QLinearAddNative final : public CompiledKernel {
 public:
  QLinearAddNative(const QLinearBinaryParams& p, const Layout& layout, size_t inputs) : p_(p) {
    layouts_.in.resize(inputs);
    layouts_.in[0] = layouts_.in[3] = layout;
    layouts_.out = {layout};
  }
  const KernelLayouts* layouts() const override { return &layouts_; }

  void run(const KernelIO& io) const override {
    const QuantParams aq = read_quant_params(io, 1, "A_scale");
    const QuantParams bq = read_quant_params(io, 4, "B_scale");
    const QuantParams cq = read_quant_params(io, 6, "C_scale");
    Tensor& C = *io.out[0];
    const QuantRange r = quant_range(C.dtype());
    const AddQuant q{float(aq.scale_at(0)), float(aq.zero_point_at(0)), float(bq.scale_at(0)),
                     float(bq.zero_point_at(0)), float(cq.scale_at(0)), float(cq.zero_point_at(0)),
                     float(std::max(r.lo, p_.y_min)), float(std::min(r.hi, p_.y_max))};
    const int64_t n = C.numel();
    if (C.dtype() == DType::u8)
      add_quantized(io.in[0]->data<uint8_t>(), io.in[3]->data<uint8_t>(), C.data<uint8_t>(), n, q);
    else
      add_quantized(io.in[0]->data<int8_t>(), io.in[3]->data<int8_t>(), C.data<int8_t>(), n, q);
  }

 private:
  QLinearBinaryParams p_;
  KernelLayouts layouts_;
};

}  // namespace

Kernel<QLinearBinaryParams> qlinear_add_native_kernel() {
  return {"native", [](const std::shared_ptr<const QLinearBinaryParams>& p, const KernelArgs& a) -> Compiled {
            if (p->multiply) return Compiled::decline("QLinearMul runs the reference");
            if (!a.in[0].concrete() || a.in[0].shape != a.in[3].shape || a.in[0].shape != a.out[0].shape)
              return Compiled::decline("A and B differ in shape (the native kernel does not broadcast)");
            for (size_t i : {1, 2, 4, 5, 6, 7})
              if (i < a.in.size() && a.in[i].dtype != DType::undefined && a.in[i].concrete() &&
                  checked_numel(a.in[i].shape) != 1)
                return Compiled::decline("a scale or zero point is not one value");
            // The dense layout (no padded blocks: every byte an element) A or B arrives in, the other reordered
            // to it (an int8 convolution's channels-last beside a plain input); plain when neither has one.
            const auto dense = [&](const Layout& l) {
              return !is_plain(l) && l.desc()->bytes() == size_t(checked_numel(a.in[0].shape));
            };
            const Layout l = dense(a.offered.in[0]) ? a.offered.in[0] : dense(a.offered.in[3]) ? a.offered.in[3] : Layout();
            return std::make_unique<QLinearAddNative>(*p, l, a.in.size());
          }};
}

}  // namespace cnnx
