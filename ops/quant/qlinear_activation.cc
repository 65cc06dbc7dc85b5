// com.microsoft QLinearSigmoid and QLinearLeakyRelu: parse and shape inference.
#include "ops/quant/qlinear_activation.h"

#include <cmath>

#include "ops/common/node_checks.h"
#include "ops/quant/quantization.h"

namespace cnnx {

QLinearActivationParams parse_qlinear_sigmoid(const Node& node) {
  check_node(node, 4, 5, {});
  return {};
}

QLinearActivationParams parse_qlinear_leaky_relu(const Node& node) {
  check_node(node, 4, 5, {"alpha"});
  QLinearActivationParams p;
  p.leaky_relu = true;
  p.alpha = double(node.attrs.get_float("alpha", 0.01f));
  require(std::isfinite(p.alpha), "attribute 'alpha' must be finite, got ", p.alpha);
  return p;
}

std::vector<ValueInfo> infer_qlinear_activation(const QLinearActivationParams&, const std::vector<ValueInfo>& in) {
  require_quantized(in, 0, "X");
  const DType t = in[0].dtype;
  check_scale_zero_point(in, 1, 2, "X_scale", "X_zero_point", t, {});
  check_scale_zero_point(in, 3, 4, "Y_scale", "Y_zero_point", t, {});
  if (!in[0].rank_known) return {ValueInfo::unknown(t)};
  return {ValueInfo::of(t, in[0].shape)};
}

}  // namespace cnnx
