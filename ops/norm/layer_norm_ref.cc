// LayerNormalization: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/norm/layer_norm.h"

#include <cmath>

#include "ops/common/broadcast.h"

namespace cnnx {

void layer_norm_ref(const LayerNormParams& p, const KernelIO& io) {
  const Tensor& X = *io.in[0];
  const Shape& shape = X.shape();
  const size_t a = layer_norm_axis(p.axis, shape.size());
  const int64_t rows = numel_range(shape, 0, a), cols = numel_range(shape, a, shape.size());
  const float* x = X.data<float>();
  std::vector<double> mean(static_cast<size_t>(rows)), inv(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = x + r * cols;
    double sum = 0, sq = 0;
    for (int64_t i = 0; i < cols; ++i) sum += row[i];
    const double m = cols ? sum / double(cols) : 0;
    for (int64_t i = 0; i < cols; ++i) sq += (row[i] - m) * (row[i] - m);
    const double var = cols ? sq / double(cols) : 0;
    mean[size_t(r)] = m;
    inv[size_t(r)] = 1 / std::sqrt(var + double(p.epsilon));
  }
  const Tensor& S = *io.in[1];
  const Tensor* B = io.optional_in(2);
  const float* s = S.data<float>();
  const float* b = B ? B->data<float>() : nullptr;
  float* y = io.out[0]->data<float>();
  const std::vector<std::vector<int64_t>> strides{broadcast_strides(S.shape(), shape),
                                                  broadcast_strides(B ? B->shape() : S.shape(), shape)};
  for_each_broadcast<2>(shape, strides, [&](int64_t o, const int64_t* off) {
    const size_t r = size_t(o / cols);
    const double z = (x[o] - mean[r]) * inv[r] * double(s[off[0]]);
    y[o] = float(b ? z + double(b[off[1]]) : z);
  });
  if (io.out.size() > 1 && io.out[1])
    for (int64_t r = 0; r < rows; ++r) io.out[1]->data<float>()[r] = float(mean[size_t(r)]);
  if (io.out.size() > 2 && io.out[2])
    for (int64_t r = 0; r < rows; ++r) io.out[2]->data<float>()[r] = float(inv[size_t(r)]);
}

}  // namespace cnnx
