// MeanVarianceNormalization: the reference kernel (plain loops; the oracle the op's other kernels are checked
// against).
#include <cmath>

#include "ops/norm/mean_variance_normalization.h"
#include "ops/common/data_movement.h"

namespace cnnx {

void mvn_ref(const MvnParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  const int64_t rank = x.rank();
  std::vector<bool> reduced(size_t(rank), false);
  for (int64_t a : normalize_axes(p.axes, rank, "axes")) reduced[size_t(a)] = true;
  // Each element's group: its index with the reduced axes dropped (row-major over the kept axes).
  std::vector<int64_t> group_stride(size_t(rank), 0);
  int64_t groups = 1;
  for (int64_t d = rank - 1; d >= 0; --d)
    if (!reduced[size_t(d)]) group_stride[size_t(d)] = groups, groups *= x.dim(d);
  const int64_t n = x.numel();
  std::vector<int64_t> group_of(static_cast<size_t>(n));
  std::vector<int64_t> index(size_t(rank), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t g = 0;
    for (int64_t d = 0; d < rank; ++d) g += index[size_t(d)] * group_stride[size_t(d)];
    group_of[size_t(i)] = g;
    for (int64_t d = rank - 1; d >= 0 && ++index[size_t(d)] == x.dim(d); --d) index[size_t(d)] = 0;
  }
  std::vector<double> sum(size_t(groups), 0), squares(size_t(groups), 0), count(size_t(groups), 0);
  const float* in = x.data<float>();
  for (int64_t i = 0; i < n; ++i) {
    const double v = in[i];
    sum[size_t(group_of[size_t(i)])] += v, squares[size_t(group_of[size_t(i)])] += v * v, count[size_t(group_of[size_t(i)])] += 1;
  }
  float* out = io.out[0]->data<float>();
  for (int64_t i = 0; i < n; ++i) {
    const size_t g = size_t(group_of[size_t(i)]);
    const double mean = sum[g] / count[g], variance = squares[g] / count[g] - mean * mean;
    out[i] = float((in[i] - mean) / (std::sqrt(variance) + 1e-9));
  }
}

}  // namespace cnnx
