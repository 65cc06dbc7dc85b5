#include "ops/builtin_ops.h"
#include "passes/pass.h"

#include <algorithm>
#include <set>

#include "engine/op_registry.h"
#include "ops/eltwise/unary.h"
#include "ops/reduce/reduce.h"
#include "passes/passes.h"

namespace cnnx {

const std::vector<GraphPass>& graph_lowerings() {
  static const std::vector<GraphPass> lowerings = {
      {"float16-compute", "ops reading float16 or bfloat16 without such kernels run in float32 between Casts that round each output back (none after Relu, Clip, MaxPool of 16-bit values; the rounding before a Relu or Clip moved after it, so they fuse; float16 weights converted once, at load)",
       compute_float16_in_float32},
  };
  return lowerings;
}

const std::vector<GraphPass>& graph_passes() {
  static const std::vector<GraphPass> passes = {
      {"drop-identity", "removes Identity, inference-mode Dropout and all-zero Pad", drop_identity},
      {"fold-qdq", "DequantizeLinear(x), DequantizeLinear(W) -> Conv [-> Relu/Clip] -> QuantizeLinear as one QLinearConv (oneDNN int8; the Relu/Clip a clamp of y)",
       fold_qdq},
      {"elementwise-before-transpose", "Mul/Add/Sub/Div of a constant, Relu or Clip after a Transpose run before it (tf2onnx's ops written in NHWC between Transposes)",
       elementwise_before_transpose},  // before cancel-transposes, which then meets the Transposes side by side
      {"cancel-transposes", "Transpose pairs that undo each other removed, others merged into one Transpose, identity Transposes dropped (tf2onnx's NHWC round trips)",
       cancel_transposes},
      {"reduce-before-transpose", "a Reduce* over a Transpose's output reduces its input and permutes the result (tf2onnx's NHWC global pooling heads)",
       reduce_before_transpose},
      {"pad-through-transpose", "a Pad before a Transpose into a Conv or AveragePool (Keras' ZeroPadding2D in NHWC) moves after the Transpose, for fold-pad",
       pad_through_transpose},
      {"fold-pad", "folds a Pad of zeros around the spatial axes into the Conv or AveragePool (counting the pads) reading it",
       fold_pad},
      {"pool-first", "an AveragePool that shrinks the map, reading a 1x1 Conv, runs before it (both linear: the Conv then runs on fewer pixels)",
       pool_before_pointwise_conv},
      {"fuse-layer-norm", "LayerNorm spelled as ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div [, Mul, Add] as one LayerNormalization",
       fuse_layer_norm},  // before global-average-pool, which would take its ReduceMean over [N, T, C]
      {"global-average-pool", "every spelling of global average pooling as one GlobalAveragePool", rewrite_global_average_pool},
      {"fold-batchnorm", "folds a BatchNormalization with constant statistics into the Conv before it",
       fold_batch_norm},
      {"fold-mul-add", "folds Mul and Add of per-output-channel constants after a Conv (BatchNormalization as tf2onnx writes it) into its weights and bias",
       fold_mul_add},
      {"channel-shuffle", "[Concat ->] Reshape [N, g, C/g, ...] -> Transpose -> Reshape [N, C, ...] as one ChannelShuffle that keeps channels-last",
       fuse_channel_shuffle},
      {"fuse-gelu", "GELU spelled with Erf or Tanh (torch's nn.GELU below opset 20) as one Gelu (oneDNN gelu_erf, gelu_tanh)",
       fuse_gelu},
      {"fuse-hardswish", "x * HardSigmoid(x) (torch's nn.Hardswish below opset 14) as one HardSwish (oneDNN hardswish)",
       fuse_hardswish},
      {"fuse-matmul-bias", "MatMul with a constant B then Add of a per-column constant bias [, Add of a residual] [, activation] as one MatMul with bias and post-ops",
       fuse_matmul_bias},
      {"einsum-transposes", "Transposes into or out of an Einsum folded into its equation (read and written through strides)",
       fold_einsum_transposes},
      {"split-conv", "a Conv (one group) reading a channel Concat [through a MaxPool or AveragePool] runs as one Conv per part, summed, where that re-reads no more bytes than the Concat holds (SqueezeNet's fire modules)",
       split_conv_over_concat},  // before fuse-conv, which makes its Adds sum post-ops
      {"float16-round-once", "in float16 graphs, a Conv with the residual Add and activation (SiLU too) after it rounds once, at the end, not after each op (within a derived bound of op by op), so fuse-conv fuses them",
       round_fused_groups_once},
      {"fuse-conv", "fuses a Conv with the residual Add and activation (Relu, Clip, SiLU, ...) after it, and a float16 graph's rounding after them; BatchNormalization with its Relu",
       fuse_conv},
  };
  return passes;
}

std::vector<std::string> graph_pass_names() {
  std::vector<std::string> names;
  for (const GraphPass& p : graph_passes()) names.push_back(p.name);
  return names;
}

namespace {

// What a node reads, writes and notes, to tell a rewritten node from the one it replaced.
std::string node_signature(const Node& n) {
  std::string s = n.domain + ":" + n.op_type + " " + n.note;
  for (int id : n.inputs) s += " " + std::to_string(id);
  s += " ->";
  for (int id : n.outputs) s += " " + std::to_string(id);
  return s;
}

std::map<std::string, int> op_histogram(const Graph& graph) {
  std::map<std::string, int> h;
  for (const Node& n : graph.nodes) ++h[n.op_type];
  return h;
}

std::string counts(const std::map<std::string, int>& h) {
  std::string s;
  for (const auto& [op, n] : h) s += (s.empty() ? "" : ", ") + op + " x" + std::to_string(n);
  return s;
}

int total(const std::map<std::string, int>& h) {
  int n = 0;
  for (const auto& entry : h) n += entry.second;
  return n;
}

}  // namespace

std::string PassReport::summary() const {
  if (disabled) return "disabled";
  if (made.empty() && removed.empty())
    return rewritten.empty() ? "no match" : "rewrote " + std::to_string(total(rewritten)) + " nodes (" + counts(rewritten) + ")";
  const std::string from = std::to_string(total(removed)) + " nodes (" + counts(removed) + ")";
  if (made.empty()) return "removed " + from;
  std::string s;
  for (const auto& [op, n] : made) s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + op;
  return removed.empty() ? s + " added" : s + " from " + from;
}

void check_pass_names(const std::vector<std::string>& names) {
  const auto& passes = graph_passes();
  for (const std::string& name : names) {
    bool known = std::any_of(passes.begin(), passes.end(), [&](const GraphPass& p) { return name == p.name; });
    if (!known) {
      std::string known_names;
      for (const GraphPass& p : passes) known_names += std::string(known_names.empty() ? "" : ", ") + p.name;
      fail("unknown graph pass '", name, "' (known: ", known_names, ")");
    }
  }
}

std::vector<PassReport> run_graph_passes(Graph& graph, const std::vector<std::string>& disabled) {
  check_pass_names(disabled);
  std::vector<const GraphPass*> all;
  for (const GraphPass& p : graph_lowerings()) all.push_back(&p);
  for (const GraphPass& p : graph_passes()) all.push_back(&p);
  std::vector<PassReport> reports;
  for (const GraphPass* pass : all) {
    const GraphPass& p = *pass;
    PassReport& r = reports.emplace_back();
    r.pass = p.name;
    r.disabled = std::find(disabled.begin(), disabled.end(), p.name) != disabled.end();
    if (r.disabled) continue;
    const std::map<std::string, int> before = op_histogram(graph);
    std::multiset<std::string> signatures;
    for (const Node& n : graph.nodes) signatures.insert(node_signature(n));
    PassDeclines declines;
    p.run(graph, declines);
    r.declined = declines.lines();
    remove_dead_nodes(graph);
    for (const Node& n : graph.nodes) {
      const auto same = signatures.find(node_signature(n));
      if (same != signatures.end()) signatures.erase(same);
      else ++r.rewritten[n.op_type];
    }
    std::map<std::string, int> after = op_histogram(graph);
    for (const auto& [op, n] : before) {
      const int now = after.count(op) ? after[op] : 0;
      if (now < n) r.removed[op] = n - now;
      if (now > n) r.made[op] = now - n;
    }
    for (const auto& [op, n] : after)
      if (!before.count(op)) r.made[op] = n;
  }
  return reports;
}

std::vector<std::vector<int>> consumers_of(const Graph& graph) {
  std::vector<std::vector<int>> consumers(graph.values.size());
  for (size_t n = 0; n < graph.nodes.size(); ++n)
    for (int id : graph.nodes[n].inputs)
      if (id >= 0 && (consumers[size_t(id)].empty() || consumers[size_t(id)].back() != int(n)))
        consumers[size_t(id)].push_back(int(n));
  return consumers;
}

bool is_graph_output(const Graph& graph, int value) {
  return std::find(graph.outputs.begin(), graph.outputs.end(), value) != graph.outputs.end();
}

bool is_op(const Node& node, const char* type) { return node.domain.empty() && node.op_type == type; }

bool used_once(const Graph& graph, const std::vector<std::vector<int>>& consumers, int value) {
  return consumers[size_t(value)].size() == 1 && !is_graph_output(graph, value);
}

const Node* sole_reader(const Graph& graph, const std::vector<std::vector<int>>& consumers, int value) {
  return used_once(graph, consumers, value) ? &graph.nodes[size_t(consumers[size_t(value)][0])] : nullptr;
}

const Node* producer_of(const Graph& graph, int value) {
  const int p = graph.value(value).producer;
  return p >= 0 ? &graph.nodes[size_t(p)] : nullptr;
}

bool all_equal(const std::vector<int64_t>& v, int64_t x) {
  return std::all_of(v.begin(), v.end(), [x](int64_t d) { return d == x; });
}

std::vector<ValueInfo> input_infos(const Graph& graph, const Node& node) {
  std::vector<ValueInfo> in;
  for (int id : node.inputs) in.push_back(id >= 0 ? graph.value(id).info : ValueInfo{});
  return in;
}

bool scalar_constant(const Graph& graph, int value, double& v) {
  const ValueInfo& info = graph.value(value).info;
  if (!info.constant || info.constant->numel() != 1) return false;
  bool numeric = true;
  visit_dtype(info.dtype, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool>) numeric = false;
    else v = double(info.constant->data<T>()[0]);
  });
  return numeric;
}

bool constant_reduce_axes(const Graph& graph, const Node& reduce, std::vector<int64_t>& axes) {
  const auto& p = params_as<ReduceParams>(*reduce.params, reduce.op_type);
  axes = p.axes;
  if (!p.axes_from_input || reduce.inputs.size() < 2 || reduce.inputs[1] < 0) return true;
  const ValueInfo& a = graph.value(reduce.inputs[1]).info;
  if (!a.constant || a.dtype != DType::i64) return false;
  axes.assign(a.constant->data<int64_t>(), a.constant->data<int64_t>() + a.constant->numel());
  return true;
}

const ActivationDef* fusable_activation(const Graph& graph, const Node& node, ActivationArgs& args) {
  if (node.outputs.size() != 1) return nullptr;
  const ActivationDef* row = find_activation(node.op_type, node.domain);
  if (!row || !row->fusable()) return nullptr;
  if (const auto* p = dynamic_cast<const ActivationParams*>(node.params.get())) {
    args = p->args;
  } else if (const auto* clip = dynamic_cast<const ClipParams*>(node.params.get())) {
    if (!clip_bounds(*clip, input_infos(graph, node), args)) return nullptr;
  } else {
    return nullptr;
  }
  // The fused kernel runs the row's oneDNN steps as post-ops: what oneDNN refuses (Clip with min > max,
  // where ONNX gives max everywhere) stays a node of its own.
  std::vector<EltwiseStep> steps;
  return row->dnnl(args, steps).empty() ? row : nullptr;
}

int add_value(Graph& graph, const std::string& base, ValueInfo info) {
  std::string name = base;
  for (int i = 1; graph.find_value(name) >= 0; ++i) name = base + "_" + std::to_string(i);
  graph.values.push_back({name, std::move(info), -1});
  return int(graph.values.size() - 1);
}

Node make_node(const Graph& graph, std::string name, const std::string& domain, const std::string& type,
               std::vector<int> inputs, std::vector<int> outputs, Attributes attrs, std::string note, int min_opset) {
  Node node;
  node.name = std::move(name);
  node.op_type = type;
  node.domain = domain;
  node.inputs = std::move(inputs);
  node.outputs = std::move(outputs);
  node.attrs = std::move(attrs);
  node.note = std::move(note);
  auto it = graph.opsets.find(domain);
  node.opset = std::max(it != graph.opsets.end() ? it->second : kMaxOpset, min_opset);
  node.def = &builtin_ops().find(domain, type, node.opset);
  node.params = node.def->parse(node);
  return node;
}

void replace_uses(Graph& graph, int from, int to) {
  for (Node& node : graph.nodes)
    for (int& id : node.inputs)
      if (id == from) id = to;
  for (int& id : graph.outputs)
    if (id == from) id = to;
}

void remove_dead_nodes(Graph& graph) {
  std::vector<bool> read(graph.values.size(), false);
  for (int id : graph.outputs) read[size_t(id)] = true;
  // Backwards: a node is live when one of its outputs is read by a live node or is a graph output.
  std::vector<bool> live(graph.nodes.size(), false);
  for (size_t n = graph.nodes.size(); n-- > 0;) {
    for (int id : graph.nodes[n].outputs) live[n] = live[n] || (id >= 0 && read[size_t(id)]);
    if (live[n])
      for (int id : graph.nodes[n].inputs)
        if (id >= 0) read[size_t(id)] = true;
  }
  std::vector<Node> kept;
  for (size_t n = 0; n < graph.nodes.size(); ++n)
    if (live[n]) kept.push_back(std::move(graph.nodes[n]));
  graph.nodes = std::move(kept);
  for (Value& v : graph.values) v.producer = -1;
  for (size_t n = 0; n < graph.nodes.size(); ++n)
    for (int id : graph.nodes[n].outputs)
      if (id >= 0) graph.values[size_t(id)].producer = int(n);
}

}  // namespace cnnx
