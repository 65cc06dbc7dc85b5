// com.microsoft QLinearSigmoid and QLinearLeakyRelu: the reference kernel (each of the type's 256 values is
// mapped once, then looked up).
#include <cmath>

#include "ops/quant/qlinear_activation.h"
#include "ops/quant/quantization.h"

namespace cnnx {

void qlinear_activation_ref(const QLinearActivationParams& p, const KernelIO& io) {
  auto in = [&](size_t i) { return i < io.in.size() ? io.in[i] : nullptr; };
  const Tensor& X = *io.in[0];
  const QuantParams xq = read_quant_params(*io.in[1], in(2), "X_scale");
  const QuantParams yq = read_quant_params(*io.in[3], in(4), "Y_scale");
  Tensor& Y = *io.out[0];
  const QuantRange range = quant_range(Y.dtype());
  // table[q - range.lo]: the output for input value q.
  Tensor table(Y.dtype(), {range.hi - range.lo + 1});
  for (int64_t q = range.lo; q <= range.hi; ++q) {
    const double r = double(q - xq.zero_point_at(0)) * xq.scale_at(0);
    const double f = p.leaky_relu ? (r >= 0 ? r : p.alpha * r) : 1.0 / (1.0 + std::exp(-r));
    store_quantized(table, q - range.lo, f / yq.scale_at(0), yq.zero_point_at(0), range);
  }
  const size_t size = dtype_size(Y.dtype());
  const auto* t = static_cast<const uint8_t*>(table.raw());
  auto* y = static_cast<uint8_t*>(Y.raw());
  for (int64_t i = 0; i < X.numel(); ++i) {
    const int64_t k = X.int_at(i) - range.lo;
    for (size_t b = 0; b < size; ++b) y[size_t(i) * size + b] = t[size_t(k) * size + b];
  }
}

}  // namespace cnnx
