// QuantizeLinear (float32 x) and DequantizeLinear (int8/uint8 x): native kernels, the reference's arithmetic
// as loops the compiler vectorizes, over runs of elements that share a scale (the whole tensor, or one index of
// the axis), split over the team. In a QDQ model they run between the int8 convolutions (a residual Add, a
// pooling left in float), where the reference's per-element lookups cost more than the convolutions.
//
// Exact as the reference: QuantizeLinear divides in float32 and rounds as nearbyint does (below), which ties to even in
// the default floating-point environment cnnx runs in; the rounded value plus the zero point is exact below
// 2^24 and saturates beyond; NaN gives the zero point, infinities saturate. DequantizeLinear is one float32
// multiplication of an exact integer. int32 x (divided in double by the reference) runs the reference.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "ops/quant/quantization.h"
#include "ops/quant/quantize_linear.h"

namespace cnnx {

namespace {

// Runs f(begin, count, axis index) over the tensor's runs of one scale, in parallel.
template <class F>
void for_each_run(const Shape& shape, int64_t axis, int64_t scale_count, F f) {
  const int64_t n = checked_numel(shape);
  const AxisWalk walk = scale_count > 1 ? axis_walk(shape, axis, scale_count) : AxisWalk{n, 1};
  const int64_t run = std::max<int64_t>(1, walk.inner);
  constexpr int64_t kChunk = 16384;  // elements per task within a run
  const int64_t chunks_per_run = (run + kChunk - 1) / kChunk, runs = n / run;
#pragma omp parallel for schedule(static)
  for (int64_t t = 0; t < runs * chunks_per_run; ++t) {
    const int64_t r = t / chunks_per_run, begin = (t % chunks_per_run) * kChunk;
    f(r * run + begin, std::min(kChunk, run - begin), walk.index_of(r * run));
  }
}

// Rounds half to even without a library call (nearbyint does not vectorize without SSE4.1): v clamped to
// +-2^22, then (v + 1.5 * 2^23) - 1.5 * 2^23, which float32's round-to-nearest-even makes nearbyint(v) exactly
// for |v| <= 2^22; beyond, both saturate int8 and uint8 alike. NaN passes the clamp and gives the zero point.
template <class Q>
void quantize_scalar(const float* x, Q* y, int64_t count, float scale, float zp, float lo, float hi) {
  constexpr float kMagic = 12582912.f, kLimit = 4194304.f;  // 1.5 * 2^23, 2^22
  for (int64_t i = 0; i < count; ++i) {
    float v = x[i] / scale;
    v = std::min(std::max(v, -kLimit), kLimit);
    v = (v + kMagic) - kMagic + zp;
    y[i] = Q(v != v ? zp : v < lo ? lo : v > hi ? hi : v);
  }
}

// The same with SSE2 (every x86-64 CPU), 16 elements a step: GCC does not vectorize the loop above (its
// selects are control flow to it), and on random data its branches mispredict (~25 cycles an element).
// cvtps2dq rounds as the scalar path does (to nearest, ties to even, the default floating-point environment);
// the zero point is added in int32 and the two saturating packs (int32 -> int16 -> int8/uint8) are the
// saturation; NaN lanes (cmpunord) take the zero point.
template <class Q>
void quantize_run(const float* x, Q* y, int64_t count, float scale, float zp, float lo, float hi) {
  int64_t i = 0;
#ifdef __SSE2__
  const __m128 s = _mm_set1_ps(scale), limit = _mm_set1_ps(4194304.f), neg_limit = _mm_set1_ps(-4194304.f);
  const __m128i z = _mm_set1_epi32(int32_t(zp));
  const auto quads = [&](const float* p) {
    const __m128 v = _mm_div_ps(_mm_loadu_ps(p), s);
    const __m128 nan = _mm_cmpunord_ps(v, v);
    const __m128i q = _mm_add_epi32(_mm_cvtps_epi32(_mm_min_ps(_mm_max_ps(v, neg_limit), limit)), z);
    const __m128i m = _mm_castps_si128(nan);
    return _mm_or_si128(_mm_andnot_si128(m, q), _mm_and_si128(m, z));
  };
  for (; i + 16 <= count; i += 16) {
    const __m128i a = _mm_packs_epi32(quads(x + i), quads(x + i + 4));
    const __m128i b = _mm_packs_epi32(quads(x + i + 8), quads(x + i + 12));
    const __m128i r = std::is_same<Q, uint8_t>::value ? _mm_packus_epi16(a, b) : _mm_packs_epi16(a, b);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), r);
  }
#endif
  quantize_scalar(x + i, y + i, count - i, scale, zp, lo, hi);
}

template <class Q>
void dequantize_run(const Q* x, float* y, int64_t count, float scale, float zp) {
  for (int64_t i = 0; i < count; ++i) y[i] = (float(x[i]) - zp) * scale;
}

class QuantizeNative final : public CompiledKernel {
 public:
  QuantizeNative(const LinearQuantParams& p, bool dequantize) : p_(p), dequantize_(dequantize) {}

  void run(const KernelIO& io) const override {
    const Tensor& X = *io.in[0];
    const QuantParams q = read_quant_params(*io.in[1], io.in.size() > 2 ? io.in[2] : nullptr,
                                            dequantize_ ? "x_scale" : "y_scale");
    Tensor& Y = *io.out[0];
    const DType t = dequantize_ ? X.dtype() : Y.dtype();
    const QuantRange range = quant_range(t);
    for_each_run(X.shape(), p_.axis, int64_t(q.scale.size()), [&](int64_t begin, int64_t count, int64_t a) {
      const float scale = float(q.scale_at(a)), zp = float(q.zero_point_at(a));
      if (dequantize_) {
        if (t == DType::u8) dequantize_run(X.data<uint8_t>() + begin, Y.data<float>() + begin, count, scale, zp);
        else dequantize_run(X.data<int8_t>() + begin, Y.data<float>() + begin, count, scale, zp);
      } else if (t == DType::u8) {
        quantize_run(X.data<float>() + begin, Y.data<uint8_t>() + begin, count, scale, zp, float(range.lo), float(range.hi));
      } else {
        quantize_run(X.data<float>() + begin, Y.data<int8_t>() + begin, count, scale, zp, float(range.lo), float(range.hi));
      }
    });
  }

 private:
  LinearQuantParams p_;
  bool dequantize_;
};

}  // namespace

Kernel<LinearQuantParams> quantize_linear_native_kernel() {
  return {"native", [](const std::shared_ptr<const LinearQuantParams>& p, const KernelArgs& a) -> Compiled {
            if (a.in[0].dtype != DType::f32) return Compiled::decline("x is not float32 (int32 x: the reference divides in double)");
            return std::make_unique<QuantizeNative>(*p, false);
          }};
}

Kernel<LinearQuantParams> dequantize_linear_native_kernel() {
  return {"native", [](const std::shared_ptr<const LinearQuantParams>& p, const KernelArgs& a) -> Compiled {
            if (!is_quantized_type(a.in[0].dtype)) return Compiled::decline("x is not int8 or uint8");
            return std::make_unique<QuantizeNative>(*p, true);
          }};
}

}  // namespace cnnx
