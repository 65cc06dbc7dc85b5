// The one fast kernel behind every spelling of global average pooling (GlobalAveragePool, and through the
// global-average-pool pass AveragePool / ReduceMean / adaptive pooling to 1x1): y[n, c] = mean of x[n, c, ...].
//
// Bandwidth: the input is read once, front to back, by up to OpenMP's thread count of threads, each taking a
// contiguous range of work items. Nothing is written but the N*C outputs (and a few partial sums).
//
// Layouts: plain N C D1..Dk, and the blocked layouts oneDNN convolutions write (nC[D]hw16c, nChw8c, ...:
// one inner block over channels) and channels-last (n[d]hwc). The kernel reads them where they arrive; any
// other layout is reordered to plain by the plan first.
//
// Determinism: the summation order of every output depends only on the input's shape and layout, never on
// the thread count, the buffer's alignment or the instruction set. Each plane is cut into chunks of
// kMeanChunk floats (fixed boundaries); a chunk is summed in float64 into 32 interleaved lanes (element i of
// the chunk goes to lane i mod 32, or, for blocked layouts, to the accumulator of its channel and its row
// mod 4), the lanes are added in a fixed tree, and the chunk sums of a plane are added in order. Threads
// split the list of chunks, never a chunk. Summing float32 values in float64 loses nothing measurable (the
// result is within a few float64 ulps of the exact sum), so the float32 output is the correctly rounded
// mean except in rare near-ties: within 1 float32 ulp of the exact mean, <= 6e-8 relative.
#pragma once

#include <cstdint>

#include "engine/op.h"

namespace cnnx {

// Floats summed per work item (channels-last: rows of C floats, at least 4 rows). Fixed: part of the result's
// definition (see above), not a tuning knob. Changed once, from 32768 (2026-11-21, so that the 7x7 and
// 14x14 planes of a model's squeeze-excitation blocks split over threads); results may differ from earlier
// builds in the last bit in rare near-ties, never between thread counts.
constexpr int64_t kMeanChunk = int64_t(1) << 13;

// How the [N, C, spatial...] elements of a float32 buffer are laid out, as the mean kernel reads them.
struct MeanLayout {
  enum Kind {
    planes,         // plane (n, c) is `plane` contiguous floats at n * n_stride + c * c_stride
    channel_rows,   // rows of `lanes` floats (`row_stride` apart), one row per spatial position; lane j is
                    // channel c0 + j. Group (n, g) starts at n * n_stride + g * c_stride and has channels
                    // [g * lanes, min(C, (g + 1) * lanes)): blocked layouts (lanes = block) and channels-last
                    // (one group of lanes = C, row_stride >= C)
  } kind = planes;
  int64_t N = 0, C = 0, plane = 0;  // plane: the spatial size (product of D1..Dk)
  int64_t n_stride = 0, c_stride = 0;
  int64_t lanes = 1, row_stride = 1;
  int64_t offset = 0;  // of element (0, 0, 0...) in floats
};

// The layout of a plain [N, C, ...] tensor.
MeanLayout plain_mean_layout(const Shape& shape);
// The layout of a float32 value of `shape` held as `layout` (engine/layout.h), or false when the kernel
// cannot read it directly (then it takes the value plain). In ops/pool/global_mean_dnnl.cc: it reads the
// oneDNN descriptor a blocked layout holds.
bool mean_layout_of(const Layout& layout, const Shape& shape, MeanLayout& out);

// The float64 sum of x[0, n) in the fixed order above (element i into lane i mod 32, lanes in a fixed tree).
double sum_span(const float* x, int64_t n);

// y[n * C + c] = mean over the plane of (n, c), for plane >= 1; float64 sums, order as described above.
// Runs on OpenMP's current thread count (omp_get_max_threads()).
void global_mean(const float* x, const MeanLayout& layout, float* y);

// GlobalAveragePool's first kernel, "mean": float32, rank >= 3, any layout global_mean reads.
Kernel<NoParams> global_mean_kernel();

}  // namespace cnnx
