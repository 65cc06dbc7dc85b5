#include "ops/builtin_ops.h"
#include "passes/pass.h"

#include <algorithm>

#include "engine/op_registry.h"
#include "passes/passes.h"

namespace cnnx {

const std::vector<GraphPass>& graph_passes() {
  static const std::vector<GraphPass> passes = {
      {"drop-identity", "removes Identity, inference-mode Dropout and all-zero Pad", drop_identity},
      {"global-average-pool", "every spelling of global average pooling as one GlobalAveragePool", rewrite_global_average_pool},
      {"fold-batchnorm", "folds a BatchNormalization with constant statistics into the Conv before it",
       fold_batch_norm},
      {"channel-shuffle", "[Concat ->] Reshape [N, g, C/g, ...] -> Transpose -> Reshape [N, C, ...] as one ChannelShuffle that keeps channels-last",
       fuse_channel_shuffle},
      {"fuse-conv", "fuses a Conv with the residual Add and activation (Relu, Clip, SiLU, ...) after it; BatchNormalization with its Relu",
       fuse_conv},
  };
  return passes;
}

void run_graph_passes(Graph& graph, Backend backend, const std::vector<std::string>& disabled) {
  const auto& passes = graph_passes();
  for (const std::string& name : disabled) {
    bool known = std::any_of(passes.begin(), passes.end(), [&](const GraphPass& p) { return name == p.name; });
    if (!known) {
      std::string names;
      for (const GraphPass& p : passes) names += std::string(names.empty() ? "" : ", ") + p.name;
      fail("unknown graph pass '", name, "' (known: ", names, ")");
    }
  }
  for (const GraphPass& p : passes) {
    if (std::find(disabled.begin(), disabled.end(), p.name) != disabled.end()) continue;
    p.run(graph, backend);
    remove_dead_nodes(graph);
  }
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

int add_value(Graph& graph, const std::string& base, ValueInfo info) {
  std::string name = base;
  for (int i = 1; graph.find_value(name) >= 0; ++i) name = base + "_" + std::to_string(i);
  graph.values.push_back({name, std::move(info), -1});
  return int(graph.values.size() - 1);
}

Node make_node(const Graph& graph, std::string name, const std::string& domain, const std::string& type,
               std::vector<int> inputs, std::vector<int> outputs, Attributes attrs, std::string note) {
  Node node;
  node.name = std::move(name);
  node.op_type = type;
  node.domain = domain;
  node.inputs = std::move(inputs);
  node.outputs = std::move(outputs);
  node.attrs = std::move(attrs);
  node.note = std::move(note);
  auto it = graph.opsets.find(domain);
  node.opset = it != graph.opsets.end() ? it->second : kMaxOpset;
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
