// DynamicQuantizeLinear: the reference kernel (one pass for the range, one to quantize).
#include <algorithm>
#include <cmath>

#include "ops/quant/dynamic_quantize_linear.h"
#include "ops/quant/quantization.h"

namespace cnnx {

void dynamic_quantize_linear_ref(const NoParams&, const KernelIO& io) {
  const Tensor& X = *io.in[0];
  const float* x = X.data<float>();
  float lo = 0, hi = 0;
  for (int64_t i = 0; i < X.numel(); ++i) {
    if (std::isnan(x[i])) continue;
    lo = std::min(lo, x[i]);
    hi = std::max(hi, x[i]);
  }
  const float scale = float((double(hi) - double(lo)) / 255.0);
  int64_t zero_point = 0;
  if (scale > 0 && std::isfinite(scale)) {
    const double z = 0 - double(lo) / double(scale);
    zero_point = std::isfinite(z) ? saturate_plus(round_half_even(z), 0, 0, 255) : 0;
  }
  io.out[1]->data<float>()[0] = scale;
  io.out[2]->data<uint8_t>()[0] = uint8_t(zero_point);
  Tensor& Y = *io.out[0];
  const QuantRange range{0, 255};
  for (int64_t i = 0; i < X.numel(); ++i) {
    if (scale > 0) store_quantized(Y, i, double(x[i] / scale), zero_point, range);
    else Y.data<uint8_t>()[i] = uint8_t(zero_point);
  }
}

}  // namespace cnnx
