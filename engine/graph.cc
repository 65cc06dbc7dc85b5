#include "engine/graph.h"

#include <algorithm>
#include <deque>

#include "engine/float16_compute.h"
#include "engine/deferred_folding.h"
#include "engine/node_eval.h"
#include "engine/op_registry.h"

namespace cnnx {

std::string Node::label() const {
  return "node '" + name + "' (" + (domain.empty() ? "" : domain + ":") + op_type + ")";
}

int Graph::find_value(const std::string& value_name) const {
  for (size_t i = 0; i < values.size(); ++i)
    if (values[i].name == value_name) return int(i);
  return -1;
}

namespace {

void resolve_ops(Graph& g, const OpRegistry& registry) {
  for (Node& node : g.nodes) {
    with_node_context(node, [&] {
      auto it = g.opsets.find(node.domain);
      require(it != g.opsets.end(), "domain '", node.domain, "' is not imported by the model");
      require(node.domain != kInternalDomain, "ops of domain ", kInternalDomain,
              " are made by cnnx's graph passes, not read from models");
      node.opset = it->second;
      node.def = &registry.find(node.domain, node.op_type, node.opset);
      node.params = node.def->parse(node);
    });
  }
}

// Called when Kahn's algorithm left nodes unsorted (missing[n] > 0): every such node waits on an input whose
// producer is unsorted too. Walking those producers must revisit a node; the loop found is the cycle
// reported (a node that merely depends on a cycle is not blamed). Iterative: no recursion on deep graphs.
[[noreturn]] void report_cycle(const Graph& g, const std::vector<int>& missing, const std::vector<int>& producer,
                               const std::vector<bool>& available) {
  size_t n = 0;
  while (missing[n] == 0) ++n;
  std::vector<int> visited_at(g.nodes.size(), -1);
  std::vector<size_t> path;
  while (visited_at[n] < 0) {
    visited_at[n] = int(path.size());
    path.push_back(n);
    for (int in : g.nodes[n].inputs)
      if (in >= 0 && !available[size_t(in)] && missing[size_t(producer[size_t(in)])] > 0) {
        n = size_t(producer[size_t(in)]);
        break;
      }
  }
  // path[begin..] is the loop, each node consuming an output of the next one; blame where the walk closed
  // it (the first unsorted node in file order when the walk starts on the loop) and print it in data order.
  const size_t begin = size_t(visited_at[n]), length = path.size() - begin;
  std::string loop = "'" + g.nodes[n].name + "'";
  for (size_t i = 0; i + 1 < length && i < 8; ++i) loop += " -> '" + g.nodes[path[path.size() - 1 - i]].name + "'";
  loop += length > 9 ? " -> ... -> '" : " -> '";
  loop += g.nodes[n].name + "'";
  fail(g.nodes[n].label(), ": is part of a cycle (", loop, ")");
}

// Kahn's algorithm; keeps the file order among ready nodes so results are reproducible.
void sort_topologically(Graph& g) {
  std::vector<bool> available(g.values.size(), false);
  for (int id : g.inputs) available[size_t(id)] = true;
  for (size_t i = 0; i < g.values.size(); ++i)
    if (g.values[i].info.constant) available[i] = true;

  std::vector<int> producer(g.values.size(), -1);
  for (size_t n = 0; n < g.nodes.size(); ++n)
    for (int out : g.nodes[n].outputs) {
      if (out < 0) continue;
      const Node& node = g.nodes[n];
      if (available[size_t(out)] || producer[size_t(out)] >= 0)
        fail(node.label(), ": output '", g.values[size_t(out)].name, "' is already defined by ",
             producer[size_t(out)] >= 0 ? g.nodes[size_t(producer[size_t(out)])].label() : "the graph");
      producer[size_t(out)] = int(n);
    }
  for (const Node& node : g.nodes)
    for (int in : node.inputs)
      // Not require(): its message would read g.values[-1] for an omitted input (arguments are eager).
      if (in >= 0 && !available[size_t(in)] && producer[size_t(in)] < 0)
        fail(node.label(), ": input '", g.values[size_t(in)].name,
             "' is not defined by any node, initializer or graph input");
  for (int out : g.outputs)
    require(available[size_t(out)] || producer[size_t(out)] >= 0, "graph output '",
            g.values[size_t(out)].name, "' is not produced by any node");

  std::vector<int> missing(g.nodes.size(), 0);
  std::vector<std::vector<int>> consumers(g.values.size());
  for (size_t n = 0; n < g.nodes.size(); ++n)
    for (int in : g.nodes[n].inputs)
      if (in >= 0 && !available[size_t(in)]) {
        ++missing[n];
        consumers[size_t(in)].push_back(int(n));
      }
  std::deque<int> ready;
  for (size_t n = 0; n < g.nodes.size(); ++n)
    if (missing[n] == 0) ready.push_back(int(n));
  std::vector<Node> sorted;
  sorted.reserve(g.nodes.size());
  while (!ready.empty()) {
    int n = ready.front();
    ready.pop_front();
    for (int out : g.nodes[size_t(n)].outputs)
      if (out >= 0)
        for (int c : consumers[size_t(out)])
          if (--missing[size_t(c)] == 0) ready.push_back(c);
    sorted.push_back(std::move(g.nodes[size_t(n)]));
  }
  if (sorted.size() != g.nodes.size()) report_cycle(g, missing, producer, available);
  g.nodes = std::move(sorted);
  for (Value& v : g.values) v.producer = -1;
  for (size_t n = 0; n < g.nodes.size(); ++n)
    for (int out : g.nodes[n].outputs)
      if (out >= 0) g.values[size_t(out)].producer = int(n);
}

// True when `node`, folded, widened a float16/bfloat16 constant that nothing else reads into its float32
// output: `float16 initializer -> Cast(to float32)`, how float16-weight models store their weights.
bool widened_16bit_constant(const Graph& g, const Node& node, const std::vector<int>& readers) {
  if (!node.domain.empty() || node.op_type != "Cast" || node.inputs.size() != 1 || node.outputs.size() != 1) return false;
  const int in = node.inputs[0], out = node.outputs[0];
  if (in < 0 || out < 0 || readers[size_t(in)] != 1) return false;
  const ValueInfo &from = g.values[size_t(in)].info, &to = g.values[size_t(out)].info;
  const auto is_output = [&](int id) { return std::find(g.outputs.begin(), g.outputs.end(), id) != g.outputs.end(); };
  return from.constant && is_float16_family(from.dtype) && to.constant && to.dtype == DType::f32 && !is_output(in) &&
         !is_output(out);
}

// Infers every node in order and folds those of constant inputs. A widening Cast of a 16-bit constant
// (widened_16bit_constant) goes with the 16-bit copy as soon as it is folded: the model holds each float16
// weight once, as float32 (in a releasable buffer: a plan that prepares it releases it), never both copies
// (resnet18 as float16 weights: peak RSS 181 -> 78 MB, as its float32 file), and plans do not fold it again.
void infer_shapes(Graph& g, int64_t max_tensor_bytes) {
  std::vector<int> readers(g.values.size(), 0);
  for (const Node& node : g.nodes)
    for (int id : node.inputs)
      if (id >= 0) ++readers[size_t(id)];
  std::vector<bool> gone(g.nodes.size(), false);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& node = g.nodes[n];
    std::vector<ValueInfo> in;
    for (int id : node.inputs) in.push_back(id >= 0 ? g.values[size_t(id)].info : ValueInfo{});
    defer_dequantized_constant(node, in);
    std::vector<ValueInfo> out = infer_node(node, in, max_tensor_bytes);
    in.clear();  // no copy of a 16-bit constant may outlive the drop below
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      int id = node.outputs[i];
      if (id < 0) continue;
      // Inference wins over what the file declares for intermediate values (declarations can be stale);
      // the declared element type fills in where inference has none.
      ValueInfo& declared = g.values[size_t(id)].info;
      if (out[i].dtype == DType::undefined) out[i].dtype = declared.dtype;
      declared = out[i];
    }
    if (widened_16bit_constant(g, node, readers)) {
      g.values[size_t(node.inputs[0])].info.constant = nullptr;  // read by nothing now
      gone[n] = true;
    }
  }
  if (std::find(gone.begin(), gone.end(), true) == gone.end()) return;
  std::vector<Node> kept;
  for (size_t n = 0; n < g.nodes.size(); ++n)
    if (!gone[n]) kept.push_back(std::move(g.nodes[n]));
  g.nodes = std::move(kept);
  for (Value& v : g.values) v.producer = -1;
  for (size_t n = 0; n < g.nodes.size(); ++n)
    for (int out : g.nodes[n].outputs)
      if (out >= 0) g.values[size_t(out)].producer = int(n);
}

// Each 16-bit float constant (a float16 graph's weight) whose every reader computes in float32 as float16 (it
// does not move 16-bit values as they are, runs no subgraph, and reads a 16-bit value that is no constant,
// which types its outputs) becomes its exact float32 value, in a releasable buffer (a plan that prepares it releases it), the
// 16-bit copy dropped: each plan would convert it anyway (engine/float16_compute.h), and a model holding
// both copies, then a plan holding a third, peaked at 137 MB for resnet18 as a float16 graph (78 MB as float32).
void widen_16bit_weights(Graph& g) {
  std::vector<bool> widens(g.values.size(), false);
  for (size_t id = 0; id < g.values.size(); ++id)
    widens[id] = g.values[id].info.constant && is_float16_family(g.values[id].info.dtype) &&
                 g.values[id].producer < 0;  // an initializer (a Constant node would make it 16-bit again per plan)
  for (int id : g.outputs) widens[size_t(id)] = false;
  for (const Node& node : g.nodes) {
    bool reads_16bit_data = false;
    for (int id : node.inputs)
      reads_16bit_data = reads_16bit_data || (id >= 0 && is_float16_family(g.values[size_t(id)].info.dtype) &&
                                              !g.values[size_t(id)].info.constant);
    const bool computes = reads_16bit_data && !moves_float16_as_is(node) && !node.def->hints.runs_subgraphs;
    for (int id : node.inputs)
      if (id >= 0 && !computes) widens[size_t(id)] = false;
  }
  for (size_t id = 0; id < g.values.size(); ++id)
    if (widens[id]) g.values[id].info = float16_family_info_as_float32(g.values[id].info);
}

// Settings where engines are known to disagree, found by the ops' `caution` checks.
void collect_warnings(Graph& g) {
  for (const Node& node : g.nodes) {
    if (!node.def->hints.caution) continue;
    std::vector<ValueInfo> in;
    for (int id : node.inputs) in.push_back(id >= 0 ? g.values[size_t(id)].info : ValueInfo{});
    std::string warning = node.def->hints.caution(*node.params, in);
    if (!warning.empty()) g.warnings.push_back(node.label() + ": " + warning);
  }
}

}  // namespace

void build_graph(Graph& g, const OpRegistry& registry, int64_t max_tensor_bytes) {
  resolve_ops(g, registry);
  sort_topologically(g);
  infer_shapes(g, max_tensor_bytes);
  widen_16bit_weights(g);
  collect_warnings(g);
}

void build_subgraph(Graph& g, const OpRegistry& registry) {
  resolve_ops(g, registry);
  sort_topologically(g);
}

std::vector<ValueInfo> infer_graph_outputs(const Graph& g, const std::vector<ValueInfo>& inputs,
                                           int64_t max_tensor_bytes) {
  require(inputs.size() == g.inputs.size(), "the subgraph takes ", g.inputs.size(), " inputs, got ", inputs.size());
  // Values whose rank is not known yet (`known` false) make the nodes reading them unknown too, not omitted.
  std::vector<ValueInfo> info(g.values.size());
  std::vector<bool> known(g.values.size(), false);
  for (size_t id = 0; id < g.values.size(); ++id)
    if (g.values[id].info.constant) info[id] = g.values[id].info, known[id] = true;
  for (size_t i = 0; i < inputs.size(); ++i) {
    info[size_t(g.inputs[i])] = inputs[i];
    known[size_t(g.inputs[i])] = inputs[i].dtype != DType::undefined && inputs[i].rank_known;
  }
  for (const Node& node : g.nodes) {
    std::vector<ValueInfo> in;
    bool all_known = true;
    for (int id : node.inputs) {
      in.push_back(id >= 0 ? info[size_t(id)] : ValueInfo{});
      all_known = all_known && (id < 0 || known[size_t(id)]);
    }
    if (!all_known) continue;
    std::vector<ValueInfo> out = infer_node(node, in, max_tensor_bytes);
    for (size_t i = 0; i < node.outputs.size(); ++i)
      if (node.outputs[i] >= 0) {
        info[size_t(node.outputs[i])] = out[i];
        known[size_t(node.outputs[i])] = out[i].dtype != DType::undefined && out[i].rank_known;
      }
  }
  std::vector<ValueInfo> outputs;
  for (int id : g.outputs)
    outputs.push_back(known[size_t(id)] ? info[size_t(id)] : ValueInfo::unknown(g.values[size_t(id)].info.dtype));
  return outputs;
}

}  // namespace cnnx
