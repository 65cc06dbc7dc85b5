// QLinearMatMul: parse and shape inference.
#include "ops/quant/qlinear_matmul.h"

#include "ops/common/node_checks.h"
#include "ops/gemm/matmul.h"
#include "ops/quant/quantization.h"

namespace cnnx {

std::vector<ValueInfo> infer_qlinear_matmul(const NoParams&, const std::vector<ValueInfo>& in) {
  require_quantized(in, 0, "a");
  require_quantized(in, 3, "b");
  const DType y = type_or(in, 7, in[0].dtype);
  if (!in[0].rank_known || !in[3].rank_known) return {ValueInfo::unknown(y)};
  const MatMulGeometry g = resolve_matmul_geometry({in[0], in[3]});
  check_scale_zero_point(in, 1, 2, "a_scale", "a_zero_point", in[0].dtype, {});
  check_scale_zero_point(in, 4, 5, "b_scale", "b_zero_point", in[3].dtype, {true, g.N});
  check_scale_zero_point(in, 6, 7, "y_scale", "y_zero_point", DType::undefined, {});
  return {ValueInfo::of(y, g.output_shape())};
}

}  // namespace cnnx
