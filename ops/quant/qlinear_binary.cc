// com.microsoft QLinearAdd and QLinearMul: parse and shape inference.
#include "ops/quant/qlinear_binary.h"

#include <tuple>

#include "ops/common/broadcast.h"
#include "ops/common/node_checks.h"
#include "ops/quant/quantization.h"

namespace cnnx {

namespace {

QLinearBinaryParams parse_qlinear_binary(const Node& node, bool multiply) {
  check_node(node, 7, 8, {});
  QLinearBinaryParams p;
  p.multiply = multiply;
  return p;
}

}  // namespace

QLinearBinaryParams parse_qlinear_add(const Node& node) { return parse_qlinear_binary(node, false); }
QLinearBinaryParams parse_qlinear_mul(const Node& node) { return parse_qlinear_binary(node, true); }

QLinearBinaryParams parse_fused_qlinear_add(const Node& node) {
  check_node(node, 7, 8, {"y_min", "y_max"});
  QLinearBinaryParams p;
  std::tie(p.y_min, p.y_max) = parse_output_clamp(node);
  return p;
}

std::vector<ValueInfo> infer_qlinear_binary(const QLinearBinaryParams& p, const std::vector<ValueInfo>& in) {
  require_quantized(in, 0, "A");
  const DType t = in[0].dtype;
  require(input(in, 3).dtype == t, "B (input 3) has element type ", dtype_name(in[3].dtype), "; expected A's, ",
          dtype_name(t));
  check_scale_zero_point(in, 1, 2, "A_scale", "A_zero_point", t, {});
  check_scale_zero_point(in, 4, 5, "B_scale", "B_zero_point", t, {});
  check_scale_zero_point(in, 6, 7, "C_scale", "C_zero_point", t, {});
  const QuantRange r = quant_range(t);
  require(p.y_min <= r.hi && p.y_max >= r.lo, "y_min ", p.y_min, " and y_max ", p.y_max,
          " leave no value of C's type ", dtype_name(t));
  if (!in[0].rank_known || !in[3].rank_known) return {ValueInfo::unknown(t)};
  return {ValueInfo::of(t, broadcast_shapes({in[0].shape, in[3].shape}))};
}

}  // namespace cnnx
