// RoundToFloat16: the reference kernel (plain, one thread): each element through engine/float16.h's scalar
// conversions, the oracle for round_to_float16's vector forms.
#include "ops/cast/round_to_float16.h"

#include "engine/float16.h"

namespace cnnx {

void round_to_float16_ref(const RoundToFloat16Params& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  const float* src = x.data<float>();
  float* dst = io.out[0]->data<float>();
  for (int64_t i = 0; i < x.numel(); ++i)
    dst[i] = p.to == DType::f16 ? float16_to_float(float_to_float16(src[i]))
                                : bfloat16_to_float(float_to_bfloat16(src[i]));
}

}  // namespace cnnx
