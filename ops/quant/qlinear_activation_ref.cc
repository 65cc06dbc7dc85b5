// com.microsoft QLinearSigmoid and QLinearLeakyRelu: the reference kernel (each of the type's 256 values is
// mapped once, then looked up).
#include <cmath>

#include "ops/quant/qlinear_activation.h"
#include "ops/quant/quantization.h"

namespace cnnx {

void qlinear_activation_ref(const QLinearActivationParams& p, const KernelIO& io) {
  const QuantizedUnaryIO qio = read_quantized_unary(io, "X_scale", "Y_scale");
  const Tensor& X = qio.X;
  Tensor& Y = qio.Y;
  // table[q - qio.range.lo]: the output for input value q.
  Tensor table(Y.dtype(), {qio.range.hi - qio.range.lo + 1});
  for (int64_t q = qio.range.lo; q <= qio.range.hi; ++q) {
    const double r = double(q - qio.x_zero_point) * qio.x_scale;
    const double f = p.leaky_relu ? (r >= 0 ? r : p.alpha * r) : 1.0 / (1.0 + std::exp(-r));
    store_quantized(table, q - qio.range.lo, f / qio.y_scale, qio.y_zero_point, qio.range);
  }
  const size_t size = dtype_size(Y.dtype());
  const auto* t = static_cast<const uint8_t*>(table.raw());
  auto* y = static_cast<uint8_t*>(Y.raw());
  for (int64_t i = 0; i < X.numel(); ++i) {
    const int64_t k = X.int_at(i) - qio.range.lo;
    for (size_t b = 0; b < size; ++b) y[size_t(i) * size + b] = t[size_t(k) * size + b];
  }
}

}  // namespace cnnx
