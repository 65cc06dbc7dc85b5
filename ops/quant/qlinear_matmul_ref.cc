// QLinearMatMul: the reference kernel (exact integer sums, ops/quant/integer_matmul.h, then one double
// multiplication and one rounding per output).
#include "ops/quant/integer_matmul.h"
#include "ops/quant/qlinear_matmul.h"
#include "ops/quant/quantization.h"

namespace cnnx {

void qlinear_matmul_ref(const NoParams&, const KernelIO& io) {
  const Tensor& A = *io.in[0];
  const Tensor& B = *io.in[3];
  const MatMulGeometry g = matmul_geometry_of(A, B);
  const QuantParams aq = read_quant_params(io, 1, "a_scale");
  const QuantParams bq = read_quant_params(io, 4, "b_scale");
  const QuantParams yq = read_quant_params(io, 6, "y_scale");
  require(!bq.per_axis() || int64_t(bq.scale.size()) == g.N, "b_scale has ", bq.scale.size(), " values; b has ", g.N,
          " columns");
  const std::vector<int64_t> acc = integer_matmul(A, B, g, aq.zero_point, bq.zero_point);
  Tensor& Y = *io.out[0];
  const QuantRange range = quant_range(Y.dtype());
  for (int64_t i = 0; i < int64_t(acc.size()); ++i) {
    const int64_t n = i % g.N;
    const double multiplier = aq.scale_at(0) * bq.scale_at(n) / yq.scale_at(0);
    store_quantized(Y, i, double(acc[size_t(i)]) * multiplier, yq.zero_point_at(0), range);
  }
}

}  // namespace cnnx
