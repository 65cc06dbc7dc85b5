#include "ops/norm/lrn.h"

#include <algorithm>
#include <cmath>

#include "ops/common/node_checks.h"

namespace cnnx {

LrnParams parse_lrn(const Node& node) {
  check_node(node, 1, 1, {"alpha", "beta", "bias", "size"});
  LrnParams p;
  p.alpha = node.attrs.get_float("alpha", p.alpha);
  p.beta = node.attrs.get_float("beta", p.beta);
  p.bias = node.attrs.get_float("bias", p.bias);
  p.size = node.attrs.require_int("size");
  require(p.size >= 1, "attribute 'size' must be >= 1, got ", p.size);
  require(std::isfinite(p.alpha) && std::isfinite(p.beta) && std::isfinite(p.bias),
          "attributes alpha, beta and bias must be finite, got ", p.alpha, ", ", p.beta, ", ", p.bias);
  return p;
}

std::vector<ValueInfo> infer_lrn(const LrnParams&, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32});
  require(in[0].rank() >= 3, "input must have rank >= 3 (N x C x D1 ... Dk), got shape ", to_string(in[0].shape));
  return {same_as_input(in)};
}

}  // namespace cnnx
