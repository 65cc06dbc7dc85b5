// The fuse-layer-norm, fuse-gelu and fuse-matmul-bias passes (passes/fuse_*.cc): each spelling they promise
// to recognize becomes one node, each near miss is left alone, and either way the plan's results are those of
// the same graph planned with every pass off (reference kernels), within the fused op's tolerance.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/compare.h"
#include "passes/pass.h"
#include "runtime/plan.h"
#include "tests/unit/built_graph.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

struct Pattern {
  std::string what;
  GraphBuilder graph;
  bool fused;
};

// Plans `c` with every pass on, on both backends: the step `op` (of `domain`) is there exactly when the
// pattern is fused, the pass's report says so, and the outputs are the pass-free reference plan's within
// `op`'s tolerance.
void check_patterns(std::vector<Pattern>& cases, const std::string& pass, const std::string& op,
                    const std::string& domain, int opset) {
  for (Pattern& c : cases) {
    const auto [graph, infos, inputs] = build(c.graph, 7);
    const auto plain = Plan::build(graph, infos, Backend::ref, graph_pass_names());
    const std::vector<Tensor> want = plain->run(inputs);
    for (Backend backend : {Backend::dnnl, Backend::ref}) {
      CAPTURE(c.what);
      CAPTURE(backend_name(backend));
      const auto plan = Plan::build(graph, infos, backend);
      std::string ops, kernels;
      int made = 0;
      for (const PlanStep& s : plan->steps()) {
        if (s.node < 0) continue;
        const Node& n = plan->graph().nodes[size_t(s.node)];
        ops += (ops.empty() ? "" : ",") + n.op_type;
        if (n.op_type == op && n.domain == domain) {
          ++made;
          kernels += s.kernel;
          CHECK(!n.note.empty());
        }
      }
      CAPTURE(ops);
      CHECK(made == (c.fused ? 1 : 0));
      if (c.fused && backend == Backend::dnnl) CHECK(kernels == "dnnl");
      std::string summary;
      for (const PassReport& r : plan->pass_reports())
        if (r.pass == pass) summary = r.summary();
      CAPTURE(summary);
      CHECK((summary.rfind("1 " + op + " from ", 0) == 0) == c.fused);
      const std::vector<Tensor> got = plan->run(inputs);
      REQUIRE(got.size() == want.size());
      for (size_t i = 0; i < got.size(); ++i) CHECK(within_tolerance(op, opset, got[i], want[i], domain) == "");
    }
  }
}

// ---- LayerNorm ----

struct LayerNormSpelling {
  int opset = 13;
  Shape x{2, 5, 16};
  std::vector<int64_t> axes{-1}, var_axes{-1};
  Tensor epsilon = make_tensor({}, {1e-5f});
  bool square_by_mul = false;  // Mul(d, d) instead of Pow(d, 2)
  float exponent = 2;
  bool swap_sub = false;  // Sub(mean, X)
  Shape scale{16}, bias{16};  // empty: no Mul / no Add
  bool var_read_twice = false;
};

GraphBuilder layer_norm(const LayerNormSpelling& s) {
  GraphBuilder b(s.opset);
  b.input("x", s.x).initializer("eps", s.epsilon).initializer("p", make_tensor({}, {s.exponent}));
  auto reduce_mean = [&](const std::string& in, const std::string& out, const std::vector<int64_t>& axes) {
    Attributes a;
    if (s.opset >= 18) {
      b.ints(out + "_axes", axes).node("ReduceMean", {in, out + "_axes"}, {out}, "", a);
    } else {
      a.set("axes", ints(axes));
      b.node("ReduceMean", {in}, {out}, "", a);
    }
  };
  reduce_mean("x", "mean", s.axes);
  b.node("Sub", s.swap_sub ? std::vector<std::string>{"mean", "x"} : std::vector<std::string>{"x", "mean"}, {"d"});
  if (s.square_by_mul) b.node("Mul", {"d", "d"}, {"sq"});
  else b.node("Pow", {"d", "p"}, {"sq"});
  reduce_mean("sq", "var", s.var_axes);
  b.node("Add", {"var", "eps"}, {"ve"}).node("Sqrt", {"ve"}, {"sd"}).node("Div", {"d", "sd"}, {"n"});
  std::string y = "n";
  if (!s.scale.empty()) {
    b.initializer("gamma", random_tensor(s.scale, 3, 0.5f, 2.f)).node("Mul", {y, "gamma"}, {"scaled"});
    y = "scaled";
    if (!s.bias.empty()) b.initializer("beta", random_tensor(s.bias, 4)).node("Add", {"beta", y}, {"shifted"});
    y = s.bias.empty() ? y : "shifted";
  }
  b.output(y);
  if (s.var_read_twice) b.node("Relu", {"var"}, {"var_relu"}).output("var_relu");
  return b;
}

}  // namespace

TEST_CASE("fuse-layer-norm: torch's spellings become one LayerNormalization, near misses stay") {
  std::vector<Pattern> cases;
  auto add = [&](std::string what, bool fused, auto edit) {
    LayerNormSpelling s;
    edit(s);
    cases.push_back({std::move(what), layer_norm(s), fused});
  };
  add("nn.LayerNorm(16) at opset 13", true, [](LayerNormSpelling&) {});
  add("opset 18: axes as an input", true, [](LayerNormSpelling& s) { s.opset = 18; });
  add("two trailing axes, Scale [5, 16]", true, [](LayerNormSpelling& s) {
    s.axes = s.var_axes = {1, 2};
    s.scale = s.bias = {5, 16};
  });
  add("positive axis, rank 4", true, [](LayerNormSpelling& s) {
    s.x = {2, 3, 4, 8};
    s.axes = s.var_axes = {3};
    s.scale = s.bias = {8};
  });
  add("Scale broadcast within the normalized axes ([1, 16] over axes 1, 2)", true, [](LayerNormSpelling& s) {
    s.axes = s.var_axes = {-2, -1};
    s.scale = {1, 16};
    s.bias = {1};
  });
  add("square as Mul(d, d)", true, [](LayerNormSpelling& s) { s.square_by_mul = true; });
  add("no elementwise affine", true, [](LayerNormSpelling& s) { s.scale = s.bias = {}; });
  add("Scale without B", true, [](LayerNormSpelling& s) { s.bias = {}; });
  add("epsilon of shape [1]", true, [](LayerNormSpelling& s) { s.epsilon = make_tensor({1}, {1e-3f}); });
  // Near misses.
  add("epsilon per column", false, [](LayerNormSpelling& s) { s.epsilon = random_tensor({16}, 8, 1e-5f, 1e-3f); });
  add("axes not trailing", false, [](LayerNormSpelling& s) { s.axes = s.var_axes = {1}; s.scale = s.bias = {5, 1}; });
  add("axes not contiguous", false, [](LayerNormSpelling& s) {
    s.x = {2, 3, 4, 8};
    s.axes = s.var_axes = {1, 3};
    s.scale = s.bias = {};
  });
  add("variance over other axes", false, [](LayerNormSpelling& s) { s.var_axes = {-2, -1}; });
  add("exponent 3", false, [](LayerNormSpelling& s) { s.exponent = 3; });
  add("variance also read elsewhere", false, [](LayerNormSpelling& s) { s.var_read_twice = true; });
  add("Sub(mean, X)", false, [](LayerNormSpelling& s) { s.swap_sub = true; });
  add("Scale varies along a row axis", true /* LayerNorm without the Mul */, [](LayerNormSpelling& s) {
    s.scale = {5, 1};
  });
  check_patterns(cases, "fuse-layer-norm", "LayerNormalization", "", 17);
}

TEST_CASE("fuse-layer-norm: the note names the replaced nodes, the report counts them") {
  GraphBuilder b = layer_norm({});
  const auto [graph, infos, inputs] = build(b, 3);
  const auto plan = Plan::build(graph, infos, Backend::dnnl);
  std::string summary, note;
  for (const PassReport& r : plan->pass_reports())
    if (r.pass == "fuse-layer-norm") summary = r.summary();
  for (const Node& n : plan->graph().nodes)
    if (n.op_type == "LayerNormalization") note = n.note;
  CHECK(summary == "1 LayerNormalization from 9 nodes (Add x2, Div x1, Mul x1, Pow x1, ReduceMean x2, Sqrt x1, Sub x1)");
  CHECK(note == "LayerNorm over axes 2..2 from 'ReduceMean0' 'Sub1' 'Pow2' 'ReduceMean3' 'Add4' 'Sqrt5' 'Div6' 'Mul7' 'Add8'");
  const auto off = Plan::build(graph, infos, Backend::dnnl, {"fuse-layer-norm"});
  for (const PassReport& r : off->pass_reports())
    if (r.pass == "fuse-layer-norm") CHECK(r.summary() == "disabled");
}

// ---- GELU ----

namespace {

enum class GeluGrouping { x_a_half, x_half_a, half_a_x };

// 0.5 * x * (1 + Erf(x / sqrt 2)), with the product grouped as asked and the division as Div or Mul.
GraphBuilder gelu_erf(GeluGrouping grouping, bool div, float scale, float one = 1.f) {
  GraphBuilder b;
  b.input("x", {2, 3, 40})
      .initializer("c", make_tensor({}, {scale}))
      .initializer("one", make_tensor({}, {one}))
      .initializer("half", make_tensor({}, {0.5f}));
  b.node(div ? "Div" : "Mul", div ? std::vector<std::string>{"x", "c"} : std::vector<std::string>{"c", "x"}, {"d"})
      .node("Erf", {"d"}, {"e"})
      .node("Add", {"one", "e"}, {"a"});
  switch (grouping) {
    case GeluGrouping::x_a_half: b.node("Mul", {"x", "a"}, {"m"}).node("Mul", {"m", "half"}, {"y"}); break;
    case GeluGrouping::x_half_a: b.node("Mul", {"half", "x"}, {"m"}).node("Mul", {"m", "a"}, {"y"}); break;
    case GeluGrouping::half_a_x: b.node("Mul", {"a", "half"}, {"m"}).node("Mul", {"x", "m"}, {"y"}); break;
  }
  b.output("y");
  return b;
}

// 0.5 * x * (1 + Tanh(sqrt(2/pi) * (x + 0.044715 * x^3))), x^3 as torch writes it or as Pow(x, 3).
GraphBuilder gelu_tanh(bool pow, float cube_exponent = 3.f, float coefficient = 0.044715f) {
  GraphBuilder b;
  b.input("x", {2, 3, 40})
      .initializer("k", make_tensor({}, {coefficient}))
      .initializer("s", make_tensor({}, {float(std::sqrt(2 / 3.14159265358979323846))}))
      .initializer("three", make_tensor({}, {cube_exponent}))
      .initializer("one", make_tensor({}, {1.f}))
      .initializer("half", make_tensor({}, {0.5f}));
  if (pow) b.node("Pow", {"x", "three"}, {"cube"});
  else b.node("Mul", {"x", "x"}, {"sq"}).node("Mul", {"x", "sq"}, {"cube"});
  b.node("Mul", {"k", "cube"}, {"kc"}).node("Add", {"x", "kc"}, {"u"}).node("Mul", {"s", "u"}, {"v"})
      .node("Tanh", {"v"}, {"t"}).node("Add", {"one", "t"}, {"a"}).node("Mul", {"x", "a"}, {"m"})
      .node("Mul", {"half", "m"}, {"y"}).output("y");
  return b;
}

}  // namespace

TEST_CASE("fuse-gelu: the erf spellings become one Gelu, near misses stay") {
  const float sqrt2 = float(std::sqrt(2.0)), inv_sqrt2 = float(std::sqrt(0.5));
  std::vector<Pattern> cases;
  cases.push_back({"torch nn.GELU(): Div, Erf, Add, Mul, Mul", gelu_erf(GeluGrouping::x_a_half, true, sqrt2), true});
  cases.push_back({"x * 0.5 first", gelu_erf(GeluGrouping::x_half_a, true, sqrt2), true});
  cases.push_back({"(a * 0.5) * x, Mul by 1/sqrt(2)", gelu_erf(GeluGrouping::half_a_x, false, inv_sqrt2), true});
  cases.push_back({"Div by 1.5", gelu_erf(GeluGrouping::x_a_half, true, 1.5f), false});
  cases.push_back({"Mul by sqrt(2)", gelu_erf(GeluGrouping::x_a_half, false, sqrt2), false});
  cases.push_back({"1.01 + Erf", gelu_erf(GeluGrouping::x_a_half, true, sqrt2, 1.01f), false});
  GraphBuilder extra = gelu_erf(GeluGrouping::x_a_half, true, sqrt2);
  extra.output("e");
  cases.push_back({"Erf output also a graph output", extra, false});
  check_patterns(cases, "fuse-gelu", "Gelu", kInternalDomain, 1);
}

TEST_CASE("fuse-gelu: the tanh spellings become one GeluTanh, near misses stay") {
  std::vector<Pattern> cases;
  cases.push_back({"torch nn.GELU(approximate='tanh')", gelu_tanh(false), true});
  cases.push_back({"x^3 as Pow(x, 3)", gelu_tanh(true), true});
  cases.push_back({"Pow(x, 2)", gelu_tanh(true, 2.f), false});
  cases.push_back({"coefficient 0.05", gelu_tanh(false, 3.f, 0.05f), false});
  GraphBuilder extra = gelu_tanh(false);
  extra.node("Relu", {"u"}, {"r"}).output("r");
  cases.push_back({"x + 0.044715 x^3 also read elsewhere", extra, false});
  check_patterns(cases, "fuse-gelu", "GeluTanh", kInternalDomain, 1);
}

TEST_CASE("fuse-gelu then fuse-conv: a Conv followed by GELU runs it as a post-op") {
  GraphBuilder b;
  Attributes pads;
  pads.set("pads", ints({1, 1, 1, 1}));
  b.input("x0", {1, 8, 6, 6}).initializer("w", random_tensor({8, 8, 3, 3}, 1, -0.3f, 0.3f));
  b.node("Conv", {"x0", "w"}, {"x"}, "conv", pads);
  GraphBuilder g = gelu_erf(GeluGrouping::x_a_half, true, float(std::sqrt(2.0)));
  for (Node n : g.g.nodes) {  // the GELU over the Conv's output
    std::vector<std::string> ins, outs;
    for (int id : n.inputs) ins.push_back(g.g.value(id).name);
    for (int id : n.outputs) outs.push_back(g.g.value(id).name);
    b.node(n.op_type, ins, outs, n.name);
  }
  for (const char* c : {"c", "one", "half"}) b.initializer(c, *g.g.value(g.g.find_value(c)).info.constant);
  b.output("y");
  const auto [graph, infos, inputs] = build(b, 5);
  const Tensor want = Plan::build(graph, infos, Backend::ref, graph_pass_names())->run(inputs)[0];
  for (Backend backend : {Backend::dnnl, Backend::ref}) {
    CAPTURE(backend_name(backend));
    const auto plan = Plan::build(graph, infos, backend);
    std::string ops;
    for (const PlanStep& s : plan->steps()) {
      if (s.node < 0) continue;  // reorders
      const Node& n = plan->graph().nodes[size_t(s.node)];
      ops += (ops.empty() ? "" : ",") + n.op_type;
      CHECK(n.note.find("Conv+Gelu from 'conv'") == 0);
    }
    CHECK(ops == "FusedConv");
    CHECK(within_tolerance("Conv", 11, plan->run(inputs)[0], want) == "");
  }
}

// ---- HardSwish ----

namespace {

// [Conv ->] x * HardSigmoid(x), as torch.onnx writes nn.Hardswish below opset 14.
GraphBuilder hardswish(float alpha, float beta, bool gate_first = false, bool conv = false) {
  GraphBuilder b;
  Attributes hard_sigmoid;
  hard_sigmoid.set("alpha", float_attr(alpha));
  hard_sigmoid.set("beta", float_attr(beta));
  if (conv) {
    Attributes pads;
    pads.set("pads", ints({1, 1, 1, 1}));
    b.input("x0", {1, 8, 6, 6}).initializer("w", random_tensor({16, 8, 3, 3}, 1, -0.3f, 0.3f));
    b.node("Conv", {"x0", "w"}, {"x"}, "conv", pads);
  } else {
    b.input("x", {2, 16, 5, 5});
  }
  b.node("HardSigmoid", {"x"}, {"gate"}, "hard_sigmoid", hard_sigmoid)
      .node("Mul", gate_first ? std::vector<std::string>{"gate", "x"} : std::vector<std::string>{"x", "gate"}, {"y"},
            "mul")
      .output("y");
  return b;
}

}  // namespace

TEST_CASE("fuse-hardswish: x * HardSigmoid(x) with alpha 1/6, beta 1/2 becomes one HardSwish, near misses stay") {
  const float sixth = 1.f / 6;
  std::vector<Pattern> cases;
  cases.push_back({"torch nn.Hardswish (opset 13): Mul(x, HardSigmoid(x))", hardswish(sixth, 0.5f), true});
  cases.push_back({"Mul(HardSigmoid(x), x)", hardswish(sixth, 0.5f, true), true});
  cases.push_back({"HardSigmoid's default alpha 0.2", hardswish(0.2f, 0.5f), false});
  cases.push_back({"beta 0.6", hardswish(sixth, 0.6f), false});
  GraphBuilder gate_out = hardswish(sixth, 0.5f);
  gate_out.output("gate");
  cases.push_back({"HardSigmoid output also a graph output", gate_out, false});
  GraphBuilder other = hardswish(sixth, 0.5f);
  other.input("z", {2, 16, 5, 5}).node("HardSigmoid", {"z"}, {"gz"}).node("Mul", {"x", "gz"}, {"y2"}).output("y2");
  cases.push_back({"plus Mul(x, HardSigmoid(z)): only the first fuses", other, true});
  check_patterns(cases, "fuse-hardswish", "HardSwish", "", 14);
}

TEST_CASE("fuse-hardswish then fuse-conv: a Conv followed by x * HardSigmoid(x) is one FusedConv") {
  GraphBuilder b = hardswish(1.f / 6, 0.5f, false, true);
  const auto [graph, infos, inputs] = build(b, 5);
  const Tensor want = Plan::build(graph, infos, Backend::ref, graph_pass_names())->run(inputs)[0];
  for (Backend backend : {Backend::dnnl, Backend::ref}) {
    CAPTURE(backend_name(backend));
    const auto plan = Plan::build(graph, infos, backend);
    std::string ops, note;
    for (const PlanStep& s : plan->steps()) {
      if (s.node < 0) continue;  // reorders
      const Node& n = plan->graph().nodes[size_t(s.node)];
      ops += (ops.empty() ? "" : ",") + n.op_type;
      note = n.note;
    }
    CHECK(ops == "FusedConv");
    CHECK(note.find("Conv+HardSwish from 'conv' 'mul'") == 0);
    CHECK(within_tolerance("Conv", 11, plan->run(inputs)[0], want) == "");
  }
}

// ---- MatMul + bias ----

namespace {

GraphBuilder matmul_add(Shape a, Shape b_shape, Shape bias, bool constant_b = true, bool bias_first = false) {
  GraphBuilder b;
  b.input("a", a).initializer("bias", random_tensor(bias, 2, -2.f, 2.f));
  if (constant_b) b.initializer("b", random_tensor(b_shape, 1));
  else b.input("b", b_shape);
  b.node("MatMul", {"a", "b"}, {"mm"})
      .node("Add", bias_first ? std::vector<std::string>{"bias", "mm"} : std::vector<std::string>{"mm", "bias"}, {"y"})
      .output("y");
  return b;
}

}  // namespace

TEST_CASE("fuse-matmul-bias: MatMul then Add of a per-column constant becomes one FusedMatMul") {
  std::vector<Pattern> cases;
  cases.push_back({"nn.Linear on [2, 7, 16]: Add(bias, MatMul)", matmul_add({2, 7, 16}, {16, 8}, {8}, true, true), true});
  cases.push_back({"2-D, bias [1, 8]", matmul_add({7, 16}, {16, 8}, {1, 8}), true});
  cases.push_back({"batched B, bias [1, 1, 8]", matmul_add({3, 7, 16}, {3, 16, 8}, {1, 1, 8}), true});
  cases.push_back({"1-D A", matmul_add({16}, {16, 8}, {8}), true});
  cases.push_back({"bias per row and column [7, 8]", matmul_add({2, 7, 16}, {16, 8}, {7, 8}), false});
  cases.push_back({"bias of one value [1]", matmul_add({2, 7, 16}, {16, 8}, {1}), false});
  cases.push_back({"bias makes the output larger", matmul_add({7, 16}, {16, 8}, {2, 1, 8}), false});
  cases.push_back({"B is a graph input", matmul_add({7, 16}, {16, 8}, {8}, false), false});
  GraphBuilder twice = matmul_add({7, 16}, {16, 8}, {8});
  twice.output("mm");
  cases.push_back({"MatMul output also a graph output", twice, false});
  check_patterns(cases, "fuse-matmul-bias", "FusedMatMul", kInternalDomain, 1);
}

TEST_CASE("fuse-matmul-bias: a residual Add and an activation after the bias join the FusedMatMul") {
  // MatMul -> Add(bias) -> [Add(r)] -> [activation], each value read once unless the case says otherwise (the
  // Gelu that fuse-gelu makes, the transformers' activation, is in tests/passes/torch_fusions.py).
  struct Tail {
    std::string what;
    bool residual = false, constant_residual = false, relu = false, tanh = false, act_reads_residual = false;
    bool also_output = false;  // the biased value is also a graph output
    std::string ops, note;     // the plan's node ops, and the fused node's note prefix
  };
  const Tail tails[] = {
      {"bias, residual, Tanh", true, false, false, true, false, false, "FusedMatMul", "MatMul+bias+Add+Tanh from"},
      {"bias, Relu", false, false, true, false, false, false, "FusedMatMul", "MatMul+bias+Relu from"},
      {"bias, residual", true, false, false, false, false, false, "FusedMatMul", "MatMul+bias+Add from"},
      {"near miss: a constant residual stays an Add", true, true, false, false, false, false, "FusedMatMul,Add",
       "MatMul+bias from"},
      {"near miss: the activation reads another value", false, false, true, false, true, false, "Relu,FusedMatMul",
       "MatMul+bias from"},
      {"near miss: the biased value is also a graph output", true, false, true, false, false, true,
       "FusedMatMul,Add,Relu", "MatMul+bias from"},
  };
  for (const Tail& t : tails) {
    CAPTURE(t.what);
    GraphBuilder b;
    b.input("a", {2, 7, 16}).initializer("b", random_tensor({16, 8}, 1)).initializer("bias", random_tensor({8}, 2));
    if (t.constant_residual) b.initializer("r", random_tensor({2, 7, 8}, 3));
    else b.input("r", {2, 7, 8});
    b.node("MatMul", {"a", "b"}, {"mm"}).node("Add", {"mm", "bias"}, {"y0"});
    std::string y = "y0";
    if (t.residual) {
      b.node("Add", {"r", y}, {"y1"});
      y = "y1";
    }
    if (t.relu) {
      b.node("Relu", {t.act_reads_residual ? "r" : y}, {"y2"});
      if (t.act_reads_residual) b.output(y);
      y = "y2";
    }
    if (t.tanh) {
      b.node("Tanh", {y}, {"y3"});
      y = "y3";
    }
    b.output(y);
    if (t.also_output) b.output("y0");
    const auto [graph, infos, inputs] = build(b, 11);
    const std::vector<Tensor> want = Plan::build(graph, infos, Backend::ref, graph_pass_names())->run(inputs);
    for (Backend backend : {Backend::dnnl, Backend::ref}) {
      CAPTURE(backend_name(backend));
      const auto plan = Plan::build(graph, infos, backend);
      std::string ops, note;
      for (const PlanStep& s : plan->steps()) {
        if (s.node < 0) continue;
        const Node& n = plan->graph().nodes[size_t(s.node)];
        ops += (ops.empty() ? "" : ",") + n.op_type;
        if (n.op_type == "FusedMatMul") note = n.note;
      }
      CAPTURE(note);
      CHECK(ops == t.ops);
      CHECK(note.rfind(t.note, 0) == 0);
      const std::vector<Tensor> got = plan->run(inputs);
      REQUIRE(got.size() == want.size());
      for (size_t i = 0; i < got.size(); ++i)
        CHECK(within_tolerance("FusedMatMul", 1, got[i], want[i], kInternalDomain) == "");
    }
  }
}

TEST_CASE("ops of the cnnx.internal domain are not read from models") {
  GraphBuilder b;
  b.g.opsets[kInternalDomain] = 1;
  b.input("x", {2, 3}).node("Gelu", {"x"}, {"y"}, "inside", {}, kInternalDomain).output("y");
  std::string err;
  try {
    build_graph(b.g, builtin_ops());
  } catch (const Error& e) {
    err = e.what();
  }
  CHECK(err.find("node 'inside' (cnnx.internal:Gelu)") != std::string::npos);
  CHECK(err.find("not read from models") != std::string::npos);
}
