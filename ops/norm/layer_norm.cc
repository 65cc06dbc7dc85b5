#include "ops/norm/layer_norm.h"

#include <cmath>

#include "ops/common/broadcast.h"

namespace cnnx {

namespace {

const char* const kInputNames[] = {"X", "Scale", "B"};

// Input i (Scale or B) must broadcast to X without changing X's shape.
void require_broadcasts_to(const std::vector<ValueInfo>& in, size_t i) {
  const Shape& x = in[0].shape;
  const Shape& s = in[i].shape;
  require(s.size() <= x.size(), "input ", kInputNames[i], " of shape ", to_string(s),
          " does not broadcast to X of shape ", to_string(x), " (higher rank)");
  const size_t lead = x.size() - s.size();
  for (size_t d = 0; d < s.size(); ++d) {
    const int64_t sd = s[d], xd = x[lead + d];
    require(sd == 1 || sd == xd || sd == kUnknownDim || xd == kUnknownDim, "input ", kInputNames[i], " of shape ",
            to_string(s), " does not broadcast to X of shape ", to_string(x));
  }
}

}  // namespace

size_t layer_norm_axis(int64_t axis, size_t rank) {
  const int64_t r = int64_t(rank);
  require(axis >= -r && axis <= r, "attribute 'axis' = ", axis, " is out of range [", -r, ", ", r,
          "] for X of rank ", r);
  return size_t(axis < 0 ? axis + r : axis);
}

bool is_per_normalized_element(const Shape& s, const Shape& x, size_t a) {
  if (s.size() > x.size()) return false;
  const size_t lead = x.size() - s.size();
  for (size_t d = 0; d < x.size(); ++d) {
    const int64_t sd = d < lead ? 1 : s[d - lead];  // s padded with leading 1s
    if (d < a ? sd != 1 : sd != x[d]) return false;
  }
  return true;
}

LayerNormParams parse_layer_norm(const Node& node) {
  require_inputs(node, 2, 3);
  require_outputs(node, 1, 3);
  node.attrs.allow_only({"axis", "epsilon", "stash_type"});
  LayerNormParams p;
  p.axis = node.attrs.get_int("axis", -1);
  p.epsilon = node.attrs.get_float("epsilon", p.epsilon);
  require(std::isfinite(p.epsilon) && p.epsilon >= 0, "attribute 'epsilon' must be finite and >= 0, got ",
          p.epsilon);
  const int64_t stash = node.attrs.get_int("stash_type", 1);
  require(stash == 1, "attribute 'stash_type' = ", stash,
          " is not supported: cnnx computes and stores the statistics in float32 only (stash_type = 1)");
  require(has_input(node, 1), "input Scale is required");
  return p;
}

std::vector<ValueInfo> infer_layer_norm(const LayerNormParams& p, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32});
  require_dtype(in, 1, {DType::f32});
  if (present(in, 2)) require_dtype(in, 2, {DType::f32});
  const Shape& x = in[0].shape;
  const size_t a = layer_norm_axis(p.axis, x.size());
  require_broadcasts_to(in, 1);
  if (present(in, 2)) require_broadcasts_to(in, 2);
  Shape stats = x;
  for (size_t d = a; d < stats.size(); ++d) stats[d] = 1;
  return {same_as_input(in), ValueInfo::of(DType::f32, stats), ValueInfo::of(DType::f32, stats)};
}

}  // namespace cnnx
