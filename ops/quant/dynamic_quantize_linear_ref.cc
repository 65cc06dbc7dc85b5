// DynamicQuantizeLinear: the reference kernel (one pass for the range, one to quantize).
#include <algorithm>
#include <cmath>

#include "ops/quant/dynamic_quantize_linear.h"
#include "ops/quant/quantization.h"

namespace cnnx {

DynamicQuantization dynamic_quantize(const float* x, int64_t n, uint8_t* y) {
  float lo = 0, hi = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(x[i])) continue;
    lo = std::min(lo, x[i]);
    hi = std::max(hi, x[i]);
  }
  DynamicQuantization q;
  q.scale = float((double(hi) - double(lo)) / 255.0);
  if (q.scale > 0 && std::isfinite(q.scale)) {
    const double z = 0 - double(lo) / double(q.scale);
    q.zero_point = uint8_t(std::isfinite(z) ? saturate_plus(round_half_even(z), 0, 0, 255) : 0);
  }
  for (int64_t i = 0; i < n; ++i) {
    if (!(q.scale > 0)) {
      y[i] = q.zero_point;
      continue;
    }
    const float r = x[i] / q.scale;  // one float32 division, as QuantizeLinear
    y[i] = uint8_t(saturate_plus(std::isfinite(r) ? round_half_even(double(r)) : double(r), q.zero_point, 0, 255));
  }
  return q;
}

void dynamic_quantize_linear_ref(const NoParams&, const KernelIO& io) {
  const Tensor& X = *io.in[0];
  const DynamicQuantization q = dynamic_quantize(X.data<float>(), X.numel(), io.out[0]->data<uint8_t>());
  io.out[1]->data<float>()[0] = q.scale;
  io.out[2]->data<uint8_t>()[0] = q.zero_point;
}

}  // namespace cnnx
