// QLinearConv: the reference kernel (exact integer sums, ops/quant/integer_conv.h, then one double
// multiplication and one rounding per output).
#include <algorithm>

#include "ops/quant/integer_conv.h"
#include "ops/quant/qlinear_conv.h"
#include "ops/quant/quantization.h"

namespace cnnx {

void qlinear_conv_ref(const QLinearConvParams& p, const KernelIO& io) {
  const Tensor& X = *io.in[0];
  const Tensor& W = *io.in[3];
  const ConvGeometry g = resolve_conv_geometry(p.conv, {ValueInfo::of(X.dtype(), X.shape()), ValueInfo::of(W.dtype(), W.shape())});
  const QuantParams xq = read_quant_params(io, 1, "x_scale");
  const QuantParams wq = read_quant_params(io, 4, "w_scale");
  const QuantParams yq = read_quant_params(io, 6, "y_scale");
  require(!wq.per_axis() || int64_t(wq.scale.size()) == g.M, "w_scale has ", wq.scale.size(), " values; W has ", g.M,
          " output channels");
  const Tensor* B = io.optional_in(8);
  require(!B || B->numel() == g.M, "B has ", B ? B->numel() : 0, " values; W has ", g.M, " output channels");
  const std::vector<int64_t> acc = integer_conv(X, W, g, xq.zero_point_at(0), wq.zero_point);
  Tensor& Y = *io.out[0];
  QuantRange range = quant_range(Y.dtype());
  // FusedQLinearConv's clamp: saturating to the narrower range is clamping after saturation.
  range = {std::max(range.lo, p.y_min), std::min(range.hi, p.y_max)};
  const int64_t plane = int64_t(acc.size()) / std::max<int64_t>(1, g.N * g.M);
  for (int64_t i = 0; i < int64_t(acc.size()); ++i) {
    const int64_t m = (i / plane) % g.M;
    const double multiplier = xq.scale_at(0) * wq.scale_at(m) / yq.scale_at(0);
    const int64_t sum = acc[size_t(i)] + (B ? int64_t(B->data<int32_t>()[m]) : 0);
    store_quantized(Y, i, double(sum) * multiplier, yq.zero_point_at(0), range);
  }
}

}  // namespace cnnx
