// com.microsoft QGemm: the reference kernel (exact integer sums with the int32 C, then one double multiplication
// per output, quantized or rounded to float32).
#include "ops/common/broadcast.h"
#include "ops/quant/qgemm.h"
#include "ops/quant/quantization.h"

namespace cnnx {

void qgemm_ref(const QGemmParams& p, const KernelIO& io) {
  const Tensor& A = *io.in[0];
  const Tensor& B = *io.in[3];
  const QuantParams aq = read_quant_params(io, 1, "a_scale");
  const QuantParams bq = read_quant_params(io, 4, "b_scale");
  const int64_t M = A.dim(p.trans_a ? 1 : 0), K = A.dim(p.trans_a ? 0 : 1), N = B.dim(p.trans_b ? 0 : 1);
  require(!bq.per_axis() || int64_t(bq.scale.size()) == N, "b_scale has ", bq.scale.size(), " values; B' has ", N,
          " columns");
  const Tensor* C = io.optional_in(6);
  const std::vector<int64_t> c_strides = C ? broadcast_strides(C->shape(), {M, N}) : std::vector<int64_t>{0, 0};
  Tensor& Y = *io.out[0];
  const Tensor* y_scale = io.optional_in(7);
  QuantParams yq;
  if (y_scale) yq = read_quant_params(*y_scale, io.optional_in(8), "y_scale");
  const int64_t za = aq.zero_point_at(0);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      const int64_t zb = bq.zero_point_at(n);
      int64_t acc = C ? int64_t(C->data<int32_t>()[m * c_strides[0] + n * c_strides[1]]) : 0;
      for (int64_t k = 0; k < K; ++k)
        acc += (A.int_at(p.trans_a ? k * M + m : m * K + k) - za) * (B.int_at(p.trans_b ? n * K + k : k * N + n) - zb);
      const double multiplier = p.alpha * aq.scale_at(0) * bq.scale_at(n);
      if (y_scale)
        store_quantized(Y, m * N + n, double(acc) * (multiplier / yq.scale_at(0)), yq.zero_point_at(0),
                        quant_range(Y.dtype()));
      else
        Y.data<float>()[m * N + n] = float(double(acc) * multiplier);
    }
}

}  // namespace cnnx
