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
};

}  // namespace cnnx
