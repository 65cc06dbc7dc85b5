// LRN: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/norm/lrn.h"

#include <algorithm>
#include <cmath>

namespace cnnx {

void lrn_ref(const LrnParams& p, const KernelIO& io) {
  const Tensor& X = *io.in[0];
  const int64_t N = X.dim(0), C = X.dim(1);
  const int64_t inner = numel_range(X.shape(), 2, X.shape().size());
  const int64_t before = (p.size - 1) / 2;  // floor((size - 1) / 2)
  const int64_t after = p.size / 2;         // ceil((size - 1) / 2)
  const double scale = double(p.alpha) / double(p.size);
  const float* x = X.data<float>();
  float* y = io.out[0]->data<float>();
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c) {
      const int64_t lo = std::max<int64_t>(0, c - before), hi = std::min<int64_t>(C - 1, c + std::min(after, C));
      for (int64_t i = 0; i < inner; ++i) {
        double square_sum = 0;
        for (int64_t k = lo; k <= hi; ++k) {
          const double v = x[(n * C + k) * inner + i];
          square_sum += v * v;
        }
        const int64_t at = (n * C + c) * inner + i;
        y[at] = float(x[at] / std::pow(double(p.bias) + scale * square_sum, double(p.beta)));
      }
    }
}

}  // namespace cnnx
