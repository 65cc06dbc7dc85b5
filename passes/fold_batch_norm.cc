#include <cmath>

#include "ops/norm/batch_norm.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

const Tensor* constant_f32(const Graph& g, int id) {
  if (id < 0) return nullptr;
  const ValueInfo& v = g.value(id).info;
  return v.constant && v.dtype == DType::f32 ? v.constant.get() : nullptr;
}

}  // namespace

void fold_batch_norm(Graph& g, PassDeclines&) {
  const auto consumers = consumers_of(g);
  std::vector<bool> folded(g.nodes.size(), false);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    Node& conv = g.nodes[n];
    if (conv.op_type != "Conv" || !conv.domain.empty() || !used_once(g, consumers, conv.outputs[0])) continue;
    const int reader = consumers[size_t(conv.outputs[0])][0];
    const Node& bn = g.nodes[size_t(reader)];
    if (bn.op_type != "BatchNormalization" || !bn.domain.empty() || bn.inputs[0] != conv.outputs[0]) continue;
    if (params_as<BatchNormParams>(*bn.params, bn.op_type).training || bn.inputs.size() != 5) continue;
    bool extra_outputs = false;
    for (size_t i = 1; i < bn.outputs.size(); ++i) extra_outputs = extra_outputs || bn.outputs[i] >= 0;
    const Tensor* W = constant_f32(g, conv.inputs[1]);
    const Tensor* B = conv.inputs.size() > 2 ? constant_f32(g, conv.inputs[2]) : nullptr;
    const bool has_bias = conv.inputs.size() > 2 && conv.inputs[2] >= 0;
    const Tensor *scale = constant_f32(g, bn.inputs[1]), *beta = constant_f32(g, bn.inputs[2]),
                 *mean = constant_f32(g, bn.inputs[3]), *var = constant_f32(g, bn.inputs[4]);
    if (extra_outputs || !W || (has_bias && !B) || !scale || !beta || !mean || !var) continue;
    const int64_t M = W->dim(0), per_channel = W->numel() / M;
    if (scale->numel() != M || beta->numel() != M || mean->numel() != M || var->numel() != M) continue;

    // W' = W * s, B' = (B - mean) * s + beta with s = scale / sqrt(var + epsilon), in double, rounded once.
    const double epsilon = params_as<BatchNormParams>(*bn.params, bn.op_type).epsilon;
    Tensor folded_w = Tensor::uninitialized(DType::f32, W->shape()), folded_b(DType::f32, {M});
    for (int64_t m = 0; m < M; ++m) {
      const double s = double(scale->data<float>()[m]) / std::sqrt(double(var->data<float>()[m]) + epsilon);
      for (int64_t i = 0; i < per_channel; ++i)
        folded_w.data<float>()[m * per_channel + i] = float(double(W->data<float>()[m * per_channel + i]) * s);
      const double b = B ? double(B->data<float>()[m]) : 0.0;
      folded_b.data<float>()[m] = float((b - mean->data<float>()[m]) * s + beta->data<float>()[m]);
    }
    const int w_id = add_value(g, g.value(conv.inputs[1]).name + "_bn_folded", ValueInfo::of(folded_w));
    const int b_id = add_value(g, bn.name + "_bias_folded", ValueInfo::of(folded_b));
    Node& c = g.nodes[n];  // add_value may not move nodes, but keep the reference fresh anyway
    c.inputs = {c.inputs[0], w_id, b_id};
    c.outputs[0] = bn.outputs[0];
    c.note = (c.note.empty() ? "" : c.note + "; ") + "BatchNormalization '" + bn.name + "' folded in";
    folded[size_t(reader)] = true;
  }
  std::vector<Node> kept;
  for (size_t n = 0; n < g.nodes.size(); ++n)
    if (!folded[n]) kept.push_back(std::move(g.nodes[n]));
  g.nodes = std::move(kept);
}

}  // namespace cnnx
