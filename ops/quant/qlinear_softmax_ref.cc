// com.microsoft QLinearSoftmax: the reference kernel (per row, the max subtracted, exp and sum in double).
#include <algorithm>
#include <cmath>

#include "ops/quant/qlinear_softmax.h"
#include "ops/quant/quantization.h"

namespace cnnx {

void qlinear_softmax_ref(const QLinearSoftmaxParams& p, const KernelIO& io) {
  const QuantizedUnaryIO qio = read_quantized_unary(io, "X_scale", "y_scale");
  const Shape& s = qio.X.shape();
  const size_t axis = size_t(normalize_axis(p.axis, int64_t(s.size()), "attribute 'axis'"));
  // Rows of `len` elements `inner` apart: opset 13+ one axis; before, every axis from `axis` on (inner 1).
  const int64_t outer = numel_range(s, 0, axis);
  const int64_t len = p.coerce_2d ? numel_range(s, axis, s.size()) : s[axis];
  const int64_t inner = p.coerce_2d ? 1 : numel_range(s, axis + 1, s.size());
  std::vector<double> e(static_cast<size_t>(len));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * len * inner + i;
      // The zero point cancels (softmax is unchanged by a shift of its inputs); so does the row's max.
      int64_t top = qio.range.lo;
      for (int64_t j = 0; j < len; ++j) top = std::max(top, qio.X.int_at(base + j * inner));
      double sum = 0;
      for (int64_t j = 0; j < len; ++j) {
        e[size_t(j)] = std::exp(double(qio.X.int_at(base + j * inner) - top) * qio.x_scale);
        sum += e[size_t(j)];
      }
      for (int64_t j = 0; j < len; ++j)
        store_quantized(qio.Y, base + j * inner, e[size_t(j)] / sum / qio.y_scale, qio.y_zero_point, qio.range);
    }
}

}  // namespace cnnx
