// The global mean kernel: see global_mean.h for the layouts it reads and the summation order it fixes.
#include "ops/pool/global_mean.h"

#include <omp.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <optional>
#include <vector>

#include "dnnl/layouts.h"
#include "dnnl/run_state.h"
#include "ops/cast/round_to_float16.h"

namespace cnnx {

namespace {

// Speed: a read at the bandwidth limit needs many cache lines in flight per core. float64 accumulation costs
// about three times the instructions per byte of a float32 sum (a conversion per element), which alone leaves
// too few loads in flight; every loop therefore prefetches kAhead bytes ahead (prefetches never fault, so
// running past the end of the input is harmless). With it the kernel reads as fast as a plain float32 sum
// (bench/pool_gap.sh). The AVX2 version of sum_span (128-bit loads converted to 4 doubles: cheaper than
// AVX-512's 256-bit-to-8 conversion on the Xeons measured) keeps the generic version's lane of every element
// and its final tree, so both give the same bits; the other loops are compiled for AVX-512, AVX2 and
// baseline x86-64 by the compiler, each accumulator a sequential chain in every version.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define CNNX_MEAN_X86 1
#define CNNX_MEAN_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CNNX_MEAN_CLONES
#endif

constexpr int kLanes = 32;           // interleaved float64 accumulators of a contiguous span
constexpr int64_t kAhead = 4096;     // bytes prefetched ahead of the loads

// The input's elements: float32, or a float32 value stored in bfloat16 (dnnl/layouts.h: the upper half of its
// bits), summed alike in the same order.
struct Bfloat16 {
  uint16_t bits;
};
inline double widen(float v) { return double(v); }
inline double widen(Bfloat16 v) { return double(bfloat16_bits_value(v.bits)); }
template <class T>
constexpr int64_t kAheadElements = kAhead / int64_t(sizeof(T));

// Prefetches the cache line `elements` elements after p (the address is computed as an integer: it may lie
// past the end of the input, where pointer arithmetic would be undefined).
template <class T>
void prefetch(const T* p, int64_t elements) {
  __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(p) + uintptr_t(elements) * sizeof(T)), 0, 3);
}

// The lanes' fixed tree and the tail: acc[j] holds the sum of elements j, j + 32, ... of x[0, done).
template <class T>
double finish_span(double* acc, const T* x, int64_t done, int64_t n) {
  for (int j = 0; done + j < n; ++j) acc[j] += widen(x[done + j]);
  for (int width = kLanes / 2; width > 0; width /= 2)
    for (int j = 0; j < width; ++j) acc[j] += acc[j + width];
  return acc[0];
}

template <class T>
double sum_span_generic(const T* x, int64_t n) {
  double acc[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    prefetch(x, i + kAheadElements<T>);
    prefetch(x, i + kAheadElements<T> + 16);
    for (int j = 0; j < kLanes; ++j) acc[j] += widen(x[i + j]);
  }
  return finish_span(acc, x, i, n);
}

#ifdef CNNX_MEAN_X86
__attribute__((target("avx2"))) double sum_span_avx2(const float* x, int64_t n) {
  __m256d a[8];  // a[k] holds lanes 4k .. 4k + 3
  for (__m256d& v : a) v = _mm256_setzero_pd();
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    prefetch(x, i + kAheadElements<float>);
    prefetch(x, i + kAheadElements<float> + 16);
    for (int k = 0; k < 8; ++k) a[k] = _mm256_add_pd(a[k], _mm256_cvtps_pd(_mm_loadu_ps(x + i + 4 * k)));
  }
  double acc[kLanes];
  for (int k = 0; k < 8; ++k) _mm256_storeu_pd(acc + 4 * k, a[k]);
  return finish_span(acc, x, i, n);
}
#endif

}  // namespace

double sum_span(const float* x, int64_t n) {
#ifdef CNNX_MEAN_X86
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return sum_span_avx2(x, n);
#endif
  return sum_span_generic(x, n);
}

namespace {

// sum_span of either element type (bfloat16 storage: the generic loop).
double span_sum(const float* x, int64_t n) { return sum_span(x, n); }
double span_sum(const Bfloat16* x, int64_t n) { return sum_span_generic(x, n); }

// out[j] = sum over rows r of x[r * row_stride + j], j < L: row r into accumulator set r mod 4.
template <int L, class T>
inline __attribute__((always_inline)) void sum_rows_fixed(const T* x, int64_t rows, int64_t row_stride,
                                                          double* out) {
  double acc[4][L] = {};
  const int64_t ahead_rows = kAheadElements<T> / row_stride;
  int64_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    for (int64_t b = 0; b < 4 * row_stride; b += 16) prefetch(x, (r + ahead_rows) * row_stride + b);
    for (int u = 0; u < 4; ++u)
      for (int j = 0; j < L; ++j) acc[u][j] += widen(x[(r + u) * row_stride + j]);
  }
  for (int u = 0; r < rows; ++r, ++u)
    for (int j = 0; j < L; ++j) acc[u][j] += widen(x[r * row_stride + j]);
  for (int j = 0; j < L; ++j) out[j] = (acc[0][j] + acc[1][j]) + (acc[2][j] + acc[3][j]);
}

// Any lane count (channels-last rows of C floats): rows added in order, per lane. Four rows at a time per
// lane in a register, so that out[] is loaded and stored once per four rows, not once per row.
template <class T>
inline __attribute__((always_inline)) void sum_rows_lanes(const T* x, int64_t rows, int64_t lanes,
                                                          int64_t row_stride, double* out) {
  std::fill(out, out + lanes, 0.0);
  int64_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    for (int64_t b = 0; b < 4 * row_stride; b += 16) prefetch(x, r * row_stride + b + kAheadElements<T>);
    const T* x0 = x + r * row_stride;
    const T* x1 = x0 + row_stride;
    const T* x2 = x1 + row_stride;
    const T* x3 = x2 + row_stride;
    for (int64_t j = 0; j < lanes; ++j)
      out[j] = (((out[j] + widen(x0[j])) + widen(x1[j])) + widen(x2[j])) + widen(x3[j]);
  }
  for (; r < rows; ++r) {
    for (int64_t j = 0; j < lanes; j += 16) prefetch(x, r * row_stride + j + kAheadElements<T>);
    for (int64_t j = 0; j < lanes; ++j) out[j] += widen(x[r * row_stride + j]);
  }
}

// Compiled per instruction set (target_clones takes no templates): each element type's three loops.
#define CNNX_SUM_ROWS(T)                                                                                     \
  CNNX_MEAN_CLONES void sum_rows16(const T* x, int64_t rows, int64_t row_stride, double* out) {             \
    sum_rows_fixed<16>(x, rows, row_stride, out);                                                            \
  }                                                                                                          \
  CNNX_MEAN_CLONES void sum_rows8(const T* x, int64_t rows, int64_t row_stride, double* out) {              \
    sum_rows_fixed<8>(x, rows, row_stride, out);                                                             \
  }                                                                                                          \
  CNNX_MEAN_CLONES void sum_rows_any(const T* x, int64_t rows, int64_t lanes, int64_t row_stride, double* out) { \
    sum_rows_lanes(x, rows, lanes, row_stride, out);                                                         \
  }
CNNX_SUM_ROWS(float)
CNNX_SUM_ROWS(Bfloat16)
#undef CNNX_SUM_ROWS

template <class T>
void sum_rows(const T* x, int64_t rows, int64_t lanes, int64_t row_stride, double* out) {
  if (lanes == 16) return sum_rows16(x, rows, row_stride, out);
  if (lanes == 8) return sum_rows8(x, rows, row_stride, out);
  sum_rows_any(x, rows, lanes, row_stride, out);
}


// sum[j] += x[j], j < n.
CNNX_MEAN_CLONES void add_lanes(const double* x, int64_t n, double* sum) {
  for (int64_t j = 0; j < n; ++j) sum[j] += x[j];
}

// Below this many floats one thread does it all (a parallel region costs more than it saves). Inside a model
// the input was just written by a parallel kernel, half of it in each core's cache: one thread reading all
// of it pulls the other half across, and the next kernel (the squeeze-excitation Mul) pulls it back.
// efficientnet_b0, 2 threads: GAP + Mul 0.97 ms with 64k floats and 32k-float chunks, 0.80 ms with 16k
// floats and 8k-float chunks (more chunks for the 7x7 and 14x14 planes to split).
constexpr int64_t kParallelFloats = int64_t(1) << 14;

template <class T>
void mean_of_planes(const T* x, const MeanLayout& L, float* y) {
  const int64_t planes = L.N * L.C, chunks = ceil_div(L.plane, kMeanChunk), items = planes * chunks;
  auto chunk_sum = [&](int64_t item) {
    const int64_t p = item / chunks, k = item % chunks;
    const T* base = x + L.offset + (p / L.C) * L.n_stride + (p % L.C) * L.c_stride + k * kMeanChunk;
    return span_sum(base, std::min(kMeanChunk, L.plane - k * kMeanChunk));
  };
  const double scale = 1.0 / double(L.plane);
  [[maybe_unused]] const bool parallel = planes * L.plane >= kParallelFloats;
  if (chunks == 1) {
#pragma omp parallel for schedule(static) if (parallel)
    for (int64_t p = 0; p < planes; ++p) y[p] = float(chunk_sum(p) * scale);
    return;
  }
  std::vector<double> partial(static_cast<size_t>(items));
#pragma omp parallel for schedule(static) if (parallel)
  for (int64_t i = 0; i < items; ++i) partial[size_t(i)] = chunk_sum(i);
  for (int64_t p = 0; p < planes; ++p) {
    double sum = 0;
    for (int64_t k = 0; k < chunks; ++k) sum += partial[size_t(p * chunks + k)];
    y[p] = float(sum * scale);
  }
}

template <class T>
void mean_of_channel_rows(const T* x, const MeanLayout& L, float* y) {
  // At least 4 rows a chunk: wide rows (C > 2048) still take the 4-row loop, and the partial sums stay at
  // most half the input's size.
  const int64_t groups = ceil_div(L.C, L.lanes), rows_per_chunk = std::max<int64_t>(4, kMeanChunk / L.lanes);
  const int64_t chunks = ceil_div(L.plane, rows_per_chunk), items = L.N * groups * chunks;
  std::vector<double> partial(static_cast<size_t>(items * L.lanes));
  [[maybe_unused]] const bool parallel = L.N * L.C * L.plane >= kParallelFloats;
#pragma omp parallel for schedule(static) if (parallel)
  for (int64_t i = 0; i < items; ++i) {
    const int64_t k = i % chunks, g = (i / chunks) % groups, n = i / (chunks * groups);
    const int64_t first_row = k * rows_per_chunk, rows = std::min(rows_per_chunk, L.plane - first_row);
    const T* base = x + L.offset + n * L.n_stride + g * L.c_stride + first_row * L.row_stride;
    sum_rows(base, rows, L.lanes, L.row_stride, partial.data() + i * L.lanes);
  }
  // Each lane's chunk sums in chunk order, all lanes at once (a loop per lane would be one long chain of
  // dependent adds: 19 us for 672 lanes x 17 chunks).
  const double scale = 1.0 / double(L.plane);
  std::vector<double> sum(static_cast<size_t>(L.lanes));
  for (int64_t n = 0; n < L.N; ++n)
    for (int64_t g = 0; g < groups; ++g) {
      const double* first = partial.data() + (n * groups + g) * chunks * L.lanes;
      std::fill(sum.begin(), sum.end(), 0.0);
      for (int64_t k = 0; k < chunks; ++k) add_lanes(first + k * L.lanes, L.lanes, sum.data());
      for (int64_t j = 0; j < L.lanes && g * L.lanes + j < L.C; ++j)
        y[n * L.C + g * L.lanes + j] = float(sum[size_t(j)] * scale);
    }
}

template <class T>
void mean_of(const T* x, const MeanLayout& layout, float* y) {
  if (layout.N * layout.C == 0) return;
  if (layout.kind == MeanLayout::planes) mean_of_planes(x, layout, y);
  else mean_of_channel_rows(x, layout, y);
}

// Reads the layout it arrives in where mean_layout_of can, in float32 or stored in bfloat16; plain otherwise.
// `store_bfloat16`: the means stored in bfloat16 (plain), rounded as the plan's rounding rounds, where only
// that rounding reads them (CompileContext::store_bfloat16; a squeeze-and-excitation block's squeeze).
class GlobalMean : public CompiledKernel {
 public:
  GlobalMean(const Shape& shape, const Layout& layout, bool store_bfloat16, const Shape& out_shape)
      : layout_(plain_mean_layout(shape)), layouts_{{Layout()}, {Layout()}}, bf16_(stores_bfloat16(layout)),
        store_bf16_(store_bfloat16) {
    const Layout f32 = float32_layout(layout);
    if (is_plain(f32) || mean_layout_of(f32, shape, layout_)) layouts_.in = {layout};
    else bf16_ = false;
    if (store_bf16_) layouts_.out = {bfloat16_layout(Layout(), out_shape)};
  }
  void run(const KernelIO& io) const override {
    const int64_t means = layout_.N * layout_.C;
    std::optional<DnnlWorkspace> wide;  // the float32 means, when the output stores bfloat16
    if (store_bf16_) wide.emplace(io.context, size_t(means) * sizeof(float));
    float* y = store_bf16_ ? reinterpret_cast<float*>(wide->data()) : io.out[0]->data<float>();
    const void* x = io.in[0]->raw();
    if (bf16_) mean_of(static_cast<const Bfloat16*>(x), layout_, y);
    else mean_of(static_cast<const float*>(x), layout_, y);
    if (store_bf16_) float_to_bfloat16_bits(y, static_cast<uint16_t*>(io.out[0]->raw()), size_t(means));
  }
  const KernelLayouts* layouts() const override {
    return is_plain(layouts_.in[0]) && is_plain(layouts_.out[0]) ? nullptr : &layouts_;
  }

 private:
  MeanLayout layout_;
  KernelLayouts layouts_;
  bool bf16_, store_bf16_;
};

}  // namespace

MeanLayout plain_mean_layout(const Shape& shape) {
  MeanLayout L;
  L.N = shape.at(0);
  L.C = shape.at(1);
  L.plane = numel_range(shape, 2, shape.size());
  L.c_stride = L.plane;
  L.n_stride = L.C * L.plane;
  return L;
}

void global_mean(const float* x, const MeanLayout& layout, float* y) { mean_of(x, layout, y); }

Kernel<NoParams> global_mean_kernel() {
  return {"mean", [](const std::shared_ptr<const NoParams>&, const KernelArgs& a) -> Compiled {
            const ValueInfo& x = input(a.in, 0);
            if (x.dtype != DType::f32)
              return Compiled::decline("input 0 is " + std::string(dtype_name(x.dtype)) + ", not float32");
            if (!x.concrete()) return Compiled::decline("input 0 has no concrete shape");
            if (x.rank() < 3) return Compiled::decline("input 0 has rank " + std::to_string(x.rank()) + " < 3");
            const Layout layout = a.offered.in.empty() ? Layout() : a.offered.in[0];
            const bool store = a.context.precision == Precision::bf16 && a.context.store_bfloat16 && !a.out.empty();
            return std::make_unique<GlobalMean>(x.shape, layout, store, store ? a.out[0].shape : Shape());
          }};
}

}  // namespace cnnx
