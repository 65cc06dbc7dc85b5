// Graph passes: rewrites of a plan's own copy of the graph, made once every shape is concrete and every
// constant folded. A pass replaces nodes by equivalent ones (a Conv with its BatchNormalization folded in,
// a Conv with its activation fused, every spelling of global average pooling as one op). Each pass has a
// name so it can be turned off (Options::disabled_passes, `--disable-pass NAME`) to compare.
//
// What a pass may rely on: nodes are in topological order; every value's info is concrete; constant values
// carry their data; Value::producer is right. What it must keep: the same graph outputs with the same
// values, topological order, and nodes made with make_node (or with params their op's parse would give).
// Nodes left without a use are removed after each pass. Passes do not depend on the backend: both run one
// graph, so `--backend ref` checks the rewrite too.
//
// A pass says why it left a near match alone (PassDeclines): a node that anchors its pattern (a Pad read by a
// Conv, a Concat read by a Conv) but fails one of its conditions, one line per node with the condition that
// failed. `cnnx inspect` prints them under the pass, as it prints why kernels declined a node.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/graph.h"
#include "ops/common/activation.h"

namespace cnnx {

// "Concat '/inception3a/Concat'": a node as messages name it.
inline std::string node_label(const Node& node) { return node.op_type + " '" + node.name + "'"; }

// "Concat '/inception3a/Concat': ...": the near matches a pass left alone.
class PassDeclines {
 public:
  void add(const Node& node, const std::string& why) { lines_.push_back(node_label(node) + ": " + why); }
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::vector<std::string> lines_;
};

struct GraphPass {
  const char* name;     // "fold-batchnorm", "fuse-conv", "global-average-pool", ...
  const char* summary;  // one line for `cnnx inspect` and --help
  void (*run)(Graph& graph, PassDeclines& declines);
};

// Rewrites that a graph needs before kernels can run it (float16-compute: the kernels take float32). They run
// first, always: not in graph_passes(), so no name can disable them. run_graph_passes reports them too.
const std::vector<GraphPass>& graph_lowerings();
// Every optimizing pass, in the order the planner runs them (after the lowerings).
const std::vector<GraphPass>& graph_passes();
// Their names, in that order (Options::disabled_passes with all of them plans the graph as imported).
std::vector<std::string> graph_pass_names();

// What one pass changed, from the graph's op histogram before and after it (the rewrite itself is in each
// new node's Node::note).
struct PassReport {
  std::string pass;
  bool disabled = false;
  std::map<std::string, int> made, removed;  // op type -> how many more / fewer nodes of it
  std::map<std::string, int> rewritten;      // op type -> nodes not in the graph before (new inputs, outputs or note)
  std::vector<std::string> declined;         // near matches left alone, and why (PassDeclines)
  // "12 LayerNormalization from 96 nodes (Add x24, Div x12, ...)", "removed 3 nodes (Relu x3)", "rewrote 6
  // nodes (AveragePool x3, Conv x3)" (as many of each op as before), "no match", "disabled".
  std::string summary() const;
};

// Throws cnnx::Error for a name no pass has, listing the known ones.
void check_pass_names(const std::vector<std::string>& names);
// Runs the passes not named in `disabled` (unknown names are an error listing the known ones); one report
// per pass, in order.
std::vector<PassReport> run_graph_passes(Graph& graph, const std::vector<std::string>& disabled);

// ---- helpers for writing passes ----

// For every value id, the indices of the nodes that read it (once per node).
std::vector<std::vector<int>> consumers_of(const Graph& graph);
bool is_graph_output(const Graph& graph, int value);
// True when the node is the default-domain op `type`.
bool is_op(const Node& node, const char* type);
// True when the value is read by exactly one node and is not a graph output: a pass may then absorb the
// node reading it.
bool used_once(const Graph& graph, const std::vector<std::vector<int>>& consumers, int value);
// The node reading `value` when it is the only reader (and `value` is no graph output), else nullptr.
const Node* sole_reader(const Graph& graph, const std::vector<std::vector<int>>& consumers, int value);
// True when every entry of `v` is `x` (an empty `v` too): no pads, unit strides, 1x1 kernels.
bool all_equal(const std::vector<int64_t>& v, int64_t x);
// The infos of the node's inputs, an absent one as ValueInfo{}.
std::vector<ValueInfo> input_infos(const Graph& graph, const Node& node);
// The node writing `value`, or nullptr (graph inputs, initializers, folded constants).
const Node* producer_of(const Graph& graph, int value);
// True when `value` is a constant holding one number (any shape of one element, any numeric type), read into `v`.
bool scalar_constant(const Graph& graph, int value, double& v);
// The axes a Reduce* node reduces as written: its attribute, or its opset-18 axes input when that is a
// constant (an omitted input gives none); false when the axes are read at run time.
bool constant_reduce_axes(const Graph& graph, const Node& reduce, std::vector<int64_t>& axes);
// The activation `node` computes on its input 0, when a kernel may take it as a post-op: a fusable row of the
// activation table that oneDNN runs under the node's args (its attributes, or Clip's constant bounds), read
// into `args`; else nullptr.
const ActivationDef* fusable_activation(const Graph& graph, const Node& node, ActivationArgs& args);
// Adds a value (named after `base`, made unique) and returns its id.
int add_value(Graph& graph, const std::string& base, ValueInfo info);
// A node of `domain:type` resolved in the registry and parsed from `attrs` exactly as one from a model
// (so its params are validated); its opset is the graph's for that domain, raised to `min_opset` (for an op
// newer than the model's imports: LayerNormalization, 17, written into an opset-13 graph). `note` says what
// it replaced.
Node make_node(const Graph& graph, std::string name, const std::string& domain, const std::string& type,
               std::vector<int> inputs, std::vector<int> outputs, Attributes attrs, std::string note, int min_opset = 0);
// Makes every reader of `from` (nodes and graph outputs) read `to` instead.
void replace_uses(Graph& graph, int from, int to);
// Drops nodes none of whose outputs is read or is a graph output, and refreshes Value::producer.
void remove_dead_nodes(Graph& graph);

}  // namespace cnnx
