// BatchNormalization: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/norm/batch_norm.h"

#include <cmath>

namespace cnnx {

void batch_norm_ref(const BatchNormParams& p, const KernelIO& io) {
  const Tensor& X = *io.in[0];
  const int64_t N = X.dim(0);
  // spatial = 0: every activation (c, d1, ..., dn) is a channel of its own, with inner size 1.
  const int64_t C = X.rank() == 1 ? 1 : p.spatial ? X.dim(1) : numel_range(X.shape(), 1, X.shape().size());
  const int64_t inner = p.spatial ? numel_range(X.shape(), 2, X.shape().size()) : 1;
  const float* x = X.data<float>();
  const float* scale = io.in[1]->data<float>();
  const float* B = io.in[2]->data<float>();
  const float* mean_in = io.in[3]->data<float>();
  const float* var_in = io.in[4]->data<float>();
  float* y = io.out[0]->data<float>();
  for (int64_t c = 0; c < C; ++c) {
    double mean = mean_in[c], var = var_in[c];
    if (p.training) {
      // Batch mean and population variance (divide by n, not n - 1), two passes in double.
      const double n = double(N) * double(inner);
      double sum = 0, sq = 0;
      for (int64_t b = 0; b < N; ++b)
        for (int64_t i = 0; i < inner; ++i) sum += x[(b * C + c) * inner + i];
      mean = sum / n;
      for (int64_t b = 0; b < N; ++b)
        for (int64_t i = 0; i < inner; ++i) {
          double d = x[(b * C + c) * inner + i] - mean;
          sq += d * d;
        }
      var = sq / n;
      const double m = p.momentum;
      if (io.out.size() > 1 && io.out[1]) io.out[1]->data<float>()[c] = float(mean_in[c] * m + mean * (1 - m));
      if (io.out.size() > 2 && io.out[2]) io.out[2]->data<float>()[c] = float(var_in[c] * m + var * (1 - m));
    }
    const double a = scale[c] / std::sqrt(var + double(p.epsilon));
    for (int64_t b = 0; b < N; ++b) {
      const int64_t base = (b * C + c) * inner;
      for (int64_t i = 0; i < inner; ++i) y[base + i] = float((x[base + i] - mean) * a + B[c]);
      if (p.then_relu)  // ONNX Relu: max(0, y), NaN kept
        for (int64_t i = 0; i < inner; ++i) y[base + i] = y[base + i] < 0 ? 0.f : y[base + i];
    }
  }
}

}  // namespace cnnx
