#include "ops/norm/group_norm.h"

#include <cmath>

#include "ops/common/node_checks.h"

namespace cnnx {

namespace {

void read_epsilon(const Node& node, GroupNormParams& p) {
  p.epsilon = node.attrs.get_float("epsilon", p.epsilon);
  require(std::isfinite(p.epsilon) && p.epsilon >= 0, "attribute 'epsilon' must be finite and >= 0, got ",
          p.epsilon);
}

}  // namespace

GroupNormParams parse_instance_norm(const Node& node) {
  require_inputs(node, 3, 3);
  require_outputs(node, 1, 1);
  if (node.opset < 6) {
    node.attrs.allow_only({"epsilon", "consumed_inputs"});
    node.attrs.get_ints("consumed_inputs");  // legacy in-place hint: checked for its type, no effect
  } else {
    node.attrs.allow_only({"epsilon"});
  }
  GroupNormParams p;
  read_epsilon(node, p);
  return p;
}

GroupNormParams parse_group_norm(const Node& node) {
  check_node(node, 3, 3, {"epsilon", "num_groups"});
  GroupNormParams p;
  read_epsilon(node, p);
  p.groups = node.attrs.require_int("num_groups");
  require(p.groups >= 1, "attribute 'num_groups' must be >= 1, got ", p.groups);
  return p;
}

std::vector<ValueInfo> infer_group_norm(const GroupNormParams& p, const std::vector<ValueInfo>& in) {
  for (size_t i = 0; i < 3; ++i) require_dtype(in, i, {DType::f32});
  const Shape& x = in[0].shape;
  require(x.size() >= 2, "input X must have rank >= 2 (N x C x D1 ... Dn), got shape ", to_string(x));
  const int64_t C = x[1];
  if (p.groups && C != kUnknownDim)
    require(C % p.groups == 0, "attribute 'num_groups' = ", p.groups, " does not divide the ", C,
            " channels of X (shape ", to_string(x), ")");
  const int64_t want = p.groups ? p.groups : C;
  const char* what = p.groups ? "num_groups" : "C";
  for (size_t i = 1; i < 3; ++i) {
    const Shape& s = in[i].shape;
    const char* name = i == 1 ? "scale" : (p.groups ? "bias" : "B");
    require(s.size() == 1, "input ", name, " must be 1-D of size ", what, ", got shape ", to_string(s));
    require(s[0] == want || s[0] == kUnknownDim || want == kUnknownDim, "input ", name, " has ", s[0],
            " elements but ", what, " = ", want, p.groups ? " (opset 18: one value per group)" : "",
            " for X of shape ", to_string(x));
  }
  return {same_as_input(in)};
}

}  // namespace cnnx
