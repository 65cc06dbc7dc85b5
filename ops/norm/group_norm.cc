#include "ops/norm/group_norm.h"

#include <cmath>

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
  require_inputs(node, 3, 3);
  require_outputs(node, 1, 1);
  node.attrs.allow_only({"epsilon", "num_groups"});
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

void group_norm_ref(const GroupNormParams& p, const KernelIO& io) {
  const Tensor& X = *io.in[0];
  const int64_t N = X.dim(0), C = X.dim(1), G = group_count(p, C);
  if (G == 0) return;  // InstanceNormalization of zero channels: Y is empty
  const int64_t per_group = C / G, inner = numel_range(X.shape(), 2, X.shape().size());
  const int64_t block = per_group * inner;
  const float* x = X.data<float>();
  const float* scale = io.in[1]->data<float>();
  const float* B = io.in[2]->data<float>();
  float* y = io.out[0]->data<float>();
  for (int64_t n = 0; n < N; ++n)
    for (int64_t g = 0; g < G; ++g) {
      const int64_t base = (n * G + g) * block;
      double sum = 0, sq = 0;
      for (int64_t i = 0; i < block; ++i) sum += x[base + i];
      const double mean = block ? sum / double(block) : 0;
      for (int64_t i = 0; i < block; ++i) sq += (x[base + i] - mean) * (x[base + i] - mean);
      const double var = block ? sq / double(block) : 0;
      const double inv = 1 / std::sqrt(var + double(p.epsilon));
      // GroupNormalization-18: one scale and bias per group; InstanceNormalization: per channel = per group.
      const double s = scale[g], b = B[g];
      for (int64_t i = 0; i < block; ++i) y[base + i] = float((x[base + i] - mean) * inv * s + b);
    }
}

}  // namespace cnnx
