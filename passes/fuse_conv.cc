#include "ops/builtin_ops.h"
#include "engine/op_registry.h"
#include "ops/conv/fused_conv.h"
#include "ops/norm/batch_norm.h"
#include "ops/cast/round_to_float16.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

// The activation `node` computes on its input 0, from the activation table, or false when it is not one
// FusedConv takes.
bool as_activation(const Graph& g, const Node& node, ConvFusion& f) {
  f.activation = fusable_activation(g, node, f.args);
  return f.activation != nullptr;
}

// BatchNormalization (inference) -> Relu, when the Relu is the only reader: the BN applies the Relu
// itself (oneDNN's fuse_norm_relu), as in DenseNet's pre-activation layers.
void fuse_batch_norm_relu(Graph& g, const std::vector<std::vector<int>>& consumers, std::vector<bool>& absorbed) {
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    Node& bn = g.nodes[n];
    if (!is_op(bn, "BatchNormalization") || !used_once(g, consumers, bn.outputs[0])) continue;
    const auto& p = params_as<BatchNormParams>(*bn.params, bn.op_type);
    bool extra_outputs = false;
    for (size_t i = 1; i < bn.outputs.size(); ++i) extra_outputs = extra_outputs || bn.outputs[i] >= 0;
    const int r = consumers[size_t(bn.outputs[0])][0];
    if (p.training || extra_outputs || !is_op(g.nodes[size_t(r)], "Relu")) continue;
    auto fused = std::make_shared<BatchNormParams>(p);
    fused->then_relu = true;
    bn.params = fused;
    bn.note = (bn.note.empty() ? "" : bn.note + "; ") + "BatchNormalization+Relu from '" + bn.name + "' '" +
              g.nodes[size_t(r)].name + "'";
    bn.outputs[0] = g.nodes[size_t(r)].outputs[0];
    absorbed[size_t(r)] = true;
  }
}

}  // namespace

void fuse_conv(Graph& g, PassDeclines&) {
  const OpDef& fused_def = builtin_ops().find(kInternalDomain, "FusedConv", 1);
  const OpDef& rounded_def = builtin_ops().find(kInternalDomain, "FusedConvFloat16", 1);
  auto consumers = consumers_of(g);
  std::vector<bool> absorbed(g.nodes.size(), false);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (!is_op(g.nodes[n], "Conv") || absorbed[n]) continue;
    const Node& conv = g.nodes[n];
    auto params = std::make_shared<FusedConvParams>();
    params->conv = params_as<ConvParams>(*conv.params, conv.op_type);
    std::vector<int> inputs = conv.inputs;
    inputs.resize(3, -1);
    std::vector<std::string> names{conv.name};
    std::vector<int> taken;  // nodes absorbed
    int out = conv.outputs[0];
    const Shape& shape = g.value(out).info.shape;

    // Conv -> Add(other operand of the same shape): the residual.
    if (used_once(g, consumers, out)) {
      const int a = consumers[size_t(out)][0];
      const Node& add = g.nodes[size_t(a)];
      if (is_op(add, "Add") && add.inputs[0] != add.inputs[1]) {
        const int residual = add.inputs[0] == out ? add.inputs[1] : add.inputs[0];
        const ValueInfo& r = g.value(residual).info;
        if (r.dtype == DType::f32 && r.shape == shape && !r.constant) {
          params->fusion.residual = true;
          inputs.push_back(residual);
          taken.push_back(a);
          names.push_back(add.name);
          out = add.outputs[0];
        }
      }
    }
    // -> activation, or x * Sigmoid(x) (Swish, as SiLU is exported).
    const auto& readers = consumers[size_t(out)];
    if (!is_graph_output(g, out) && readers.size() == 1) {
      const Node& act = g.nodes[size_t(readers[0])];
      if (act.inputs[0] == out && as_activation(g, act, params->fusion)) {
        taken.push_back(readers[0]);
        names.push_back(act.name);
        out = act.outputs[0];
      }
    } else if (!is_graph_output(g, out) && readers.size() == 2) {
      const Node* sigmoid = &g.nodes[size_t(readers[0])];
      const Node* mul = &g.nodes[size_t(readers[1])];
      if (is_op(*mul, "Sigmoid")) std::swap(sigmoid, mul);
      if (is_op(*sigmoid, "Sigmoid") && is_op(*mul, "Mul") && used_once(g, consumers, sigmoid->outputs[0]) &&
          consumers[size_t(sigmoid->outputs[0])][0] == int(mul - g.nodes.data()) &&
          ((mul->inputs[0] == out && mul->inputs[1] == sigmoid->outputs[0]) ||
           (mul->inputs[1] == out && mul->inputs[0] == sigmoid->outputs[0]))) {
        params->fusion.activation = find_activation("Swish");
        taken.push_back(int(sigmoid - g.nodes.data()));
        taken.push_back(int(mul - g.nodes.data()));
        names.push_back(sigmoid->name);
        names.push_back(mul->name);
        out = mul->outputs[0];
      }
    }
    // -> RoundToFloat16 to float16 (the float16-compute lowering's): FusedConvFloat16 rounds in its own sweep.
    if (const Node* round = sole_reader(g, consumers, out);
        round && is_round_to_float16(*round) && round->inputs[0] == out &&
        static_cast<const RoundToFloat16Params&>(*round->params).to == DType::f16) {
      params->fusion.to_float16 = true;
      taken.push_back(int(round - g.nodes.data()));
      names.push_back(round->name);
      out = round->outputs[0];
    }
    if (taken.empty()) continue;

    // The fused node replaces the last node it absorbs (all its inputs are computed before that one).
    int last = int(n);
    for (int t : taken) last = std::max(last, t);
    Node fused;
    fused.name = conv.name;
    fused.op_type = params->fusion.to_float16 ? "FusedConvFloat16" : "FusedConv";
    fused.domain = kInternalDomain;
    fused.inputs = inputs;
    fused.outputs = {out};
    fused.opset = 1;
    fused.def = params->fusion.to_float16 ? &rounded_def : &fused_def;
    fused.note = params->fusion.summary() + " from";
    for (const std::string& name : names) fused.note += " '" + name + "'";
    if (!conv.note.empty()) fused.note += "; " + conv.note;
    fused.params = std::move(params);
    absorbed[n] = true;
    for (int t : taken) absorbed[size_t(t)] = true;
    absorbed[size_t(last)] = false;
    g.nodes[size_t(last)] = std::move(fused);
    consumers = consumers_of(g);
  }
  fuse_batch_norm_relu(g, consumers_of(g), absorbed);
  std::vector<Node> kept;
  for (size_t n = 0; n < g.nodes.size(); ++n)
    if (!absorbed[n]) kept.push_back(std::move(g.nodes[n]));
  g.nodes = std::move(kept);
}

}  // namespace cnnx
