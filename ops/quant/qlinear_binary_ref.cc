// com.microsoft QLinearAdd and QLinearMul: the reference kernel (one broadcast loop, real values in double).
#include <algorithm>

#include "ops/common/broadcast.h"
#include "ops/quant/qlinear_binary.h"
#include "ops/quant/quantization.h"

namespace cnnx {

void qlinear_binary_ref(const QLinearBinaryParams& p, const KernelIO& io) {
  const Tensor& A = *io.in[0];
  const Tensor& B = *io.in[3];
  const QuantParams aq = read_quant_params(io, 1, "A_scale");
  const QuantParams bq = read_quant_params(io, 4, "B_scale");
  const QuantParams cq = read_quant_params(io, 6, "C_scale");
  Tensor& C = *io.out[0];
  QuantRange range = quant_range(C.dtype());
  // FusedQLinearAdd's clamp: saturating to the narrower range is the same as clamping after.
  range.lo = std::max(range.lo, p.y_min);
  range.hi = std::min(range.hi, p.y_max);
  const int64_t za = aq.zero_point_at(0), zb = bq.zero_point_at(0), zc = cq.zero_point_at(0);
  const double sa = aq.scale_at(0), sb = bq.scale_at(0), sc = cq.scale_at(0);
  const double product_multiplier = sa * sb / sc;
  for_each_broadcast<2>(C.shape(), {broadcast_strides(A.shape(), C.shape()), broadcast_strides(B.shape(), C.shape())},
                        [&](int64_t o, const int64_t* off) {
                          const int64_t a = A.int_at(off[0]) - za, b = B.int_at(off[1]) - zb;
                          const double r = p.multiply ? double(a * b) * product_multiplier
                                                      : (double(a) * sa + double(b) * sb) / sc;
                          store_quantized(C, o, r, zc, range);
                        });
}

}  // namespace cnnx
