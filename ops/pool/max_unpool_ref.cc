// MaxUnpool: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/pool/max_unpool.h"

namespace cnnx {

void max_unpool_ref(const MaxUnpoolParams&, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  const Tensor& indices = *io.in[1];
  Tensor& y = *io.out[0];
  require(indices.numel() == x.numel(), "I has ", indices.numel(), " elements; X has ", x.numel());
  const float* from = x.data<float>();
  const int64_t* at = indices.data<int64_t>();
  float* to = y.data<float>();  // zero-filled
  for (int64_t i = 0, n = x.numel(), size = y.numel(); i < n; ++i) {
    require(at[i] >= 0 && at[i] < size, "I[", i, "] is ", at[i], "; the output has ", size, " elements");
    to[at[i]] = from[i];
  }
}

}  // namespace cnnx
