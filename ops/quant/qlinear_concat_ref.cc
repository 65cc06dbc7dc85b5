// com.microsoft QLinearConcat: the reference kernel (per input, per block of the axis, requantize each element).
#include "ops/quant/qlinear_concat.h"
#include "ops/quant/quantization.h"

namespace cnnx {

void qlinear_concat_ref(const QLinearConcatParams& p, const KernelIO& io) {
  const QuantParams yq = read_quant_params(io, 0, "Y_scale");
  Tensor& Y = *io.out[0];
  const QuantRange range = quant_range(Y.dtype());
  const Shape& ys = Y.shape();
  const int64_t axis = normalize_axis(p.axis, int64_t(ys.size()), "attribute 'axis'");
  const int64_t outer = numel_range(ys, 0, size_t(axis)), y_block = numel_range(ys, size_t(axis), ys.size());
  int64_t begin = 0;  // where the current input's block starts in each output block
  for (size_t i = 2; i < io.in.size(); i += 3) {
    const Tensor& X = *io.in[i];
    const QuantParams xq = read_quant_params(io, i + 1, "X_scale");
    const int64_t block = numel_range(X.shape(), size_t(axis), X.shape().size());
    const double sx = xq.scale_at(0), sy = yq.scale_at(0);
    const int64_t zx = xq.zero_point_at(0);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < block; ++k)
        store_quantized(Y, o * y_block + begin + k, double(X.int_at(o * block + k) - zx) * sx / sy,
                        yq.zero_point_at(0), range);
    begin += block;
  }
}

}  // namespace cnnx
