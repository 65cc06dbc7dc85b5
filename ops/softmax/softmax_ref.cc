// Softmax, LogSoftmax and Hardmax: the reference kernel (plain loops; the oracle the op's other kernels are checked
// against).
#include "ops/softmax/softmax.h"

#include <cmath>
#include <limits>

namespace cnnx {

void softmax_ref(const SoftmaxParams& p, const KernelIO& io) {
  const Tensor& X = *io.in[0];
  const size_t axis = size_t(normalize_axis(p.axis, X.rank(), "axis"));
  const size_t rank = X.shape().size();
  // Rows of `len` elements `inner` apart; the 2-D view of old opsets is one row per outer index.
  const int64_t outer = numel_range(X.shape(), 0, axis);
  const int64_t len = numel_range(X.shape(), axis, p.coerce_2d ? rank : axis + 1);
  const int64_t inner = p.coerce_2d ? 1 : numel_range(X.shape(), axis + 1, rank);
  const float* x = X.data<float>();
  float* y = io.out[0]->data<float>();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      const float* xr = x + o * len * inner + i;
      float* yr = y + o * len * inner + i;
      if (p.kind == SoftmaxKind::hardmax) {
        int64_t best = 0;  // the first maximum, or the first NaN
        for (int64_t k = 0; k < len; ++k) {
          const float v = xr[k * inner], b = xr[best * inner];
          if (std::isnan(b)) break;
          if (std::isnan(v) || v > b) best = k;
        }
        for (int64_t k = 0; k < len; ++k) yr[k * inner] = k == best ? 1.f : 0.f;
        continue;
      }
      double max = -std::numeric_limits<double>::infinity();
      for (int64_t k = 0; k < len; ++k) {
        const double v = xr[k * inner];
        if (std::isnan(v)) { max = v; break; }  // NaN propagates to the whole row
        if (v > max) max = v;
      }
      double sum = 0;
      for (int64_t k = 0; k < len; ++k) sum += std::exp(double(xr[k * inner]) - max);
      if (p.kind == SoftmaxKind::log_softmax) {
        const double log_sum = std::log(sum);
        for (int64_t k = 0; k < len; ++k) yr[k * inner] = float(double(xr[k * inner]) - max - log_sum);
        continue;
      }
      for (int64_t k = 0; k < len; ++k) yr[k * inner] = float(std::exp(double(xr[k * inner]) - max) / sum);
    }
}

}  // namespace cnnx
