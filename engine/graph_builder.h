// A graph written in code: values by name, nodes in the order given (build_graph sorts them). For tests and the
// tools facade's ModelSketch (api/tools_facade.h), with which the pooling lab (lab/) makes small models without
// ONNX files; the importer does not use it.
//
//   GraphBuilder b(18);  // the default domain's opset
//   b.input("x", {1, 3, 8, 8}).ints("axes", {2, 3})
//       .node("ReduceMean", {"x", "axes"}, {"y"}, "mean", attrs).output("y");
//   std::shared_ptr<const Graph> g = b.finish(builtin_ops());  // build_graph: ops resolved, params parsed, shapes inferred
//
// Names are the graph's value names: the first use of a name makes the value, later uses refer to it. Nothing is
// checked here; build_graph (in finish() or called on `g`) checks everything a loaded model is checked for.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/graph.h"

namespace cnnx {

struct GraphBuilder {
  Graph g;  // what is built so far; tests edit it directly (extra opsets, a broken edge)

  // The default domain ("") at `opset`; other domains: g.opsets[domain] = version.
  explicit GraphBuilder(int opset = 13) { g.opsets[""] = opset; }

  // The id of the value named `name`, made (without type or shape) on first use.
  int value(const std::string& name) {
    const int id = g.find_value(name);
    if (id >= 0) return id;
    g.values.push_back(Value{name, {}, -1});
    return int(g.values.size() - 1);
  }

  // A graph input the caller feeds.
  GraphBuilder& input(const std::string& name, Shape shape, DType t = DType::f32) {
    const int id = value(name);
    g.values[size_t(id)].info = ValueInfo::of(t, shape);
    g.inputs.push_back(id);
    return *this;
  }

  // A constant value (an initializer), holding `t`.
  GraphBuilder& initializer(const std::string& name, const Tensor& t) {
    g.values[size_t(value(name))].info = ValueInfo::of(t);
    return *this;
  }

  // A 1-D int64 initializer (shapes, axes, pads, output sizes).
  GraphBuilder& ints(const std::string& name, const std::vector<int64_t>& v) {
    Tensor t(DType::i64, {int64_t(v.size())});
    for (size_t i = 0; i < v.size(); ++i) t.data<int64_t>()[i] = v[i];
    return initializer(name, t);
  }

  // A node reading `ins` ("" = an omitted optional input) and writing `outs`. An empty `name` becomes the op
  // type followed by the node's index ("Conv0"); `domain` "" is the default ONNX domain.
  GraphBuilder& node(const std::string& type, const std::vector<std::string>& ins,
                     const std::vector<std::string>& outs, const std::string& name = "", Attributes attrs = {},
                     const std::string& domain = "") {
    Node n;
    n.op_type = type;
    n.domain = domain;
    n.attrs = std::move(attrs);
    n.name = name.empty() ? type + std::to_string(g.nodes.size()) : name;
    for (const std::string& s : ins) n.inputs.push_back(s.empty() ? -1 : value(s));
    for (const std::string& s : outs) n.outputs.push_back(value(s));
    g.nodes.push_back(std::move(n));
    return *this;
  }

  // A graph output.
  GraphBuilder& output(const std::string& name) {
    g.outputs.push_back(value(name));
    return *this;
  }

  // Completes `g` with build_graph (throws cnnx::Error as a loaded model would) and returns a shared, immutable
  // copy of it, what Plan::build takes. The builder keeps its completed graph.
  std::shared_ptr<const Graph> finish(const OpRegistry& registry) {
    build_graph(g, registry);
    return std::make_shared<const Graph>(g);
  }
};

}  // namespace cnnx
