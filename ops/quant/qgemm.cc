// com.microsoft QGemm: parse and shape inference.
#include "ops/quant/qgemm.h"

#include <cmath>

#include "ops/common/broadcast.h"
#include "ops/common/node_checks.h"
#include "ops/quant/quantization.h"

namespace cnnx {

QGemmParams parse_qgemm(const Node& node) {
  check_node(node, 6, 9, {"alpha", "transA", "transB"});
  QGemmParams p;
  p.alpha = double(node.attrs.get_float("alpha", 1.f));
  require(std::isfinite(p.alpha), "attribute 'alpha' must be finite, got ", p.alpha);
  p.trans_a = node.attrs.get_flag("transA", false);
  p.trans_b = node.attrs.get_flag("transB", false);
  return p;
}

std::vector<ValueInfo> infer_qgemm(const QGemmParams& p, const std::vector<ValueInfo>& in) {
  require_quantized(in, 0, "A");
  require_quantized(in, 3, "B");
  const bool quantized_y = present(in, 7);
  const DType y = quantized_y ? type_or(in, 8, in[0].dtype) : DType::f32;
  require(quantized_y || !present(in, 8), "y_zero_point (input 8) is given without y_scale (input 7)");
  const ValueInfo& a = in[0];
  const ValueInfo& b = in[3];
  if (!a.rank_known || !b.rank_known) return {ValueInfo::unknown(y)};
  require(a.rank() == 2, "A must be 2-D, got shape ", to_string(a.shape));
  require(b.rank() == 2, "B must be 2-D, got shape ", to_string(b.shape));
  const int64_t M = a.shape[p.trans_a ? 1 : 0], Ka = a.shape[p.trans_a ? 0 : 1];
  const int64_t Kb = b.shape[p.trans_b ? 1 : 0], N = b.shape[p.trans_b ? 0 : 1];
  require(Ka < 0 || Kb < 0 || Ka == Kb, "inner dims differ: A' has ", Ka, " columns, B' ", Kb, " rows");
  check_scale_zero_point(in, 1, 2, "a_scale", "a_zero_point", a.dtype, {});
  check_scale_zero_point(in, 4, 5, "b_scale", "b_zero_point", b.dtype, {true, N});
  if (present(in, 6)) {
    const ValueInfo& c = in[6];
    require(c.dtype == DType::i32, "C (input 6) has element type ", dtype_name(c.dtype), "; expected int32");
    if (c.rank_known) {
      require(c.rank() <= 2, "C must broadcast to [M, N], got shape ", to_string(c.shape));
      broadcast_shapes({c.shape, Shape{M, N}});
    }
  }
  if (quantized_y) check_scale_zero_point(in, 7, 8, "y_scale", "y_zero_point", DType::undefined, {});
  return {ValueInfo::of(y, {M, N})};
}

}  // namespace cnnx
