// MaxPool's native kernel ("native"): a separable max over plain, channel-blocked (nChw8c, nChw16c) and
// channels-last float32 tensors with 2 spatial dims, where they arrive.
//
// Why: oneDNN 2.6's pooling takes every window tap by tap (jit:avx2 over nChw8c: 0.38 ms for a 3x3 stride-1
// pool over [1, 512, 14, 14], ONNX Runtime's MLAS 0.08-0.19 ms), and over plain NCHW it runs simple_nchw,
// scalar C++ (10-26 ms for the same pool). A KHxKW max is a max over KH rows, then over KW columns of that:
// per output row, the rows of its window are maxed into one padded row (the column max), then each output
// takes the max of KW neighbours of it. A 3x3 window costs 4 maxes instead of 8, in loops the compiler
// vectorizes over contiguous floats (the channel lanes of a blocked or channels-last position, the columns
// of a plain row).
//
// NaN: ONNX's max (the reference) is NaN when a window holds a NaN; a vector max drops NaN operands. Each input
// row is checked for NaN (one OR per float) just before the first output row that reads it, while it is in
// cache; output rows whose windows hold one run the same passes with a max that keeps NaN (slower, exact). Ties (+0 / -0) are equal values: the same result within
// kExact.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "dnnl/cpu_blocks.h"
#include "dnnl/layouts.h"
#include "ops/pool/global_mean.h"
#include "ops/pool/pool.h"

namespace cnnx {

namespace {

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define CNNX_POOL_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CNNX_POOL_CLONES
#endif

// The max that drops a NaN operand (maxps: the fast passes, run on NaN-free rows) and the one that keeps it.
inline float max_fast(float a, float b) { return a > b ? a : b; }
inline float max_nan(float a, float b) { return (a > b) | (a != a) ? a : b; }

// One pool over rows of `L` lanes: position (h, w) of a plane is L floats at (h * W + w) * L (L = 1: a plain
// plane; 8 or 16: a block of channels; C: channels-last).
struct Plane {
  int64_t H = 0, W = 0, L = 1;
};
struct Window {
  int64_t OH = 0, OW = 0, KH = 1, KW = 1, SH = 1, SW = 1, PH = 0, PW = 0;
  int64_t padded_w = 0;  // columns of the padded row: (OW - 1) * SW + KW, at least PW + W
};

// True when x[0, n) holds a NaN.
inline __attribute__((always_inline)) bool any_nan(const float* x, int64_t n) {
  uint32_t acc[4][8] = {};
  int64_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (int u = 0; u < 4; ++u)
      for (int j = 0; j < 8; ++j) {
        uint32_t bits;
        std::memcpy(&bits, x + i + 8 * u + j, 4);
        acc[u][j] |= (bits & 0x7fffffffu) > 0x7f800000u ? 1u : 0u;
      }
  uint32_t any = 0;
  for (; i < n; ++i) any |= x[i] != x[i] ? 1u : 0u;
  for (int u = 0; u < 4; ++u)
    for (int j = 0; j < 8; ++j) any |= acc[u][j];
  return any != 0;
}

// Output row oh of one plane from input rows [h0, h1); `row` holds padded_w * L floats, its padding columns
// already -inf.
template <int FixedL, bool KeepNaN>
inline __attribute__((always_inline)) void pool_row(const float* x, float* y, const Plane& p, const Window& w,
                                                    int64_t oh, int64_t h0, int64_t h1, float* row) {
  const int64_t L = FixedL ? FixedL : p.L, WL = p.W * L;
  float* mid = row + w.PW * L;
  const float* first = x + h0 * WL;
  std::copy(first, first + WL, mid);
  for (int64_t h = h0 + 1; h < h1; ++h) {
    const float* r = x + h * WL;
    for (int64_t i = 0; i < WL; ++i) mid[i] = KeepNaN ? max_nan(r[i], mid[i]) : max_fast(r[i], mid[i]);
  }
  float* out = y + oh * w.OW * L;
  for (int64_t ow = 0; ow < w.OW; ++ow)
    for (int64_t j = 0; j < L; ++j) out[ow * L + j] = row[ow * w.SW * L + j];
  for (int64_t k = 1; k < w.KW; ++k)
    for (int64_t ow = 0; ow < w.OW; ++ow) {
      const float* t = row + (ow * w.SW + k) * L;
      for (int64_t j = 0; j < L; ++j)
        out[ow * L + j] = KeepNaN ? max_nan(t[j], out[ow * L + j]) : max_fast(t[j], out[ow * L + j]);
    }
}

// Output rows [oh0, oh1) of one plane. Each input row is checked for NaN once, just before the first output
// row reading it (while it is in cache); an output row whose window rows hold a NaN takes the NaN-keeping max.
template <int FixedL>
inline __attribute__((always_inline)) void pool_rows(const float* x, float* y, const Plane& p, const Window& w,
                                                     int64_t oh0, int64_t oh1, float* row) {
  const int64_t L = FixedL ? FixedL : p.L, WL = p.W * L;
  constexpr float kLow = -std::numeric_limits<float>::infinity();  // padding never wins over an input cell
  std::fill(row, row + w.PW * L, kLow);
  std::fill(row + (w.PW + p.W) * L, row + w.padded_w * L, kLow);
  int64_t checked = std::max<int64_t>(0, oh0 * w.SH - w.PH), last_nan = -1;
  for (int64_t oh = oh0; oh < oh1; ++oh) {
    const int64_t h0 = std::max<int64_t>(0, oh * w.SH - w.PH), h1 = std::min(p.H, oh * w.SH - w.PH + w.KH);
    for (checked = std::max(checked, h0); checked < h1; ++checked)
      if (any_nan(x + checked * WL, WL)) last_nan = checked;
    if (last_nan >= h0) pool_row<FixedL, true>(x, y, p, w, oh, h0, h1, row);
    else pool_row<FixedL, false>(x, y, p, w, oh, h0, h1, row);
  }
}

CNNX_POOL_CLONES void pool_plane_rows(const float* x, float* y, const Plane& p, const Window& w, int64_t oh0,
                                      int64_t oh1, float* row) {
  switch (p.L) {
    case 1: return pool_rows<1>(x, y, p, w, oh0, oh1, row);
    case 8: return pool_rows<8>(x, y, p, w, oh0, oh1, row);
    case 16: return pool_rows<16>(x, y, p, w, oh0, oh1, row);
    default: return pool_rows<0>(x, y, p, w, oh0, oh1, row);
  }
}

class MaxPoolNative : public CompiledKernel {
 public:
  MaxPoolNative(const MeanLayout& x, const MeanLayout& y, const Plane& p, const Window& w, const Layout& x_layout,
                const Layout& y_layout)
      : x_(x), y_(y), p_(p), w_(w) {
    layouts_.in = {x_layout};
    layouts_.out = {y_layout};
  }
  const KernelLayouts* layouts() const override { return &layouts_; }

  void run(const KernelIO& io) const override {
    const float* x = io.in[0]->data<float>() + x_.offset;
    float* y = io.out[0]->data<float>() + y_.offset;
    // Planes: one per (n, c) when plain, per (n, channel block) when blocked, per n when channels-last.
    const int64_t groups = x_.kind == MeanLayout::planes ? x_.C : ceil_div(x_.C, x_.lanes);
    const int64_t planes = x_.N * groups, threads = omp_get_max_threads();
    // Enough items for every thread when there are few planes (a batch-1 channels-last tensor is one).
    const int64_t chunks = std::min(w_.OH, std::max<int64_t>(1, ceil_div(4 * threads, planes)));
    const int64_t rows_per_chunk = ceil_div(w_.OH, chunks), items = planes * chunks;
    [[maybe_unused]] const bool parallel = planes * w_.OH * w_.OW * p_.L >= (int64_t(1) << 14);
#pragma omp parallel if (parallel)
    {
      std::vector<float> row(size_t(w_.padded_w * p_.L));
#pragma omp for schedule(static)
      for (int64_t i = 0; i < items; ++i) {
        const int64_t plane = i / chunks, n = plane / groups, g = plane % groups;
        const int64_t oh0 = (i % chunks) * rows_per_chunk, oh1 = std::min(w_.OH, oh0 + rows_per_chunk);
        if (oh0 >= oh1) continue;
        const float* xp = x + n * x_.n_stride + g * x_.c_stride;
        float* yp = y + n * y_.n_stride + g * y_.c_stride;
        pool_plane_rows(xp, yp, p_, w_, oh0, oh1, row.data());
      }
    }
  }

 private:
  MeanLayout x_, y_;
  Plane p_;
  Window w_;
  KernelLayouts layouts_;
};

// The output's layout for an input arriving in `x_layout` (the same kind), or plain.
Layout output_layout(const Layout& x_layout, const MeanLayout& x, const Shape& y_shape) {
  if (x.kind == MeanLayout::planes) return Layout();
  if (x.c_stride == 0) return channels_last_layout(y_shape);
  return channel_blocked_layout(y_shape, x.lanes);
}

Compiled compile_max_pool_native(const std::shared_ptr<const PoolParams>& p, const KernelArgs& a) {
  if (p->kind != PoolKind::max) return Compiled::decline("not MaxPool");
  if (p->wants_indices) return Compiled::decline("the Indices output is requested");
  const ValueInfo& xi = input(a.in, 0);
  if (xi.dtype != DType::f32) return Compiled::decline("input 0 is " + std::string(dtype_name(xi.dtype)) + ", not float32");
  if (!xi.concrete() || xi.rank() != 4)
    return Compiled::decline("input 0 " + to_string(xi.shape) + " is not [N, C, H, W] of known size");
  const PoolGeometry g = resolve_pool_geometry(p->window, Shape(xi.shape.begin() + 2, xi.shape.end()));
  for (const PoolAxis& ax : g.axes)
    if (ax.dilation != 1) return Compiled::decline("dilation " + std::to_string(ax.dilation) + " (taps one cell apart only)");
  // A value stored in bfloat16 (a native bfloat16 plan) is taken in float32: the plan converts it.
  const Layout x_layout = a.offered.in.empty() ? Layout() : float32_layout(a.offered.in[0]);
  MeanLayout x;
  if (!mean_layout_of(x_layout, xi.shape, x) ||
      (x.kind == MeanLayout::channel_rows && (x.row_stride != x.lanes || (x.c_stride == 0 && x.N > 1 && x.n_stride != x.plane * x.lanes))))
    return Compiled::decline("input 0 arrives " + x_layout.name() + ", which the kernel does not read");
  // oneDNN's pooling over blocked and channels-last layouts is JIT code: slower than this kernel with its avx2
  // code, faster with its avx512_core code (channels-last on Zen 5, by minima: resnet50's pool 1.07x,
  // densenet121's 1.39x slower here; bench/README.md); its plain pooling (simple_nchw) is scalar C++ on every CPU.
  const std::string isa = dnnl_cpu_isa();
  if (x.kind == MeanLayout::channel_rows && isa.rfind("avx2", 0) != 0)
    return Compiled::decline("input 0 arrives " + x_layout.name() + " and oneDNN runs " + isa +
                             " pooling here (its avx512 code measured faster than this kernel; its avx2 code slower)");
  Plane plane;
  plane.H = xi.shape[2];
  plane.W = xi.shape[3];
  plane.L = x.kind == MeanLayout::planes ? 1 : x.lanes;
  Window w;
  w.OH = g.axes[0].out;
  w.OW = g.axes[1].out;
  w.KH = g.axes[0].kernel;
  w.KW = g.axes[1].kernel;
  w.SH = g.axes[0].stride;
  w.SW = g.axes[1].stride;
  w.PH = g.axes[0].pad_begin;
  w.PW = g.axes[1].pad_begin;
  w.padded_w = std::max((w.OW - 1) * w.SW + w.KW, w.PW + plane.W);
  const Shape y_shape = a.out[0].shape;
  const Layout y_layout = output_layout(x_layout, x, y_shape);
  MeanLayout y;
  if (!mean_layout_of(y_layout, y_shape, y) || (y.kind != x.kind) || (y.kind == MeanLayout::channel_rows && y.lanes != x.lanes))
    return Compiled::decline("no output layout of input 0's kind (" + x_layout.name() + ")");
  return std::make_unique<MaxPoolNative>(x, y, plane, w, x_layout, y_layout);
}

}  // namespace

Kernel<PoolParams> max_pool_native_kernel() { return {"native", compile_max_pool_native}; }

}  // namespace cnnx
