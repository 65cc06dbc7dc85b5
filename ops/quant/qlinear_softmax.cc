// com.microsoft QLinearSoftmax: parse and shape inference.
#include "ops/quant/qlinear_softmax.h"

#include "ops/common/node_checks.h"
#include "ops/quant/quantization.h"

namespace cnnx {

QLinearSoftmaxParams parse_qlinear_softmax(const Node& node) {
  check_node(node, 4, 5, {"axis", "opset"});
  QLinearSoftmaxParams p;
  p.axis = node.attrs.get_int("axis", -1);
  const int64_t opset = node.attrs.require_int("opset");
  require(opset >= 1, "attribute 'opset' must be a Softmax opset (>= 1), got ", opset);
  p.coerce_2d = opset < 13;
  return p;
}

std::vector<ValueInfo> infer_qlinear_softmax(const QLinearSoftmaxParams& p, const std::vector<ValueInfo>& in) {
  require_quantized(in, 0, "X");
  const DType t = in[0].dtype;
  check_scale_zero_point(in, 1, 2, "X_scale", "x_zero_point", t, {});
  check_scale_zero_point(in, 3, 4, "y_scale", "y_zero_point", t, {});
  const ValueInfo& x = in[0];
  if (!x.rank_known) return {ValueInfo::unknown(t)};
  require(x.rank() >= 1, "X must have at least one axis, got a scalar");
  normalize_axis(p.axis, x.rank(), "attribute 'axis'");
  return {ValueInfo::of(t, x.shape)};
}

}  // namespace cnnx
