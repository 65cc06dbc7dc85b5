// ConvInteger: the reference kernel (ops/quant/integer_conv.h's exact sums, stored as int32).
#include "ops/quant/conv_integer.h"
#include "ops/quant/integer_conv.h"

namespace cnnx {

void conv_integer_ref(const ConvIntegerParams& p, const KernelIO& io) {
  const Tensor& X = *io.in[0];
  const Tensor& W = *io.in[1];
  const Tensor* xz = io.optional_in(2);
  const Tensor* wz = io.optional_in(3);
  const ConvGeometry g = resolve_conv_geometry(p.conv, {ValueInfo::of(X.dtype(), X.shape()), ValueInfo::of(W.dtype(), W.shape())});
  std::vector<int64_t> w_zp{0};
  if (wz) {
    w_zp.assign(size_t(wz->numel()), 0);
    for (int64_t i = 0; i < wz->numel(); ++i) w_zp[size_t(i)] = wz->int_at(i);
  }
  require(w_zp.size() == 1 || int64_t(w_zp.size()) == g.M, "w_zero_point has ", w_zp.size(), " values; W has ", g.M,
          " output channels");
  const std::vector<int64_t> acc = integer_conv(X, W, g, xz ? xz->int_at(0) : 0, w_zp);
  int32_t* y = io.out[0]->data<int32_t>();
  for (size_t i = 0; i < acc.size(); ++i) y[i] = int32_t(uint32_t(uint64_t(acc[i])));
}

}  // namespace cnnx
