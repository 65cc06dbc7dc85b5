// LpNormalization: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include <cmath>

#include "ops/norm/lp_normalization.h"

namespace cnnx {

void lp_norm_ref(const LpNormParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  const int64_t axis = normalize_axis(p.axis, x.rank(), "axis"), len = x.dim(axis);
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < x.rank(); ++d) inner *= x.dim(d);
  const int64_t outer = len * inner ? x.numel() / (len * inner) : 0;
  const float* in = x.data<float>();
  float* out = io.out[0]->data<float>();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * len * inner + i;
      double norm = 0;
      for (int64_t k = 0; k < len; ++k) {
        const double v = in[base + k * inner];
        norm += p.p == 1 ? std::fabs(v) : v * v;
      }
      if (p.p == 2) norm = std::sqrt(norm);
      for (int64_t k = 0; k < len; ++k) out[base + k * inner] = float(in[base + k * inner] / norm);
    }
}

}  // namespace cnnx
