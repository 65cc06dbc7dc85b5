// Concats joined in place (runtime/plan.cc, step 4): where a Concat's parts can be contiguous runs of its
// output (plain, every dim before the axis 1), the producers write into them and the Concat does not run.
// The reference backend's plans join wherever that holds; oneDNN's keep convolutions channels-last, whose
// Concats are copied (by the channels-last kernel), and join only parts that arrive plain. Every graph here
// is compared with the same graph evaluated node by node on plain tensors of its own (no plan, no arena),
// run with verify on (which checks a joined Concat's bytes against its kernel), and the number of joined
// Concats is checked.
#include <doctest/doctest.h>

#include <set>


#include "dnnl/layouts.h"
#include "ops/builtin_ops.h"
#include "engine/compare.h"
#include "engine/node_eval.h"
#include "runtime/plan.h"
#include "tests/unit/built_graph.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

// Without split-conv, which would run the Convs reading these Concats over their parts instead.
const std::vector<std::string> kKeepConcats = {"split-conv"};

// The oracle: every node run by its reference kernel through constant folding, inputs being constants.
std::vector<Tensor> node_by_node(const Graph& g, const std::vector<Tensor>& inputs) {
  std::vector<ValueInfo> info(g.values.size());
  for (size_t id = 0; id < g.values.size(); ++id) info[id] = g.values[id].info;
  for (size_t i = 0; i < inputs.size(); ++i) info[size_t(g.inputs[i])] = ValueInfo::of(inputs[i]);
  for (const Node& node : g.nodes) {
    std::vector<ValueInfo> in;
    for (int id : node.inputs) in.push_back(id >= 0 ? info[size_t(id)] : ValueInfo{});
    const std::vector<ValueInfo> out = infer_node(node, in);
    for (size_t i = 0; i < out.size(); ++i) info[size_t(node.outputs[i])] = out[i];
  }
  std::vector<Tensor> outputs;
  for (int id : g.outputs) {
    REQUIRE(info[size_t(id)].constant);
    outputs.push_back(*info[size_t(id)].constant);
  }
  return outputs;
}

int joined_concats(const Plan& plan) {
  int n = 0;
  for (const PlanStep& s : plan.steps())
    n += s.node >= 0 && s.view && plan.graph().nodes[size_t(s.node)].op_type == "Concat";
  return n;
}

Attributes axis_attr(int64_t axis) {
  Attributes a;
  a.set("axis", int_attr(axis));
  return a;
}

// A 3x3 convolution (pads 1) from value `in` with `ci` channels to `co` channels, named `out`.
void conv(GraphBuilder& b, const std::string& in, int64_t ci, int64_t co, const std::string& out, uint32_t seed) {
  Attributes pads;
  pads.set("pads", ints({1, 1, 1, 1}));
  b.initializer(out + ".w", random_tensor({co, ci, 3, 3}, seed, -0.3f, 0.3f))
      .node("Conv", {in, out + ".w"}, {out}, out, pads);
}

// DenseNet's block: every layer reads the Concat of all before it; the block ends with the Concat of all.
GraphBuilder dense_block(int64_t n, int64_t c, int64_t growth) {
  GraphBuilder b;
  b.input("x", {n, c, 6, 6}).node("Relu", {"x"}, {"x0"});
  std::vector<std::string> parts{"x0"};
  for (int layer = 1; layer <= 3; ++layer) {
    const std::string cat = "cat" + std::to_string(layer), f = "f" + std::to_string(layer);
    b.node("Concat", parts, {cat}, cat, axis_attr(1));
    conv(b, cat, c + growth * (layer - 1), growth, f, uint32_t(layer));
    parts.push_back(f);
  }
  b.node("Concat", parts, {"block"}, "block", axis_attr(1)).node("Relu", {"block"}, {"y"}).output("y");
  return b;
}

}  // namespace

TEST_CASE("Concats are joined in place where their parts are runs of the output's bytes, and stay right") {
  struct Case {
    std::string what;
    GraphBuilder graph;
    // Concats that must be joined: on ref; on dnnl at least joined_dnnl, those whose parts arrive plain on any
    // CPU (more where the convolutions write channel-blocked parts with whole blocks, as oneDNN's AVX2 kernels
    // do, even a Concat that is a graph output, held blocked in the arena; channels-last parts, AVX-512's, are
    // copied). Either way the outputs and every node's check must be right.
    int joined_dnnl, joined_ref;
  };
  std::vector<Case> cases;
  // N = 1: plain joins on ref (convolutions write into the block's buffer); on dnnl at least the first
  // Concat, whose one part (a Relu of the input) arrives plain.
  cases.push_back({"dense block, N=1, 16-channel parts", dense_block(1, 16, 16), 1, 4});
  cases.push_back({"dense block, N=1, 8-channel parts", dense_block(1, 8, 8), 1, 4});
  // With N = 2 no channel range is contiguous.
  cases.push_back({"dense block, N=2", dense_block(2, 16, 16), 0, 0});
  {
    GraphBuilder b;  // b sits at offset 16 channels in c1 and at 0 in c2: one of the two must copy
    b.input("x", {1, 16, 4, 4}).node("Relu", {"x"}, {"a"}).node("Sigmoid", {"x"}, {"b"});
    conv(b, "a", 16, 16, "ca", 1);
    conv(b, "b", 16, 16, "cb", 2);
    b.node("Concat", {"ca", "cb"}, {"c1"}, "c1", axis_attr(1))
        .node("Concat", {"cb", "ca"}, {"c2"}, "c2", axis_attr(1))
        .node("Add", {"c1", "c2"}, {"y"})
        .output("y");
    cases.push_back({"parts shared by two Concats in other orders", b, 0, 1});
  }
  {
    GraphBuilder b;
    b.input("x", {1, 16, 4, 4});
    conv(b, "x", 16, 16, "a", 1);
    b.node("Concat", {"a", "a"}, {"y"}, "twice", axis_attr(1)).node("Relu", {"y"}, {"z"}).output("z");
    cases.push_back({"one value twice in a Concat", b, 0, 0});
  }
  {
    GraphBuilder b;  // a graph input cannot be moved into the Concat, and on dnnl a is channels-last
    b.input("x", {1, 16, 4, 4});
    conv(b, "x", 16, 16, "a", 1);
    b.node("Concat", {"x", "a"}, {"y"}, "cat", axis_attr(1)).node("Relu", {"y"}, {"z"}).output("z");
    cases.push_back({"a graph input as a part", b, 0, 0});
  }
  {
    GraphBuilder b;  // the Concat's output is a graph output: plain outputs live outside the arena
    b.input("x", {1, 16, 4, 4});
    conv(b, "x", 16, 16, "a", 1);
    conv(b, "x", 16, 16, "b", 2);
    b.node("Concat", {"a", "b"}, {"y"}, "cat", axis_attr(1)).output("y");
    cases.push_back({"Concat output is a graph output", b, 0, 0});
  }
  {
    GraphBuilder b;  // along H with N = C = 1 the parts are runs of plain bytes
    b.input("x", {1, 1, 3, 5}).node("Relu", {"x"}, {"a"}).node("Sigmoid", {"x"}, {"b"}).node("Tanh", {"x"}, {"t"});
    b.node("Concat", {"a", "b", "t"}, {"y"}, "cat", axis_attr(2)).node("Relu", {"y"}, {"z"}).output("z");
    cases.push_back({"plain, along H", b, 1, 1});
  }
  {
    GraphBuilder b;  // a Concat of a Concat: the inner one's whole group moves into the outer one
    b.input("x", {1, 16, 4, 4});
    conv(b, "x", 16, 16, "a", 1);
    conv(b, "x", 16, 16, "b", 2);
    conv(b, "x", 16, 32, "c", 3);
    b.node("Concat", {"a", "b"}, {"ab"}, "inner", axis_attr(1))
        .node("Concat", {"c", "ab"}, {"y"}, "outer", axis_attr(1))
        .node("Relu", {"y"}, {"z"})
        .output("z");
    cases.push_back({"nested Concats", b, 0, 2});
  }
  {
    GraphBuilder b;  // Swish convolutions: on dnnl the Swish runs after the primitive, over the part it wrote only
    b.input("x", {1, 16, 6, 6});
    conv(b, "x", 16, 16, "a", 1);
    conv(b, "x", 16, 16, "b", 2);
    b.node("Sigmoid", {"a"}, {"as"}).node("Mul", {"a", "as"}, {"sa"})
        .node("Sigmoid", {"b"}, {"bs"}).node("Mul", {"bs", "b"}, {"sb"})
        .node("Concat", {"sb", "sa"}, {"cat"}, "cat", axis_attr(1))
        .node("Relu", {"cat"}, {"y"})
        .output("y");
    cases.push_back({"parts written by Swish convolutions", b, 0, 1});
  }
  {
    GraphBuilder b;  // a is a part of cat (read at the end) and the residual of a fused Add: no writing over it
    b.input("x", {1, 16, 4, 4});
    conv(b, "x", 16, 16, "a", 1);
    conv(b, "a", 16, 16, "b", 2);
    conv(b, "a", 16, 16, "r", 3);
    b.node("Concat", {"a", "b"}, {"cat"}, "cat", axis_attr(1))
        .node("Add", {"r", "a"}, {"s"})
        .node("Concat", {"s", "s"}, {"ss"}, "ss", axis_attr(1))
        .node("Add", {"cat", "ss"}, {"y"})
        .output("y");
    cases.push_back({"a joined part is a fused residual", b, 0, 1});
  }
  {
    GraphBuilder b;  // a (40 bytes) and c2 (48) take one 64-byte slot each: c1 must not move c2 over e's part
    b.input("x", {1, 10}).input("u", {1, 2}).input("v", {1, 2});
    b.node("Relu", {"x"}, {"a"}).node("Sigmoid", {"u"}, {"b"}).node("Tanh", {"v"}, {"e"});
    b.node("Concat", {"a", "e"}, {"c1"}, "c1", axis_attr(1))
        .node("Concat", {"a", "b"}, {"c2"}, "c2", axis_attr(1))
        .node("Relu", {"c1"}, {"y1"})
        .node("Relu", {"c2"}, {"y2"})
        .output("y1")
        .output("y2");
    cases.push_back({"a part shared by two plain Concats of sizes that round alike", b, 1, 1});
  }
  {
    GraphBuilder b;  // a is the fused residual and a part of the convolution's own source: not in place
    b.input("x", {1, 16, 4, 4});
    conv(b, "x", 16, 16, "a", 1);
    conv(b, "x", 16, 16, "b", 2);
    b.node("Concat", {"a", "b"}, {"cat"}, "cat", axis_attr(1));
    conv(b, "cat", 32, 16, "k", 3);
    b.node("Add", {"k", "a"}, {"y"}).node("Relu", {"y"}, {"z"}).output("z");
    cases.push_back({"a fused residual that is a part of the convolution's source", b, 0, 1});
  }

  for (Case& c : cases) {
    const auto [graph, infos, inputs] = build(c.graph, 7);
    const std::vector<Tensor> want = node_by_node(*graph, inputs);
    for (Backend backend : {Backend::dnnl, Backend::ref}) {
      CAPTURE(c.what);
      CAPTURE(std::string(backend_name(backend)));
      auto plan = Plan::build(graph, infos, backend, kKeepConcats);
      const int joined = joined_concats(*plan);
      CAPTURE(joined);
      if (backend == Backend::ref) CHECK(joined == c.joined_ref);
      else CHECK(joined >= c.joined_dnnl);
      const std::vector<Tensor> got = run_verified(*plan, inputs);
      REQUIRE(got.size() == want.size());
      // The outputs are convolutions' (the Concats' parts): within the Conv tolerance of node-by-node results.
      for (size_t i = 0; i < got.size(); ++i) CHECK(within_tolerance("Conv", 11, got[i], want[i]) == "");
      // A second run over the same (pooled) arena gives the same bytes.
      const std::vector<Tensor> again = plan->run(inputs);
      for (size_t i = 0; i < got.size(); ++i) CHECK(compare(again[i], got[i], kExact).detail == "");
    }
  }
}

TEST_CASE("a DenseNet block: joined on ref, every part where the last Concat reads it; on dnnl where parts are runs") {
  GraphBuilder b = dense_block(1, 16, 16);
  build_graph(b.g, builtin_ops());
  auto graph = std::make_shared<const Graph>(b.g);
  auto plan = Plan::build(graph, {graph->value(graph->inputs[0]).info}, Backend::ref, kKeepConcats);
  const Graph& g = plan->graph();
  const size_t block = plan->slot(g.find_value("block")).offset, part = 16 * 6 * 6 * sizeof(float);
  for (int layer = 1; layer <= 3; ++layer) {
    CAPTURE(layer);
    CHECK(plan->slot(g.find_value("cat" + std::to_string(layer))).offset == block);
    CHECK(plan->slot(g.find_value("f" + std::to_string(layer))).offset == block + size_t(layer) * part);
  }

  // oneDNN's plan asks no layout of the convolutions for the Concats' sake (runtime/plan.cc, wished_layouts):
  // each Concat takes its parts in the layouts their convolutions pick on this CPU (channels-last with
  // AVX-512, nChw8c with AVX2), no reorder before it. A Concat is joined where its parts are runs of its
  // output: all plain (the first, whose part is a Relu of the input), or all channel-blocked in whole blocks
  // as its output is; channels-last parts are copied.
  auto fast = Plan::build(graph, {graph->value(graph->inputs[0]).info}, Backend::dnnl, kKeepConcats);
  std::set<int> reordered;  // values a reorder step writes
  for (const PlanStep& step : fast->steps())
    if (step.node < 0) reordered.insert(step.outputs.begin(), step.outputs.end());
  for (const PlanStep& step : fast->steps()) {
    if (step.node < 0 || fast->graph().nodes[size_t(step.node)].op_type != "Concat") continue;
    const std::string& name = fast->graph().nodes[size_t(step.node)].name;
    CAPTURE(name);
    const int64_t block = channel_block(step.layouts.out[0], step.out[0].shape);
    bool runs = true;
    for (size_t i = 0; i < step.inputs.size(); ++i) {
      CAPTURE(step.layouts.in[i].name());
      CHECK(reordered.count(step.inputs[i]) == 0);
      runs = runs && (block > 0 ? channel_block(step.layouts.in[i], step.in[i].shape) == block &&
                                      step.in[i].shape[1] % block == 0
                                : is_plain(step.layouts.in[i]));
    }
    CHECK(step.view == runs);
    if (name == "cat1") CHECK(step.view);
  }
}
