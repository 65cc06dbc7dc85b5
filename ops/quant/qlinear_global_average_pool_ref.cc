// com.microsoft QLinearGlobalAveragePool: the reference kernel (exact int64 sums per (n, c), one multiplication).
#include "ops/quant/qlinear_global_average_pool.h"
#include "ops/quant/quantization.h"

namespace cnnx {

void qlinear_global_average_pool_ref(const QLinearGlobalAveragePoolParams& p, const KernelIO& io) {
  auto in = [&](size_t i) { return i < io.in.size() ? io.in[i] : nullptr; };
  const Tensor& X = *io.in[0];
  const QuantParams xq = read_quant_params(*io.in[1], in(2), "x_scale");
  const QuantParams yq = read_quant_params(*io.in[3], in(4), "y_scale");
  Tensor& Y = *io.out[0];
  const QuantRange range = quant_range(Y.dtype());
  const Shape& s = X.shape();
  const int64_t N = s[0], C = p.channels_last ? s.back() : s[1];
  const int64_t cells = p.channels_last ? numel_range(s, 1, s.size() - 1) : numel_range(s, 2, s.size());
  const double multiplier = xq.scale_at(0) / yq.scale_at(0) / double(cells);
  const int64_t zx = xq.zero_point_at(0);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c) {
      int64_t sum = 0;
      for (int64_t k = 0; k < cells; ++k)
        sum += X.int_at(p.channels_last ? (n * cells + k) * C + c : (n * C + c) * cells + k) - zx;
      store_quantized(Y, n * C + c, cells ? double(sum) * multiplier : 0.0, yq.zero_point_at(0), range);
    }
}

}  // namespace cnnx
