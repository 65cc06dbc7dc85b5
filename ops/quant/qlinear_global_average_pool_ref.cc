// com.microsoft QLinearGlobalAveragePool: the reference kernel (exact int64 sums per (n, c), one multiplication).
#include "ops/quant/qlinear_global_average_pool.h"
#include "ops/quant/quantization.h"

namespace cnnx {

void qlinear_global_average_pool_ref(const QLinearGlobalAveragePoolParams& p, const KernelIO& io) {
  const QuantizedUnaryIO qio = read_quantized_unary(io, "x_scale", "y_scale");
  const Shape& s = qio.X.shape();
  const int64_t N = s[0], C = p.channels_last ? s.back() : s[1];
  const int64_t cells = p.channels_last ? numel_range(s, 1, s.size() - 1) : numel_range(s, 2, s.size());
  const double multiplier = qio.x_scale / qio.y_scale / double(cells);
  const int64_t zx = qio.x_zero_point;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c) {
      int64_t sum = 0;
      for (int64_t k = 0; k < cells; ++k)
        sum += qio.X.int_at(p.channels_last ? (n * cells + k) * C + c : (n * C + c) * cells + k) - zx;
      store_quantized(qio.Y, n * C + c, cells ? double(sum) * multiplier : 0.0, qio.y_zero_point, qio.range);
    }
}

}  // namespace cnnx
