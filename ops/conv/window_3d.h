// A 1- to 3-D convolution window lifted to 3-D (missing leading axes have extent 1), as the reference kernels of
// Conv and ConvTranspose sweep it: per axis and tap, the span of positions whose tap lands inside the other side.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "engine/shape.h"

namespace cnnx {

// Positions [lo, hi) along one axis.
struct TapSpan {
  int64_t lo = 0, hi = 0;
};

struct Window3D {
  std::array<int64_t, 3> in{}, k{}, s{}, d{}, p{}, out{};
  // spans[a][j]: Conv: the output positions o with 0 <= o * s - p + j * d < in; ConvTranspose (`transposed`):
  // the input positions i with 0 <= i * s - p + j * d < out.
  std::array<std::vector<TapSpan>, 3> spans;

  int64_t in_plane() const { return in[0] * in[1] * in[2]; }
  int64_t out_plane() const { return out[0] * out[1] * out[2]; }
  int64_t taps() const { return k[0] * k[1] * k[2]; }

  // `g` has in, kernel, stride, dilation, pad_begin, out per spatial axis and spatial_rank().
  template <class Geometry>
  Window3D(const Geometry& g, bool transposed) {
    const size_t lift = 3 - g.spatial_rank();
    for (size_t a = 0; a < 3; ++a) {
      const bool real = a >= lift;
      const size_t i = a - lift;
      in[a] = real ? g.in[i] : 1;
      k[a] = real ? g.kernel[i] : 1;
      s[a] = real ? g.stride[i] : 1;
      d[a] = real ? g.dilation[i] : 1;
      p[a] = real ? g.pad_begin[i] : 0;
      out[a] = real ? g.out[i] : 1;
      // Position q of [0, count) with tap j lands at q * s - shift; keep it when inside [0, extent).
      const int64_t count = transposed ? in[a] : out[a], extent = transposed ? out[a] : in[a];
      for (int64_t j = 0; j < k[a]; ++j) {
        const int64_t shift = p[a] - j * d[a];
        TapSpan sp;
        sp.lo = std::max<int64_t>(0, ceil_div(shift, s[a]));
        sp.hi = std::max(sp.lo, std::min<int64_t>(count, floor_div(extent - 1 + shift, s[a]) + 1));
        spans[a].push_back(sp);
      }
    }
  }

  // The direct convolution of one output plane (not transposed): acc[o] += w[c, tap] * x[c, o * s - p + tap * d]
  // over `channels` input channels and every tap that lands inside x. x: the first input channel's plane; w: one
  // output channel's weights [channels, taps]. T: x's and w's element type (float, or int64_t for the integer
  // convolution), Acc: the accumulator's (double, int64_t). Along W the inner loop streams a row; when rows are
  // contiguous in x and acc alike (unit strides, equal row lengths) a tap's rows are one run.
  template <class Acc, class T>
  void accumulate_plane(const T* x, const T* w, int64_t channels, Acc* acc) const {
    const auto [ID, IH, IW] = in;
    const auto [KD, KH, KW] = k;
    const auto [SD, SH, SW] = s;
    const auto [DD, DH, DW] = d;
    const auto [PD, PH, PW] = p;
    const auto [OD, OH, OW] = out;
    const int64_t in_plane = ID * IH * IW, taps = KD * KH * KW;
    const bool rows_contiguous = SW == 1 && SH == 1 && IW == OW;
    for (int64_t c = 0; c < channels; ++c) {
      const T* xc = x + c * in_plane;
      const T* wc = w + c * taps;
      for (int64_t kd = 0; kd < KD; ++kd) {
        const TapSpan sd = spans[0][size_t(kd)];
        for (int64_t kh = 0; kh < KH; ++kh) {
          const TapSpan sh = spans[1][size_t(kh)];
          for (int64_t kw = 0; kw < KW; ++kw) {
            const TapSpan sw = spans[2][size_t(kw)];
            const int64_t len = sw.hi - sw.lo;
            if (len <= 0 || sh.hi <= sh.lo) continue;
            const Acc wv = Acc(wc[(kd * KH + kh) * KW + kw]);
            const int64_t iw0 = sw.lo * SW - PW + kw * DW;
            for (int64_t od = sd.lo; od < sd.hi; ++od) {
              const int64_t id = od * SD - PD + kd * DD;
              if (rows_contiguous && len == OW) {
                const T* xr = xc + (id * IH + sh.lo - PH + kh * DH) * IW + iw0;
                Acc* ar = acc + (od * OH + sh.lo) * OW;
                const int64_t run = (sh.hi - sh.lo) * OW;
                for (int64_t t = 0; t < run; ++t) ar[t] += wv * Acc(xr[t]);
                continue;
              }
              for (int64_t oh = sh.lo; oh < sh.hi; ++oh) {
                const T* xr = xc + (id * IH + oh * SH - PH + kh * DH) * IW + iw0;
                Acc* ar = acc + (od * OH + oh) * OW + sw.lo;
                if (SW == 1) {
                  for (int64_t t = 0; t < len; ++t) ar[t] += wv * Acc(xr[t]);
                } else {
                  for (int64_t t = 0; t < len; ++t) ar[t] += wv * Acc(xr[t * SW]);
                }
              }
            }
          }
        }
      }
    }
  }
};

}  // namespace cnnx
