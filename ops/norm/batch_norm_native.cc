// BatchNormalization's native kernel: test mode over a channels-last input (rows of C channels, what oneDNN's
// AVX-512 convolutions write), stored in float32 or, in a native bfloat16 plan where only the output's rounding
// reads the output (CompileContext::store_bfloat16), in bfloat16 (dnnl/layouts.h), the output stored as the
// input is; a bfloat16 input whose output is read as float32 is taken in float32 (the plan converts it).
// y = x * a[c] + b[c] (then max(0, y), NaN kept, with then_relu), a and b computed once at compile time from the
// constant statistics: a = scale / sqrt(var + epsilon) and b = B - mean * a in double, each rounded to float, as
// the Conv+BN folding pass does; one float32 multiply-add per element (kBatchNormTolerance's reasoning). A
// bfloat16 output is the float32 result rounded as the plan's rounding rounds (float_to_bfloat16_bits).
// Why not oneDNN's: DenseNet's 62 normalizations (densenet121, 2 threads) take 2.96 ms there in float32 and
// 1.0 ms here; its bf16 normalization (bnorm_jit:avx512_core_bf16) moves bfloat16 at about half the bytes per
// second of its float32 one: 1.97 ms against 0.84 ms here (bench/README.md, "BatchNormalization over
// channels-last values"). Declines other layouts, statistics that are not constant, training mode and
// spatial = 0 (oneDNN's kernel and the reference take those).
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "dnnl/layouts.h"
#include "ops/cast/bfloat16_bits_avx512.h"
#include "ops/cast/round_to_float16.h"
#include "ops/norm/batch_norm.h"

namespace cnnx {

namespace {

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define CNNX_NORM_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CNNX_NORM_CLONES
#endif

// y[j] = x[j] * a[j] + b[j] for j < n, then max(0, y[j]) (NaN kept) when `relu`; x and y may be the same.
// (x * a + b, not std::fma: the clones without FMA would call fmaf per element; the compiler contracts it to
// an fma where the clone has one.)
inline float affine(float x, float a, float b, bool relu) {
  const float y = x * a + b;
  return relu && y < 0.f ? 0.f : y;
}
CNNX_NORM_CLONES void affine_row(const float* x, const float* a, const float* b, int64_t n, bool relu, float* y) {
  if (relu)
    for (int64_t j = 0; j < n; ++j) y[j] = affine(x[j], a[j], b[j], true);
  else
    for (int64_t j = 0; j < n; ++j) y[j] = affine(x[j], a[j], b[j], false);
}
// The same on values stored in bfloat16 (the upper halves of their float32 bits), y rounded to bfloat16.
inline uint16_t affine_bfloat16(uint16_t x, float a, float b, bool relu) {
  return uint16_t(bfloat16_rounded_bits(float_bits(affine(bfloat16_bits_value(x), a, b, relu))) >> 16);
}
void affine_row_bfloat16(const uint16_t* x, const float* a, const float* b, int64_t n, bool relu, uint16_t* y) {
  for (int64_t j = 0; j < n; ++j) y[j] = affine_bfloat16(x[j], a[j], b[j], relu);
}
#if defined(__x86_64__) && defined(__GNUC__)
// 16 lanes at a time (the compiler does not vectorize the rounding's select); max(0, y) keeps a NaN y, as
// vmaxps returns its second operand when either is NaN. (The pragma: ops/cast/bfloat16_bits_avx512.h's.)
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
__attribute__((target("avx512f"))) void affine_row_bfloat16_avx512(const uint16_t* x, const float* a, const float* b,
                                                                  int64_t n, bool relu, uint16_t* y) {
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    __m512 v = _mm512_fmadd_ps(widen_bfloat16x16(x + j), _mm512_loadu_ps(a + j), _mm512_loadu_ps(b + j));
    if (relu) v = _mm512_max_ps(_mm512_setzero_ps(), v);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + j), bfloat16_bits16(v));
  }
  affine_row_bfloat16(x + j, a + j, b + j, n - j, relu, y + j);
}
#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif
const bool kAvx512 = __builtin_cpu_supports("avx512f");
#else
void affine_row_bfloat16_avx512(const uint16_t*, const float*, const float*, int64_t, bool, uint16_t*) {}
const bool kAvx512 = false;
#endif

class BatchNormChannelsLast final : public CompiledKernel {
 public:
  BatchNormChannelsLast(const Layout& layout, int64_t rows, std::vector<float> a, std::vector<float> b, bool relu)
      : layouts_{{layout, Layout(), Layout(), Layout(), Layout()}, {layout}}, bfloat16_(stores_bfloat16(layout)),
        relu_(relu), rows_(rows), a_(std::move(a)), b_(std::move(b)) {}

  const KernelLayouts* layouts() const override { return &layouts_; }
  int in_place_input() const override { return 0; }
  bool reads_input_at_run(size_t input) const override { return input == 0; }

  void run(const KernelIO& io) const override {
    const int64_t C = int64_t(a_.size());
    const int64_t rows_per_item = std::max<int64_t>(1, kChunkElements / C);
    const int64_t items = (rows_ + rows_per_item - 1) / rows_per_item;
    const void* x = io.in[0]->raw();
    void* y = io.out[0]->raw();
#pragma omp parallel for schedule(static) if (rows_ * C >= kChunkElements)
    for (int64_t item = 0; item < items; ++item) {
      const int64_t first = item * rows_per_item, last = std::min(rows_, first + rows_per_item);
      for (int64_t r = first; r < last; ++r) bfloat16_ ? row<uint16_t>(x, y, r) : row<float>(x, y, r);
    }
  }

 private:
  static constexpr int64_t kChunkElements = 16384;  // per work item: 32 to 64 KiB, in L1/L2

  template <class T>  // float, or uint16_t for bfloat16 storage
  void row(const void* x, void* y, int64_t r) const {
    const int64_t C = int64_t(a_.size());
    const T* in = static_cast<const T*>(x) + r * C;
    T* out = static_cast<T*>(y) + r * C;
    if constexpr (std::is_same_v<T, float>) affine_row(in, a_.data(), b_.data(), C, relu_, out);
    else if (kAvx512) affine_row_bfloat16_avx512(in, a_.data(), b_.data(), C, relu_, out);
    else affine_row_bfloat16(in, a_.data(), b_.data(), C, relu_, out);
  }

  KernelLayouts layouts_;
  bool bfloat16_, relu_;
  int64_t rows_;
  std::vector<float> a_, b_;  // per channel
};

Compiled compile_batch_norm_native(const std::shared_ptr<const BatchNormParams>& p, const KernelArgs& a) {
  const ValueInfo& x = a.in[0];
  const bool store_bfloat16 = a.context.precision == Precision::bf16 && a.context.store_bfloat16;
  const Layout offered = a.offered.in.empty() ? Layout() : a.offered.in[0];  // plain when none was offered
  const Layout arriving = store_bfloat16 ? offered : float32_layout(offered);
  if (x.dtype != DType::f32 || !x.concrete() || checked_numel(x.shape) == 0)
    return Compiled::decline("input 0 is not a non-empty float32 tensor of known shape");
  const bool channels_last = x.rank() >= 3 && !is_plain(float32_layout(arriving)) &&
                             float32_layout(arriving) == channels_last_layout(x.shape);
  if (!channels_last) return Compiled::decline("input 0 arrives " + arriving.name() + ", not channels-last");
  if (p->training) return Compiled::decline("training mode (the batch's statistics)");
  if (!p->spatial) return Compiled::decline("spatial = 0 (per-activation statistics)");
  for (size_t i = 1; i < 5; ++i)
    if (i >= a.in.size() || !a.in[i].constant)
      return Compiled::decline("input " + std::to_string(i) + " is not a constant");
  const int64_t C = x.shape[1];
  const float* scale = a.in[1].constant->data<float>();
  const float* B = a.in[2].constant->data<float>();
  const float* mean = a.in[3].constant->data<float>();
  const float* var = a.in[4].constant->data<float>();
  std::vector<float> mul(static_cast<size_t>(C)), add(static_cast<size_t>(C));
  for (int64_t c = 0; c < C; ++c) {
    const double m = double(scale[c]) / std::sqrt(double(var[c]) + double(p->epsilon));
    mul[size_t(c)] = float(m);
    add[size_t(c)] = float(double(B[c]) - double(mean[c]) * m);
  }
  return std::make_unique<BatchNormChannelsLast>(arriving, checked_numel(x.shape) / C, std::move(mul), std::move(add),
                                                 p->then_relu);
}

}  // namespace

Kernel<BatchNormParams> batch_norm_native_kernel() { return {"native", compile_batch_norm_native}; }

}  // namespace cnnx
