// org.pytorch.aten adaptive_avg_pool{1,2,3}d: parse, infer, the reference and the fast kernel (registered in
// ops/pool/register.cc).
#include "ops/pool/adaptive_pool.h"

#include <type_traits>

#include "ops/pool/global_mean.h"

namespace cnnx {

namespace {

// The output sizes from input 1, or false while they are not known (not a constant yet).
bool output_sizes(const AdaptivePoolParams& p, const std::vector<ValueInfo>& in, std::vector<int64_t>& sizes) {
  require_dtype(in, 1, {DType::i64}, "input 1 (output_size)");
  const ValueInfo& s = in[1];
  const int64_t k = p.spatial_rank;
  if (s.rank_known)
    require(s.rank() == 1 && (s.shape[0] == k || s.shape[0] == kUnknownDim), "input 1 (output_size) must be 1-D with ",
            k, " values, got shape ", to_string(s.shape));
  if (!constant_ints(in, 1, sizes)) return false;
  require(int64_t(sizes.size()) == k, "input 1 (output_size) has ", sizes.size(), " values; expected ", k);
  for (size_t i = 0; i < sizes.size(); ++i)
    require(sizes[i] >= 0 && sizes[i] <= kMaxSize, "input 1 (output_size) has value ", sizes[i], " at index ", i,
            "; it must be non-negative");
  return true;
}

// The geometry of one node as 3 spatial axes (missing leading ones of size 1): planes of D*H*W input cells.
struct AdaptiveGeometry {
  int64_t planes = 0;
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};

  AdaptiveGeometry(const Shape& x, const Shape& y, int k) {
    const size_t lead = x.size() - size_t(k);
    planes = numel_range(x, 0, lead);
    for (int i = 0; i < k; ++i) {
      in[3 - k + i] = x[lead + size_t(i)];
      out[3 - k + i] = y[lead + size_t(i)];
    }
  }
  int64_t in_plane() const { return in[0] * in[1] * in[2]; }
  int64_t out_plane() const { return out[0] * out[1] * out[2]; }
};

template <class T>
void adaptive_ref_typed(const AdaptiveGeometry& g, const T* x, T* y) {
  for (int64_t p = 0; p < g.planes; ++p) {
    const T* src = x + p * g.in_plane();
    for (int64_t od = 0; od < g.out[0]; ++od)
      for (int64_t oh = 0; oh < g.out[1]; ++oh)
        for (int64_t ow = 0; ow < g.out[2]; ++ow) {
          const int64_t d0 = adaptive_start(od, g.in[0], g.out[0]), d1 = adaptive_end(od, g.in[0], g.out[0]);
          const int64_t h0 = adaptive_start(oh, g.in[1], g.out[1]), h1 = adaptive_end(oh, g.in[1], g.out[1]);
          const int64_t w0 = adaptive_start(ow, g.in[2], g.out[2]), w1 = adaptive_end(ow, g.in[2], g.out[2]);
          double sum = 0;
          for (int64_t d = d0; d < d1; ++d)
            for (int64_t h = h0; h < h1; ++h)
              for (int64_t w = w0; w < w1; ++w) sum += double(src[(d * g.in[1] + h) * g.in[2] + w]);
          *y++ = T(sum / double((d1 - d0) * (h1 - h0) * (w1 - w0)));
        }
  }
}

// Fast kernel: one work item per output row (plane, od, oh), every window summed as runs of contiguous
// cells with sum_span (runs merge when the window spans whole rows or planes), runs added in order.
void adaptive_fast(const AdaptiveGeometry& g, const float* x, float* y) {
  const int64_t D = g.in[0], H = g.in[1], W = g.in[2], OD = g.out[0], OH = g.out[1], OW = g.out[2];
  const int64_t items = g.planes * OD * OH;
  [[maybe_unused]] const bool parallel = g.planes * g.in_plane() >= (int64_t(1) << 16);
#pragma omp parallel for schedule(static) if (parallel)
  for (int64_t item = 0; item < items; ++item) {
    const int64_t oh = item % OH, od = (item / OH) % OD, p = item / (OH * OD);
    const float* src = x + p * g.in_plane();
    float* dst = y + item * OW;
    const int64_t d0 = adaptive_start(od, D, OD), d1 = adaptive_end(od, D, OD);
    const int64_t h0 = adaptive_start(oh, H, OH), h1 = adaptive_end(oh, H, OH);
    for (int64_t ow = 0; ow < OW; ++ow) {
      const int64_t w0 = adaptive_start(ow, W, OW), w1 = adaptive_end(ow, W, OW);
      double sum = 0;
      if (w0 == 0 && w1 == W && h0 == 0 && h1 == H) {
        sum = sum_span(src + d0 * H * W, (d1 - d0) * H * W);
      } else if (w0 == 0 && w1 == W) {
        for (int64_t d = d0; d < d1; ++d) sum += sum_span(src + (d * H + h0) * W, (h1 - h0) * W);
      } else {
        for (int64_t d = d0; d < d1; ++d)
          for (int64_t h = h0; h < h1; ++h) sum += sum_span(src + (d * H + h) * W + w0, w1 - w0);
      }
      dst[ow] = float(sum / double((d1 - d0) * (h1 - h0) * (w1 - w0)));
    }
  }
}

struct CompiledAdaptive : CompiledKernel {
  AdaptiveGeometry geometry;
  bool fast;

  CompiledAdaptive(const Shape& x, const Shape& y, int k, bool fast_kernel)
      : geometry(x, y, k), fast(fast_kernel) {}

  void run(const KernelIO& io) const override {
    const Tensor& x = *io.in[0];
    Tensor& y = *io.out[0];
    if (fast) return adaptive_fast(geometry, x.data<float>(), y.data<float>());
    visit_dtype(x.dtype(), [&](auto zero) {
      using T = decltype(zero);
      if constexpr (std::is_floating_point_v<T>) adaptive_ref_typed<T>(geometry, x.data<T>(), y.data<T>());
      else fail("element type ", dtype_name(x.dtype()), " is not supported");
    });
  }
};

// The "adaptive" kernel (fast) or "ref".
template <bool fast>
Compiled compile_adaptive(const std::shared_ptr<const AdaptivePoolParams>& p, const KernelArgs& a) {
  if (fast && input(a.in, 0).dtype != DType::f32) return Compiled::decline("input 0 is not float32");
  require(input(a.in, 0).concrete() && a.out.at(0).concrete(), "shapes are not known: ",
          to_string(input(a.in, 0).shape), " -> ", to_string(a.out.at(0).shape), " (is output_size a constant?)");
  return std::make_unique<CompiledAdaptive>(a.in[0].shape, a.out[0].shape, p->spatial_rank, fast);
}

}  // namespace

AdaptivePoolParams parse_adaptive_pool(const Node& node, int k) {
  require_inputs(node, 2, 2);
  require_outputs(node, 1, 1);
  require(has_input(node, 1), "input 1 (output_size) is required");
  node.attrs.allow_only({});
  AdaptivePoolParams p;
  p.spatial_rank = k;
  return p;
}

AdaptivePoolParams parse_adaptive_avg_pool1d(const Node& node) { return parse_adaptive_pool(node, 1); }
AdaptivePoolParams parse_adaptive_avg_pool2d(const Node& node) { return parse_adaptive_pool(node, 2); }
AdaptivePoolParams parse_adaptive_avg_pool3d(const Node& node) { return parse_adaptive_pool(node, 3); }

std::vector<ValueInfo> infer_adaptive_pool(const AdaptivePoolParams& p, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32, DType::f64});
  const ValueInfo& x = in[0];
  const int64_t k = p.spatial_rank;
  if (!x.rank_known) return {ValueInfo::unknown(x.dtype)};
  require(x.rank() == k + 1 || x.rank() == k + 2, "input 0 has shape ", to_string(x.shape), "; adaptive_avg_pool",
          k, "d takes [N, C, ", k, " spatial dims] or unbatched [C, ", k, " spatial dims]");
  const size_t lead = size_t(x.rank() - k);
  for (size_t d = lead; d < x.shape.size(); ++d)
    require(x.shape[d] != 0, "input 0 has an empty spatial dim: shape ", to_string(x.shape));
  Shape out(x.shape.begin(), x.shape.begin() + long(lead));
  std::vector<int64_t> sizes;
  if (!output_sizes(p, in, sizes)) {
    out.resize(x.shape.size(), kUnknownDim);
    return {ValueInfo::of(x.dtype, out)};
  }
  for (size_t i = 0; i < sizes.size(); ++i) {
    // Window bounds compute (i + 1) * in + out - 1 <= in * out + out.
    if (x.shape[lead + i] != kUnknownDim)
      checked_add(checked_mul(x.shape[lead + i], sizes[i], "input size x output_size"), sizes[i],
                  "input size x output_size");
    out.push_back(sizes[i]);
  }
  return {ValueInfo::of(x.dtype, out)};
}

Kernel<AdaptivePoolParams> adaptive_pool_kernel() { return {"adaptive", compile_adaptive<true>}; }
Kernel<AdaptivePoolParams> adaptive_pool_ref_kernel() { return {"ref", compile_adaptive<false>}; }

}  // namespace cnnx
