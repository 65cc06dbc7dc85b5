#include "ops/eltwise/unary.h"

#include <cmath>

#include "ops/common/node_checks.h"

namespace cnnx {

namespace {

ActivationParams parse_activation(const ActivationDef& row, const Node& node) {
  require_inputs(node, 1, 1);
  require_outputs(node, 1, 1);
  const bool legacy = node.opset < 6;
  // `consumed_inputs` (opsets 1-5): a legacy optimization hint, ignored.
  node.attrs.allow_only({row.alpha.name ? row.alpha.name : "", row.beta.name ? row.beta.name : "",
                         row.consumed_inputs && legacy ? "consumed_inputs" : ""});
  ActivationParams p;
  p.activation = &row;
  auto read = [&](const FloatAttribute& a) {
    const bool old_default = legacy && !std::isnan(a.fallback_before6);
    return node.attrs.get_float(a.name, old_default ? a.fallback_before6 : a.fallback);
  };
  if (row.alpha.name) p.args.alpha = read(row.alpha);
  if (row.beta.name) p.args.beta = read(row.beta);
  return p;
}

std::vector<ValueInfo> infer_unary(const ActivationParams& p, const std::vector<ValueInfo>& in) {
  if (p.activation->integer) require_dtype(in, 0, {DType::f32, DType::i64, DType::i32, DType::i8, DType::u8});
  else require_dtype(in, 0, {DType::f32});
  return {same_as_input(in)};
}

ClipParams parse_clip(const Node& node) {
  ClipParams p;
  require_outputs(node, 1, 1);
  if (node.opset < 11) {
    require_inputs(node, 1, 1);
    // `consumed_inputs` (opsets 1-5): a legacy optimization hint, ignored. Opset 1 has no defaults for min and
    // max: an absent bound does not clip, as opset 6's defaults (the float range) do not.
    node.attrs.allow_only({"min", "max", node.opset < 6 ? "consumed_inputs" : ""});
    p.attribute_bounds = true;
    p.min = node.attrs.get_float("min", p.min);
    p.max = node.attrs.get_float("max", p.max);
  } else {
    require_inputs(node, 1, 3);
    node.attrs.allow_only({});
  }
  return p;
}

std::vector<ValueInfo> infer_clip(const ClipParams& p, const std::vector<ValueInfo>& in) {
  if (p.attribute_bounds) require_dtype(in, 0, {DType::f32});  // opset < 11 Clip is float-only
  require_dtype(in, 0, {DType::f32, DType::f64, DType::i64, DType::i32, DType::i8, DType::u8});
  for (size_t i = 1; i < 3; ++i) {
    if (!present(in, i)) continue;
    require(in[i].dtype == in[0].dtype, "Clip bound ", i, " must have the input's element type ",
            dtype_name(in[0].dtype), ", got ", dtype_name(in[i].dtype));
    require(in[i].rank() == 0 || (in[i].rank() == 1 && in[i].shape[0] == 1), "Clip bound ", i,
            " must be a scalar, got shape ", to_string(in[i].shape));
  }
  return {same_as_input(in)};
}

// Not: logical negation of a bool tensor (opset 1 on).
std::vector<ValueInfo> infer_not(const NoParams&, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::boolean});
  return {same_as_input(in)};
}

// The node's row is the one its type and domain name (the registry gave the node that row's op).
ActivationParams parse_activation_node(const Node& node) {
  const ActivationDef* row = find_activation(node.op_type, node.domain);
  require(row != nullptr, "internal error: ", node.op_type, " has no activation row");
  return parse_activation(*row, node);
}

}  // namespace

bool clip_bounds(const ClipParams& p, const std::vector<ValueInfo>& in, ActivationArgs& bounds) {
  bounds = {p.min, p.max};
  if (p.attribute_bounds) return true;
  bounds = {std::numeric_limits<float>::lowest(), std::numeric_limits<float>::max()};
  for (size_t i = 1; i < 3; ++i) {
    if (!present(in, i)) continue;
    const ValueInfo& bound = in[i];
    if (!bound.constant || bound.dtype != DType::f32) return false;
    if (bound.constant->numel() > 0) (i == 1 ? bounds.alpha : bounds.beta) = bound.constant->data<float>()[0];
  }
  return true;
}

void register_unary_ops(OpRegistry& r) {
  for (const ActivationDef& row : activations()) {
    if (row.since == 0) continue;  // fused only, or declared below
    std::vector<Kernel<ActivationParams>> kernels;
    if (has_dnnl_kernel(row)) kernels.push_back(activation_dnnl_kernel());
    kernels.push_back(ref_kernel(activation_ref));
    OpSpec<ActivationParams> op{row.name, row.since, parse_activation_node, infer_unary, row.tolerance,
                                std::move(kernels)};
    op.domain = row.domain;
    r.add(std::move(op));
  }
  r.add(OpSpec<ClipParams>{"Clip", 1, parse_clip, infer_clip, kExact, {clip_dnnl_kernel(), ref_kernel(clip_ref_any)}});
  // A copy with one logical operation per element (oneDNN has no bool eltwise).
  r.add(OpSpec<NoParams>{"Not", 1, parse_no_attributes<1, 1>, infer_not, kExact, {ref_kernel(not_ref)}});
}

}  // namespace cnnx
