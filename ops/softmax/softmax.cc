#include "ops/softmax/softmax.h"

#include <cmath>
#include <limits>

#include "ops/common/node_checks.h"

namespace cnnx {

namespace {

SoftmaxParams parse_kind(const Node& node, SoftmaxKind kind) {
  check_node(node, 1, 1, {"axis"});
  SoftmaxParams p;
  p.kind = kind;
  p.coerce_2d = node.opset < 13;
  p.axis = node.attrs.get_int("axis", p.coerce_2d ? 1 : -1);
  return p;
}

}  // namespace

SoftmaxParams parse_softmax(const Node& node) { return parse_kind(node, SoftmaxKind::softmax); }
SoftmaxParams parse_log_softmax(const Node& node) { return parse_kind(node, SoftmaxKind::log_softmax); }
SoftmaxParams parse_hardmax(const Node& node) { return parse_kind(node, SoftmaxKind::hardmax); }

std::vector<ValueInfo> infer_softmax(const SoftmaxParams& p, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32});
  require(in[0].rank() >= 1, "input must have rank >= 1, got a scalar");
  normalize_axis(p.axis, in[0].rank(), "axis");
  return {same_as_input(in)};
}

}  // namespace cnnx
