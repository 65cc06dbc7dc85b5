// GridSample: the reference kernel (coordinates in float, weights and sums in double; PyTorch's grid_sampler_2d).
#include <cmath>

#include "ops/resize/grid_sample.h"

namespace cnnx {

namespace {

// Coordinates are computed in float, as PyTorch's grid_sampler_2d and ONNX Runtime do: nearest then picks the
// same cell where a coordinate lands on a half only through float rounding (x = 0.2 on 5 cells is 2.5 in float,
// 2.50000001 in double).

// Reflects x into [low2 / 2, high2 / 2] (twice the bounds, as PyTorch's reflect_coordinates).
float reflect(float x, float low2, float high2) {
  if (low2 == high2) return 0;
  const float lo = low2 / 2, span = (high2 - low2) / 2;
  x = std::fabs(x - lo);
  const float extra = std::fmod(x, span);
  const int64_t flips = int64_t(std::fmin(std::floor(x / span), 1e9f));
  return flips % 2 == 0 ? lo + extra : lo + span - extra;
}

struct Axis {
  int64_t size;
  const GridSampleParams& p;
  // The normalized coordinate in cells.
  float unnormalize(float g) const {
    return p.align_corners ? (g + 1) / 2 * float(size - 1) : ((g + 1) * float(size) - 1) / 2;
  }
  // A coordinate moved inside by border or reflection padding (zeros leaves it).
  float pad(float x) const {
    if (p.padding == GridSamplePadding::zeros) return x;
    if (p.padding == GridSamplePadding::reflection)
      x = p.align_corners ? reflect(x, 0, 2 * float(size - 1)) : reflect(x, -1, 2 * float(size) - 1);
    return std::fmin(float(size - 1), std::fmax(x, 0.f));
  }
  bool inside(int64_t i) const { return i >= 0 && i < size; }
  // A whole coordinate as an index: far outside (or a huge grid value) becomes a few cells outside, where
  // it and its neighbours read 0, without converting an out-of-range double.
  int64_t cell(double whole) const { return int64_t(std::fmax(-4.0, std::fmin(whole, double(size) + 4))); }
};

// Cubic convolution weights of the taps at floor(x) - 1 ... floor(x) + 2 for t = x - floor(x) (A = -0.75).
void cubic_weights(double t, double w[4]) {
  const double A = -0.75;
  auto near = [&](double d) { return ((A + 2) * d - (A + 3)) * d * d + 1; };
  auto far = [&](double d) { return ((A * d - 5 * A) * d + 8 * A) * d - 4 * A; };
  w[0] = far(t + 1), w[1] = near(t), w[2] = near(1 - t), w[3] = far(2 - t);
}

}  // namespace

void grid_sample_ref(const GridSampleParams& p, const KernelIO& io) {
  const Tensor& X = *io.in[0];
  const Tensor& grid = *io.in[1];
  Tensor& Y = *io.out[0];
  const int64_t N = X.dim(0), C = X.dim(1), H = X.dim(2), W = X.dim(3), Ho = grid.dim(1), Wo = grid.dim(2);
  require(grid.dim(0) == N && Y.dim(2) == Ho && Y.dim(3) == Wo, "X and grid disagree on the batch");
  const Axis ax{W, p}, ay{H, p};
  const float* x = X.data<float>();
  const float* g = grid.data<float>();
  float* y = Y.data<float>();
  for (int64_t n = 0; n < N; ++n)
    for (int64_t oh = 0; oh < Ho; ++oh)
      for (int64_t ow = 0; ow < Wo; ++ow) {
        const float* at = g + ((n * Ho + oh) * Wo + ow) * 2;
        const float gx = ax.unnormalize(at[0]), gy = ay.unnormalize(at[1]);
        for (int64_t c = 0; c < C; ++c) {
          const float* plane = x + (n * C + c) * H * W;
          auto tap = [&](int64_t i, int64_t j) { return ay.inside(i) && ax.inside(j) ? double(plane[i * W + j]) : 0.0; };
          double v = 0;
          if (p.mode == GridSampleMode::nearest) {
            const float px = ax.pad(gx), py = ay.pad(gy);
            if (std::isfinite(px) && std::isfinite(py)) v = tap(ay.cell(std::nearbyint(py)), ax.cell(std::nearbyint(px)));
          } else if (p.mode == GridSampleMode::bilinear) {
            const float px = ax.pad(gx), py = ay.pad(gy);
            if (std::isfinite(px) && std::isfinite(py)) {
              const double fx = std::floor(px), fy = std::floor(py), tx = double(px) - fx, ty = double(py) - fy;
              const int64_t j = ax.cell(fx), i = ay.cell(fy);
              v = (1 - ty) * ((1 - tx) * tap(i, j) + tx * tap(i, j + 1)) + ty * ((1 - tx) * tap(i + 1, j) + tx * tap(i + 1, j + 1));
            }
          } else if (std::isfinite(gx) && std::isfinite(gy)) {  // bicubic: each tap padded on its own
            const float fx = std::floor(gx), fy = std::floor(gy);
            double wx[4], wy[4];
            cubic_weights(gx - fx, wx);
            cubic_weights(gy - fy, wy);
            for (int r = 0; r < 4; ++r)
              for (int s = 0; s < 4; ++s) {
                const float ty = ay.pad(fy - 1 + float(r)), tx = ax.pad(fx - 1 + float(s));
                v += wy[r] * wx[s] * tap(ay.cell(std::floor(ty)), ax.cell(std::floor(tx)));
              }
          }
          y[((n * C + c) * Ho + oh) * Wo + ow] = float(v);
        }
      }
}

}  // namespace cnnx
