// The graph cnnx runs: values (tensors by name), nodes in topological order, initializers, graph inputs and
// outputs. Built by onnx_import, completed by build_graph (ops resolved, params parsed, order checked,
// shapes inferred, constants folded). Immutable once built.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/limits.h"
#include "engine/node.h"
#include "engine/value_info.h"

namespace cnnx {

class OpRegistry;

struct Value {
  std::string name;
  // As declared in the model (graph inputs/outputs, value_info) and then inferred. Dims may be kUnknownDim.
  ValueInfo info;
  int producer = -1;  // index of the node that writes it, -1 for graph inputs and initializers
};


struct Graph {
  std::vector<Value> values;
  std::vector<Node> nodes;     // topologically sorted after build_graph
  std::vector<int> inputs;     // graph inputs the caller feeds (those without an initializer)
  std::vector<int> outputs;
  // A subgraph (an If branch, a Loop body) reads values of the scopes around it by name: each such name is
  // one of its graph inputs, the last `captured` of `inputs`, and the node holding it takes the same values as
  // its last inputs, in the same order (the importer appends them, as ONNX Runtime's implicit inputs).
  size_t captured = 0;
  std::map<std::string, int> opsets;   // domain -> version
  std::map<std::string, std::string> metadata;  // metadata_props
  // Per graph input and output with a declared shape (by value id): the model's name of each dim ("batch"
  // for a dim_param), "" for a dim it gives a value or no name.
  std::map<int, std::vector<std::string>> dim_params;
  std::string name;
  std::string producer;
  // What the model file says about itself (ModelProto and GraphProto fields), shown by the Python module.
  std::string producer_version, domain, description, graph_description;
  int64_t model_version = 0;
  // Settings the model uses where engines are known to disagree, one line each naming the node; found at
  // load by the ops' `caution` checks. The CLI prints them once on stderr; `cnnx inspect` lists them.
  std::vector<std::string> warnings;

  int find_value(const std::string& name) const;  // -1 when absent
  const Value& value(int id) const { return values.at(size_t(id)); }
};

// Completes an imported graph: resolves every node's op in `registry` (unknown op or domain is an error
// naming the node), parses its params, sorts nodes topologically (a cycle or an undefined input is an error
// naming the node), infers shapes and folds nodes whose inputs are all constant.
// Folding never makes a tensor larger than `max_tensor_bytes` (an error names the node instead).
void build_graph(Graph& graph, const OpRegistry& registry, int64_t max_tensor_bytes = kDefaultMaxTensorBytes);

// Builds a subgraph read by the importer: resolves and parses its nodes' ops and sorts them, as build_graph
// does. Its shapes are inferred per use (infer_graph_outputs), once the infos of its inputs are known.
void build_subgraph(Graph& graph, const OpRegistry& registry);

// The infos of a built graph's outputs when its inputs have these infos (a subgraph's, inferred per branch or
// iteration by If and Loop): every node inferred again, constants folded, nothing else changed.
std::vector<ValueInfo> infer_graph_outputs(const Graph& graph, const std::vector<ValueInfo>& inputs,
                                           int64_t max_tensor_bytes = kDefaultMaxTensorBytes);

}  // namespace cnnx
