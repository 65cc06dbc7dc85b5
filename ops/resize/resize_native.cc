// The native kernel of Resize and Upsample ("native"): every mode, coordinate mode, rank and float type the
// reference kernel runs, vectorized by the compiler and parallel over output rows (OpenMP); plain, or
// channel-blocked (nChw8c, ...) as input 0 arrives where N and C keep their cells and C fills whole blocks.
//
// It computes what the reference computes, term by term: an output cell is the sum over its row taps (every
// combination of the taps of the axes before the last, ops/resize/resize_geometry.h) of the sum over its
// column taps (the last axis) of (row weight * column weight) * x, in double, each sum starting at 0 and
// taken in the reference's order, rounded once to the output type; the row weight is the reference's
// product ((1 * w_0) * w_1) ... of the axes' weights. So the outputs are the reference's bits (NaN, infinities
// and -0 included) wherever at most one axis before the last has more than one tap for the cell's row (4-D
// NCHW resizing H and W; any rank resizing two axes). Where two or more such axes do (3-D linear), the
// reference nests its sums per axis and this kernel adds the row taps in one chain: the same terms, added
// in another order in double (differences of double rounding, far inside the op's tolerance).
//
// Geometry, decided at compile time: the leading axes that map every output cell to the same input cell with
// weight 1 (N and C when only H and W are resized) are one block index; per output row within a block (the
// cells of the other axes before the last), its row taps (input offset, weight); per output column, its
// column taps padded to the most any column has (index 0, weight 0, and a mask that turns the padded term
// into +0 on its bits: even over an infinite or NaN cell it adds exactly nothing). Columns and rows outside a
// tf_crop_and_resize box take extrapolation_value. A node whose every tap has weight 1 (nearest, or only the
// identity) copies the selected cells (plus 0, as the reference's sum: -0 becomes 0), and a row that reads the
// input row the one before it read is a copy of that one.
//
// Running: OpenMP threads take chunks of contiguous output rows as they come free. Each keeps the column cells of the last few
// input rows it read, gathered into contiguous arrays (x2 bilinear reads every input row for 4 (row tap, output
// row) pairs and gathers it once), so the column sums are loops over contiguous data that the compiler
// vectorizes; they are compiled for AVX-512, AVX2 and baseline x86-64, with contraction into fused
// multiply-adds off (the reference rounds every product and every sum; AVX-512 code would fuse them).
// Measured in bench/README.md ("Resize", bench/resize.sh).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "dnnl/cpu_blocks.h"
#include "dnnl/layouts.h"
#include "ops/resize/resize_geometry.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define CNNX_RESIZE_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CNNX_RESIZE_CLONES
#endif

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace cnnx {

namespace {

// Below this many output cells one thread does it all (a parallel region costs more than it saves).
constexpr int64_t kParallelCells = int64_t(1) << 14;
// Threads take chunks of about this many output cells (whole rows) as they finish the last, not a fixed share:
// on a machine where another process holds a core, a thread that is not running does not hold up the run
// (a fixed half would wait for it). Contiguous rows keep a chunk's gathered input rows in use.
constexpr int64_t kChunkCells = int64_t(1) << 14;
// Row taps kept for a node (the product of the axes' taps per output row; antialiasing by tiny scales over
// several axes could make many): beyond this the kernel declines.
constexpr size_t kMaxRowTaps = size_t(1) << 24;
constexpr size_t kMaxGatheredCells = size_t(1) << 20;

struct RowTap {
  int64_t offset;  // of the input row, from its block's start
  double weight;
};

struct ResizePlan {
  int64_t blocks = 1;           // the leading axes that keep their cells, as one index
  int64_t in_block = 0;         // input cells per block
  int64_t rows = 0;             // output rows per block
  int64_t in_w = 0, out_w = 0;  // the last axis
  std::vector<size_t> row_first;  // rows + 1: row q's taps are row_taps[row_first[q] .. row_first[q + 1])
  std::vector<RowTap> row_taps;
  int K = 0;                      // column taps per column, padded
  bool full = true;               // every column has K taps (no padding)
  std::vector<int32_t> col_index;  // tap j of column o at [j * out_w + o]
  std::vector<double> col_weight;  // 0 for a padded tap
  std::vector<uint64_t> col_keep;  // all bits 1 for a tap, 0 for a padded one
  std::vector<int64_t> outside_cols;  // columns outside a tf_crop_and_resize box
  bool copy = false;  // every row and column has one tap of weight 1 (or none)
  KernelLayouts layouts;  // empty: plain; else input 0 and output 0 channel-blocked
  bool columns_kept = false;  // the last axis maps every cell to itself with weight 1: nothing to gather
  size_t slots = 1;           // gathered input rows a thread keeps: the most row taps of a row, plus 1
  double extrapolation = 0;
};

// A padded tap's term, selected away by its mask (all bits 0; a real tap's all 1): +0, whatever the cell (an
// infinity or NaN times weight 0 would be NaN). Done on the bits: a branch or a select of doubles is not
// vectorized (the product might trap, as far as the compiler knows).
inline double masked(double t, uint64_t keep) {
  uint64_t bits;
  std::memcpy(&bits, &t, sizeof bits);
  bits &= keep;
  std::memcpy(&t, &bits, sizeof t);
  return t;
}

// Sum over the column taps of output column o for one row tap of weight wr, its cells gathered into g
// (tap j of column o at g[j * W + o]). s is never -0 (it starts at +0): adding a padded tap's +0 leaves it
// as it is.
template <class T, int K, bool Full>
inline double column_sum(const T* g, double wr, const double* cw, const uint64_t* keep, int64_t W, int64_t o) {
  double s = 0;
  for (int j = 0; j < K; ++j) {
    const double t = (wr * cw[j * W + o]) * double(g[j * W + o]);
    s += Full ? t : masked(t, keep[j * W + o]);
  }
  return s;
}

// One row tap's column sums: into y (the only tap), acc (the first), added to acc, or added to acc into y (the
// last): the chain starts at the first tap's sum (0 + s is s: s is never -0).
enum class Step { only, first, middle, last };

template <class T, int K, bool Full>
CNNX_RESIZE_CLONES void weighted_step(Step step, const T* g, double wr, const double* cw, const uint64_t* keep,
                                      int64_t W, T* y, double* acc) {
  switch (step) {
    case Step::only:
      for (int64_t o = 0; o < W; ++o) y[o] = T(column_sum<T, K, Full>(g, wr, cw, keep, W, o));
      break;
    case Step::first:
      for (int64_t o = 0; o < W; ++o) acc[o] = column_sum<T, K, Full>(g, wr, cw, keep, W, o);
      break;
    case Step::middle:
      for (int64_t o = 0; o < W; ++o) acc[o] += column_sum<T, K, Full>(g, wr, cw, keep, W, o);
      break;
    case Step::last:
      for (int64_t o = 0; o < W; ++o) y[o] = T(acc[o] + column_sum<T, K, Full>(g, wr, cw, keep, W, o));
      break;
  }
}

// Any number of column taps (antialiasing): tap by tap over the row, each column's sum in s.
template <class T>
CNNX_RESIZE_CLONES void weighted_step_any(Step step, const T* g, double wr, const double* cw, const uint64_t* keep,
                                          int K, int64_t W, T* y, double* acc, double* s) {
  for (int64_t o = 0; o < W; ++o) s[o] = 0;
  for (int j = 0; j < K; ++j) {
    const T* gj = g + j * W;
    const double* cwj = cw + j * W;
    const uint64_t* keepj = keep + j * W;
    for (int64_t o = 0; o < W; ++o) s[o] += masked((wr * cwj[o]) * double(gj[o]), keepj[o]);
  }
  switch (step) {
    case Step::only: for (int64_t o = 0; o < W; ++o) y[o] = T(s[o]); break;
    case Step::first: for (int64_t o = 0; o < W; ++o) acc[o] = s[o]; break;
    case Step::middle: for (int64_t o = 0; o < W; ++o) acc[o] += s[o]; break;
    case Step::last: for (int64_t o = 0; o < W; ++o) y[o] = T(acc[o] + s[o]); break;
  }
}

// weighted_step for K column taps: unrolled for 1-4 (K a template argument), weighted_step_any beyond.
template <class T, bool Full>
inline void weighted_step_k(Step step, const T* g, double wr, const double* cw, const uint64_t* keep, int K, int64_t W, T* y,
                     double* acc, double* s) {
  switch (K) {
    case 1: weighted_step<T, 1, Full>(step, g, wr, cw, keep, W, y, acc); break;
    case 2: weighted_step<T, 2, Full>(step, g, wr, cw, keep, W, y, acc); break;
    case 3: weighted_step<T, 3, Full>(step, g, wr, cw, keep, W, y, acc); break;
    case 4: weighted_step<T, 4, Full>(step, g, wr, cw, keep, W, y, acc); break;
    default: weighted_step_any(step, g, wr, cw, keep, K, W, y, acc, s);
  }
}

// The cells of column taps, gathered from one input row: g[j * W + o] = x[ci[j * W + o]].
template <class T>
void gather(const T* x, const int32_t* ci, int64_t n, T* g) {
  for (int64_t i = 0; i < n; ++i) g[i] = x[ci[i]];
}

// Every tap of weight 1: the selected cells, plus 0 as the reference's sum adds them.
template <class T>
CNNX_RESIZE_CLONES void copy_row(const T* x, const int32_t* ci, int64_t W, T* y) {
  for (int64_t o = 0; o < W; ++o) y[o] = x[ci[o]] + T(0);
}

// One thread's scratch: the column sums, and the last few input rows' gathered cells (consecutive output rows
// read mostly the same input rows: x2 bilinear reads each input row for 4 (row tap, output row) pairs, and
// gathers it once), replaced oldest first.
template <class T>
struct Scratch {
  std::vector<double> acc, s;
  std::vector<T> rows;
  std::vector<const T*> key;  // the input row each slot holds
  size_t next = 0, len = 0;

  Scratch(size_t slots, size_t row_len, size_t W, bool any) : acc(W), s(any ? W : 0), rows(slots * row_len),
                                                              key(slots, nullptr), len(row_len) {}
  const T* gathered(const T* x, const int32_t* ci) {
    for (size_t k = 0; k < key.size(); ++k)
      if (key[k] == x) return rows.data() + k * len;
    T* g = rows.data() + next * len;
    gather(x, ci, int64_t(len), g);
    key[next] = x;
    next = (next + 1) % key.size();
    return g;
  }
};

class ResizeNative : public CompiledKernel {
 public:
  explicit ResizeNative(ResizePlan plan) : p_(std::move(plan)) {}
  const KernelLayouts* layouts() const override { return p_.layouts.out.empty() ? nullptr : &p_.layouts; }

  void run(const KernelIO& io) const override {
    if (io.in[0]->dtype() == DType::f32) resize(io.in[0]->data<float>(), io.out[0]->data<float>());
    else resize(io.in[0]->data<double>(), io.out[0]->data<double>());
  }

 private:
  template <class T>
  void resize(const T* x, T* y) const {
    const ResizePlan& p = p_;
    const int64_t total = p.blocks * p.rows, W = p.out_w;
    if (total == 0 || W == 0) return;
    [[maybe_unused]] const bool parallel = total * W >= kParallelCells;
    [[maybe_unused]] const int64_t chunk = std::max<int64_t>(1, kChunkCells / W);
#pragma omp parallel if (parallel)
    {
      Scratch<T> scratch(p.copy || p.columns_kept ? 0 : p.slots, size_t(p.K * W), size_t(W), p.K > 4);
      const T* previous = nullptr;  // the copy path's last row read, and where its copy went
      const T* previous_y = nullptr;
#pragma omp for schedule(dynamic, chunk)
      for (int64_t i = 0; i < total; ++i) {
        const int64_t b = i / p.rows, q = i % p.rows;
        T* yi = y + i * W;
        const size_t first = p.row_first[size_t(q)], taps = p.row_first[size_t(q) + 1] - first;
        if (taps == 0) {  // outside the crop box
          std::fill(yi, yi + W, T(p.extrapolation));
          continue;
        }
        const T* xb = x + b * p.in_block;
        const RowTap* rt = p.row_taps.data() + first;
        if (p.copy) {  // rows repeat in upsampling: copy the one just made
          const T* xr = xb + rt[0].offset;
          if (xr == previous) std::copy(previous_y, previous_y + W, yi);
          else copy_row(xr, p.col_index.data(), W, yi);
          previous = xr;
          previous_y = yi;
        } else {
          weighted_row(xb, rt, taps, yi, scratch);
        }
        for (int64_t o : p.outside_cols) yi[o] = T(p.extrapolation);
      }
    }
  }

  template <class T>
  void weighted_row(const T* xb, const RowTap* rt, size_t taps, T* y, Scratch<T>& scratch) const {
    const ResizePlan& p = p_;
    const int64_t W = p.out_w;
    const double* cw = p.col_weight.data();
    const uint64_t* keep = p.col_keep.data();
    for (size_t r = 0; r < taps; ++r) {
      const Step step = taps == 1 ? Step::only : r == 0 ? Step::first : r + 1 == taps ? Step::last : Step::middle;
      const T* xr = xb + rt[r].offset;
      const T* g = p.columns_kept ? xr : scratch.gathered(xr, p.col_index.data());
      const double wr = rt[r].weight;
      double* acc = scratch.acc.data();
      if (p.full) weighted_step_k<T, true>(step, g, wr, cw, keep, p.K, W, y, acc, scratch.s.data());
      else weighted_step_k<T, false>(step, g, wr, cw, keep, p.K, W, y, acc, scratch.s.data());
    }
  }

  ResizePlan p_;
};

// One axis of the tensor as the kernel reads it: its cells in and out, and every output cell's taps.
struct ViewAxis {
  int64_t in = 0, out = 0;
  AxisTaps taps;
};

// True when the axis maps every output cell to the same input cell with weight 1.
bool keeps_cells(const ViewAxis& a) {
  if (a.in != a.out) return false;
  for (int64_t o = 0; o < a.out; ++o) {
    const size_t f = a.taps.first[size_t(o)];
    if (a.taps.first[size_t(o) + 1] != f + 1 || a.taps.taps[f].index != o || a.taps.taps[f].weight != 1.0) return false;
  }
  return true;
}

// True when every cell of the axis has at most one tap, of weight 1.
bool selects(const AxisTaps& t) {
  for (size_t o = 0; o + 1 < t.first.size(); ++o)
    if (t.first[o + 1] > t.first[o] + 1) return false;
  for (const ResizeTap& tap : t.taps)
    if (tap.weight != 1.0) return false;
  return true;
}

ViewAxis identity_axis(int64_t n) {
  ViewAxis a;
  a.in = a.out = n;
  for (int64_t o = 0; o < n; ++o) {
    a.taps.first.push_back(size_t(o));
    a.taps.taps.push_back({o, 1.0});
  }
  a.taps.first.push_back(size_t(n));
  return a;
}

// The channel-blocked view (nChw8c: N x C/8 x H x W x 8, plain bytes): N, the channel blocks (kept), the
// spatial axes, the last one's cells each b lanes wide (lane l of cell w is column w * b + l, its taps the
// cell's, b lanes apart). Each output element still sums the reference's terms in its order.
std::vector<ViewAxis> blocked_view(std::vector<ViewAxis> plain, int64_t b) {
  std::vector<ViewAxis> v = std::move(plain);
  v[1] = identity_axis(v[1].in / b);
  ViewAxis& w = v.back();
  AxisTaps lanes;
  for (int64_t o = 0; o < w.out; ++o)
    for (int64_t l = 0; l < b; ++l) {
      lanes.first.push_back(lanes.taps.size());
      for (size_t t = w.taps.first[size_t(o)]; t < w.taps.first[size_t(o) + 1]; ++t)
        lanes.taps.push_back({w.taps.taps[t].index * b + l, w.taps.taps[t].weight});
    }
  lanes.first.push_back(lanes.taps.size());
  w.in *= b;
  w.out *= b;
  w.taps = std::move(lanes);
  return v;
}

// The kernel for the axes of `view` (plain bytes), the last one the columns.
Compiled compile_view(const ResizeParams& p, const std::vector<ViewAxis>& view, KernelLayouts layouts) {
  ResizePlan plan;
  plan.extrapolation = p.extrapolation_value;
  plan.layouts = std::move(layouts);
  const size_t rank = view.size(), last = rank - 1;
  if (view[last].in > int64_t(std::numeric_limits<int32_t>::max()))
    return Compiled::decline("the last axis has " + std::to_string(view[last].in) + " cells; column indices are 32-bit");
  Shape in_shape, out_shape;
  for (const ViewAxis& ax : view) {
    in_shape.push_back(ax.in);
    out_shape.push_back(ax.out);
  }

  // Leading axes that keep their cells: one block index.
  size_t lead = 0;
  while (lead < last && keeps_cells(view[lead])) ++lead;
  const std::vector<int64_t> in_strides = strides_of(in_shape);
  plan.blocks = numel_range(out_shape, 0, lead);
  plan.in_block = numel_range(in_shape, lead, rank);
  plan.rows = numel_range(out_shape, lead, last);
  plan.in_w = view[last].in;
  plan.out_w = view[last].out;

  // Row taps: per output row of a block, every combination of its axes' taps, the first axis outermost (the
  // reference's order), weights multiplied in the reference's order.
  bool copy = selects(view[last].taps);
  plan.row_first.reserve(size_t(plan.rows) + 1);
  std::vector<int64_t> o(rank, 0);  // the output row's cell along axes [lead, last)
  for (int64_t q = 0; q < plan.rows; ++q) {
    plan.row_first.push_back(plan.row_taps.size());
    bool inside = true;
    for (size_t ax = lead; ax < last; ++ax)
      inside = inside && view[ax].taps.first[size_t(o[ax])] < view[ax].taps.first[size_t(o[ax]) + 1];
    if (inside) {
      // Odometer over the taps of axes [lead, last).
      std::vector<size_t> k(rank, 0);
      for (size_t ax = lead; ax < last; ++ax) k[ax] = view[ax].taps.first[size_t(o[ax])];
      for (;;) {
        int64_t offset = 0;
        double weight = 1.0;
        for (size_t ax = lead; ax < last; ++ax) {
          offset += view[ax].taps.taps[k[ax]].index * in_strides[ax];
          weight *= view[ax].taps.taps[k[ax]].weight;
        }
        plan.row_taps.push_back({offset, weight});
        if (plan.row_taps.size() > kMaxRowTaps)
          return Compiled::decline("over " + std::to_string(kMaxRowTaps) + " row taps (antialiasing by tiny scales)");
        size_t ax = last;
        while (ax-- > lead) {
          if (++k[ax] < view[ax].taps.first[size_t(o[ax]) + 1]) break;
          k[ax] = view[ax].taps.first[size_t(o[ax])];
        }
        if (ax == size_t(-1) || ax < lead) break;
      }
      const size_t n = plan.row_taps.size() - plan.row_first.back();
      copy = copy && n == 1 && plan.row_taps.back().weight == 1.0;
    }
    for (size_t ax = last; ax-- > lead;) {
      if (++o[ax] < out_shape[ax]) break;
      o[ax] = 0;
    }
  }
  plan.row_first.push_back(plan.row_taps.size());
  plan.copy = copy;
  plan.columns_kept = keeps_cells(view[last]);
  for (int64_t q = 0; q < plan.rows; ++q)
    plan.slots = std::max(plan.slots, plan.row_first[size_t(q) + 1] - plan.row_first[size_t(q)] + 1);

  // Column taps, padded to the most any column has.
  const AxisTaps& ct = view[last].taps;
  const int64_t W = plan.out_w;
  for (int64_t c = 0; c < W; ++c) {
    const size_t n = ct.first[size_t(c) + 1] - ct.first[size_t(c)];
    plan.K = std::max(plan.K, int(n));
    if (n == 0) plan.outside_cols.push_back(c);
  }
  plan.K = std::max(plan.K, 1);
  plan.col_index.assign(size_t(plan.K * W), 0);
  plan.col_weight.assign(size_t(plan.K * W), 0.0);
  plan.col_keep.assign(size_t(plan.K * W), 0);
  for (int64_t c = 0; c < W; ++c) {
    const size_t f = ct.first[size_t(c)], n = ct.first[size_t(c) + 1] - f;
    plan.full = plan.full && n == size_t(plan.K);
    for (size_t j = 0; j < n; ++j) {
      plan.col_index[j * size_t(W) + size_t(c)] = int32_t(ct.taps[f + j].index);
      plan.col_weight[j * size_t(W) + size_t(c)] = ct.taps[f + j].weight;
      plan.col_keep[j * size_t(W) + size_t(c)] = ~uint64_t(0);
    }
  }
  // Gathered rows cost K * W cells each: at most kMaxGatheredCells a thread (antialiasing by small scales has
  // hundreds of taps per row; fewer slots than taps only gathers a row again).
  plan.slots = std::min(plan.slots, std::max<size_t>(1, kMaxGatheredCells / size_t(plan.K * W)));
  return std::make_unique<ResizeNative>(std::move(plan));
}

Compiled compile_resize_native(const std::shared_ptr<const ResizeParams>& params, const KernelArgs& a) {
  const ResizeParams& p = *params;
  const ValueInfo& x = input(a.in, 0);
  if (x.dtype != DType::f32 && x.dtype != DType::f64)
    return Compiled::decline("input 0 is " + std::string(dtype_name(x.dtype)) + "; Resize runs float32 and float64");
  if (!x.concrete()) return Compiled::decline("input 0 has no concrete shape");
  if (x.rank() == 0) return Compiled::decline("input 0 is a scalar: nothing to resize");
  ResizeGeometry g;
  if (!resolve_resize(p, a.in, g)) return Compiled::decline("the scales or sizes are not known when the plan is made");
  const Shape out_shape = g.output();
  if (checked_numel(out_shape) == 0) return std::make_unique<ResizeNative>(ResizePlan{});  // nothing to do

  std::vector<ViewAxis> view;
  for (const ResizeAxis& ax : g.axes) view.push_back({ax.in, ax.out, axis_taps(p, ax)});
  // Input 0 arriving channel-blocked (a convolution's output) is read so and the output written so, when N
  // and C keep their cells and C fills whole blocks: no reorder on either side.
  const Layout offered = a.offered.in.empty() ? Layout() : a.offered.in[0];
  const int64_t b = x.dtype == DType::f32 ? channel_block(offered, x.shape) : 0;
  if (b > 0 && keeps_cells(view[0]) && keeps_cells(view[1]) && x.shape[1] % b == 0) {
    const Layout out = channel_blocked_layout(out_shape, b);
    if (channel_block(out, out_shape) == b) {
      KernelLayouts layouts{std::vector<Layout>(a.in.size()), {out}};
      layouts.in[0] = offered;
      return compile_view(p, blocked_view(std::move(view), b), std::move(layouts));
    }
  }
  return compile_view(p, view, KernelLayouts{});
}

}  // namespace

Kernel<ResizeParams> resize_native_kernel() { return {"native", compile_resize_native}; }

}  // namespace cnnx
