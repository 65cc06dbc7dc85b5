// The exact integer convolution: direct loops over NCHW (1-D and 2-D run as 3-D with leading extent-1 axes,
// ops/conv/window_3d.h), each tap's in-bounds output positions precomputed as Conv's reference kernel does.
#include "ops/quant/integer_conv.h"

#include "ops/conv/window_3d.h"

namespace cnnx {

std::vector<int64_t> integer_conv(const Tensor& X, const Tensor& W, const ConvGeometry& g, int64_t x_zp,
                                  const std::vector<int64_t>& w_zp) {
  const Window3D win(g, false);
  const auto [ID, IH, IW] = win.in;
  const auto [KD, KH, KW] = win.k;
  const auto [SD, SH, SW] = win.s;
  const auto [DD, DH, DW] = win.d;
  const auto [PD, PH, PW] = win.p;
  const auto [OD, OH, OW] = win.out;
  const int64_t in_plane = ID * IH * IW, out_plane = OD * OH * OW, taps = KD * KH * KW;
  const int64_t Cg = g.C_per_group, Mg = g.M_per_group;
  std::vector<int64_t> x(size_t(X.numel())), w(size_t(W.numel()));
  for (int64_t i = 0; i < X.numel(); ++i) x[size_t(i)] = X.int_at(i) - x_zp;
  for (int64_t i = 0; i < W.numel(); ++i) w[size_t(i)] = W.int_at(i) - w_zp[w_zp.size() > 1 ? size_t(i / (Cg * taps)) : 0];
  // Per (n, m, c, tap): the output positions whose tap lands inside X (Window3D's spans) add w * x along a row.
  std::vector<int64_t> acc(size_t(g.N * g.M * out_plane), 0);
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t m = 0; m < g.M; ++m) {
      const int64_t group = m / Mg;
      int64_t* out = acc.data() + (n * g.M + m) * out_plane;
      for (int64_t c = 0; c < Cg; ++c) {
        const int64_t* xc = x.data() + (n * g.C + group * Cg + c) * in_plane;
        const int64_t* wc = w.data() + (m * Cg + c) * taps;
        for (int64_t kd = 0; kd < KD; ++kd) {
          const TapSpan sd = win.spans[0][size_t(kd)];
          for (int64_t kh = 0; kh < KH; ++kh) {
            const TapSpan sh = win.spans[1][size_t(kh)];
            for (int64_t kw = 0; kw < KW; ++kw) {
              const TapSpan sw = win.spans[2][size_t(kw)];
              const int64_t wv = wc[(kd * KH + kh) * KW + kw];
              if (wv == 0) continue;
              for (int64_t od = sd.lo; od < sd.hi; ++od) {
                const int64_t id = od * SD - PD + kd * DD;
                for (int64_t oh = sh.lo; oh < sh.hi; ++oh) {
                  const int64_t ih = oh * SH - PH + kh * DH;
                  const int64_t* xr = xc + (id * IH + ih) * IW + (sw.lo * SW - PW + kw * DW);
                  int64_t* ar = out + (od * OH + oh) * OW;
                  for (int64_t ow = sw.lo; ow < sw.hi; ++ow) ar[ow] += wv * xr[(ow - sw.lo) * SW];
                }
              }
            }
          }
        }
      }
    }
  return acc;
}

}  // namespace cnnx
