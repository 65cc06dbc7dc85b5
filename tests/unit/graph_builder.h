// A tiny graph builder for tests: values by name, nodes in the order given (build_graph sorts them).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ops/builtin_ops.h"
#include "engine/graph.h"
#include "tests/unit/op_harness.h"

namespace cnnx::testing {

struct GraphBuilder {
  Graph g;
  explicit GraphBuilder(int opset = 13) { g.opsets[""] = opset; }
  int value(const std::string& name) {
    int id = g.find_value(name);
    if (id >= 0) return id;
    g.values.push_back(Value{name, {}, -1});
    return int(g.values.size() - 1);
  }
  GraphBuilder& input(const std::string& name, Shape shape, DType t = DType::f32) {
    int id = value(name);
    g.values[size_t(id)].info = ValueInfo::of(t, shape);
    g.inputs.push_back(id);
    return *this;
  }
  GraphBuilder& initializer(const std::string& name, const Tensor& t) {
    g.values[size_t(value(name))].info = ValueInfo::of(t);
    return *this;
  }
  // A 1-D int64 initializer (shapes, axes, pads).
  GraphBuilder& ints(const std::string& name, std::vector<int64_t> v) {
    return initializer(name, make_int_tensor({int64_t(v.size())}, v));
  }
  GraphBuilder& node(const std::string& type, std::vector<std::string> ins, std::vector<std::string> outs,
                     const std::string& name = "", Attributes attrs = {}, const std::string& domain = "") {
    Node n;
    n.op_type = type;
    n.domain = domain;
    n.attrs = std::move(attrs);
    n.name = name.empty() ? type + std::to_string(g.nodes.size()) : name;
    for (const auto& s : ins) n.inputs.push_back(s.empty() ? -1 : value(s));
    for (const auto& s : outs) n.outputs.push_back(value(s));
    g.nodes.push_back(std::move(n));
    return *this;
  }
  GraphBuilder& output(const std::string& name) {
    g.outputs.push_back(value(name));
    return *this;
  }
};

// A builder's graph, built (sorted, inferred), with its inputs' infos and random inputs uniform in [-2, 2)
// (every input drawn from `seed`): what a test plans and runs.
struct BuiltGraph {
  std::shared_ptr<const Graph> graph;
  std::vector<ValueInfo> infos;
  std::vector<Tensor> inputs;
};

inline BuiltGraph build(GraphBuilder& b, uint32_t seed) {
  build_graph(b.g, builtin_ops());
  BuiltGraph r{std::make_shared<const Graph>(b.g), {}, {}};
  for (int id : r.graph->inputs) {
    r.infos.push_back(r.graph->value(id).info);
    r.inputs.push_back(random_tensor(r.graph->value(id).info.shape, seed, -2.f, 2.f));
  }
  return r;
}

}  // namespace cnnx::testing
