// RoundToFloat16: the reference kernel (plain, one thread).
#include "ops/tensor/round_to_float16.h"

namespace cnnx {

void round_to_float16_ref(const RoundToFloat16Params& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  round_to_float16(p.to, x.data<float>(), io.out[0]->data<float>(), size_t(x.numel()));
}

}  // namespace cnnx
