// GroupNormalization and InstanceNormalization: the reference kernel (plain loops; the oracle the op's other kernels
// are checked against).
#include "ops/norm/group_norm.h"

#include <cmath>

namespace cnnx {

void group_norm_ref(const GroupNormParams& p, const KernelIO& io) {
  const Tensor& X = *io.in[0];
  const int64_t N = X.dim(0), C = X.dim(1), G = group_count(p, C);
  if (G == 0) return;  // InstanceNormalization of zero channels: Y is empty
  const int64_t per_group = C / G, inner = numel_range(X.shape(), 2, X.shape().size());
  const int64_t block = per_group * inner;
  const float* x = X.data<float>();
  const float* scale = io.in[1]->data<float>();
  const float* B = io.in[2]->data<float>();
  float* y = io.out[0]->data<float>();
  for (int64_t n = 0; n < N; ++n)
    for (int64_t g = 0; g < G; ++g) {
      const int64_t base = (n * G + g) * block;
      double sum = 0, sq = 0;
      for (int64_t i = 0; i < block; ++i) sum += x[base + i];
      const double mean = block ? sum / double(block) : 0;
      for (int64_t i = 0; i < block; ++i) sq += (x[base + i] - mean) * (x[base + i] - mean);
      const double var = block ? sq / double(block) : 0;
      const double inv = 1 / std::sqrt(var + double(p.epsilon));
      // GroupNormalization-18: one scale and bias per group; InstanceNormalization: per channel = per group.
      const double s = scale[g], b = B[g];
      for (int64_t i = 0; i < block; ++i) y[base + i] = float((x[base + i] - mean) * inv * s + b);
    }
}

}  // namespace cnnx
