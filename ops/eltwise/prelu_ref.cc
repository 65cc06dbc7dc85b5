// PRelu: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/eltwise/prelu.h"

#include "ops/common/broadcast.h"

namespace cnnx {

void prelu_ref(const PReluParams& p, const KernelIO& io) {
  const Tensor& X = *io.in[0];
  const Tensor S = io.in[1]->reshaped(slope_shape(p, X.shape(), io.in[1]->shape()));
  const float* x = X.data<float>();
  const float* s = S.data<float>();
  float* y = io.out[0]->data<float>();
  for_each_broadcast<2>(X.shape(), {broadcast_strides(X.shape(), X.shape()), broadcast_strides(S.shape(), X.shape())},
                        [&](int64_t o, const int64_t* off) {
                          const float v = x[off[0]];
                          y[o] = v < 0 ? s[off[1]] * v : v;
                        });
}

}  // namespace cnnx
