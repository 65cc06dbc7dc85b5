// The exact integer convolution: direct loops over NCHW (1-D and 2-D run as 3-D with leading extent-1 axes,
// ops/conv/window_3d.h), the loop Conv's reference kernel runs (Window3D::accumulate_plane) on int64 values.
#include "ops/quant/integer_conv.h"

#include "ops/conv/window_3d.h"

namespace cnnx {

std::vector<int64_t> integer_conv(const Tensor& X, const Tensor& W, const ConvGeometry& g, int64_t x_zp,
                                  const std::vector<int64_t>& w_zp) {
  const Window3D win(g, false);
  const int64_t in_plane = win.in_plane(), out_plane = win.out_plane(), taps = win.taps();
  const int64_t Cg = g.C_per_group, Mg = g.M_per_group;
  std::vector<int64_t> x(size_t(X.numel())), w(size_t(W.numel()));
  for (int64_t i = 0; i < X.numel(); ++i) x[size_t(i)] = X.int_at(i) - x_zp;
  for (int64_t i = 0; i < W.numel(); ++i) w[size_t(i)] = W.int_at(i) - w_zp[w_zp.size() > 1 ? size_t(i / (Cg * taps)) : 0];
  std::vector<int64_t> acc(size_t(g.N * g.M * out_plane), 0);
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t m = 0; m < g.M; ++m)
      win.accumulate_plane(x.data() + (n * g.C + m / Mg * Cg) * in_plane, w.data() + m * Cg * taps, Cg,
                           acc.data() + (n * g.M + m) * out_plane);
  return acc;
}

}  // namespace cnnx
