// The passes for tf2onnx's spellings (passes/cancel_transposes.cc, fold_mul_add.cc,
// pad_through_transpose.cc, reduce_before_transpose.cc): each pattern they promise to take leaves the plan without the nodes it names,
// each near miss keeps them and its pass says why, and either way the plan's results, on both backends, are
// those of the same graph planned with every pass off on the reference kernels, within the Conv's tolerance.
#include <doctest/doctest.h>

#include <limits>

#include "passes/pass.h"
#include "runtime/plan.h"
#include "tests/unit/built_graph.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

struct Case {
  std::string what;
  GraphBuilder graph;
  std::string gone;     // an op type the pass removes: absent from the plan when taken, present when not
  bool taken;
  std::string pass;     // the pass under test
  bool left_alone = false;  // the pass reports a near match it left alone
  std::string tolerance_op = "Conv";  // whose tolerance the results are compared with
};

Attributes conv_attrs(std::vector<int64_t> pads = {1, 1, 1, 1}) {
  Attributes a;
  a.set("kernel_shape", ints_attr({3, 3}));
  a.set("pads", ints_attr(std::move(pads)));
  return a;
}

Attributes perm(std::vector<int64_t> p) {
  Attributes a;
  a.set("perm", ints_attr(std::move(p)));
  return a;
}

// x [1, 4, 6, 6] -> Conv 4 -> 5 (3x3, pads 1, bias when `bias`) -> "conv".
GraphBuilder conv_graph(bool bias = false) {
  GraphBuilder b;
  b.input("x", {1, 4, 6, 6}).initializer("W", random_tensor({5, 4, 3, 3}, 11, -0.25f, 0.25f));
  if (bias) b.initializer("B", random_tensor({5}, 12));
  b.node("Conv", bias ? std::vector<std::string>{"x", "W", "B"} : std::vector<std::string>{"x", "W"}, {"conv"}, "conv",
         conv_attrs());
  return b;
}

// conv -> Mul(scale of `scale_shape`) -> Add(offset of `offset_shape`) -> Clip(0, 6): BatchNorm and Relu6 as
// tf2onnx writes them.
GraphBuilder conv_mul_add(Shape scale_shape, Shape offset_shape, bool bias = false) {
  GraphBuilder b = conv_graph(bias);
  b.initializer("scale", random_tensor(scale_shape, 13, 0.5f, 1.5f))
      .initializer("offset", random_tensor(offset_shape, 14))
      .initializer("lo", make_tensor({}, {0.f}))
      .initializer("hi", make_tensor({}, {6.f}))
      .node("Mul", {"conv", "scale"}, {"scaled"}, "mul")
      .node("Add", {"offset", "scaled"}, {"shifted"}, "add")
      .node("Clip", {"shifted", "lo", "hi"}, {"y"}, "relu6")
      .output("y");
  return b;
}

void check_cases(std::vector<Case>& cases) {
  for (Case& c : cases) {
    const auto [graph, infos, inputs] = build(c.graph, 7);
    const std::vector<Tensor> want = Plan::build(graph, infos, Backend::ref, graph_pass_names())->run(inputs);
    for (Backend backend : {Backend::dnnl, Backend::ref}) {
      CAPTURE(c.what);
      CAPTURE(backend_name(backend));
      const auto plan = Plan::build(graph, infos, backend);
      std::string ops;
      int gone = 0;
      for (const PlanStep& s : plan->steps()) {
        if (s.node < 0) continue;
        const Node& n = plan->graph().nodes[size_t(s.node)];
        ops += (ops.empty() ? "" : ",") + n.op_type;
        gone += n.op_type == c.gone;
      }
      CAPTURE(ops);
      if (!c.gone.empty()) CHECK((gone == 0) == c.taken);
      std::string summary;
      for (const PassReport& r : plan->pass_reports())
        if (r.pass == c.pass) {
          summary = r.summary();
          CAPTURE(summary);
          CHECK((summary != "no match") == c.taken);
          CHECK(r.declined.empty() == !c.left_alone);
        }
      const std::vector<Tensor> got = plan->run(inputs);
      REQUIRE(got.size() == want.size());
      for (size_t i = 0; i < got.size(); ++i) CHECK(within_tolerance(c.tolerance_op, 13, got[i], want[i]) == "");
    }
  }
}

}  // namespace

TEST_CASE("fold-mul-add: per-output-channel Mul and Add after a Conv fold into it; near misses stay") {
  const std::string pass = "fold-mul-add";
  std::vector<Case> cases;
  cases.push_back({"[1, M, 1, 1] then [M, 1, 1]", conv_mul_add({1, 5, 1, 1}, {5, 1, 1}), "Mul", true, pass});
  cases.push_back({"with the Conv's bias, scalars", conv_mul_add({}, {1}, true), "Mul", true, pass});
  cases.push_back({"[1, 1, 1, 1] and [1, 5, 1, 1]", conv_mul_add({1, 1, 1, 1}, {1, 5, 1, 1}), "Add", true, pass});
  // Near misses: [6] broadcasts along W, [1, 5, 6, 6] per pixel, a rank-5 constant adds an axis.
  cases.push_back({"a constant along W", conv_mul_add({6}, {5, 1, 1}), "Mul", false, pass, true});
  cases.push_back({"a constant per pixel", conv_mul_add({1, 5, 6, 6}, {5, 1, 1}), "Mul", false, pass, true});
  cases.push_back({"a rank-5 constant", conv_mul_add({1, 1, 5, 1, 1}, {5, 1, 1}), "Mul", false, pass, true});
  {
    GraphBuilder b = conv_graph();
    b.initializer("c", random_tensor({1, 5, 1, 1}, 3)).node("Sub", {"conv", "c"}, {"y"}, "sub").output("y");
    cases.push_back({"Sub of a constant", b, "Sub", true, pass});
  }
  {
    GraphBuilder b = conv_graph();
    b.initializer("c", random_tensor({1, 5, 1, 1}, 3)).node("Sub", {"c", "conv"}, {"y"}, "sub").output("y");
    cases.push_back({"Sub from a constant", b, "Sub", false, pass, true});
  }
  {
    GraphBuilder b = conv_graph();
    b.input("s", {1, 5, 1, 1}).node("Mul", {"conv", "s"}, {"y"}, "mul").output("y");
    cases.push_back({"a scale read at run time", b, "Mul", false, pass});
  }
  {
    GraphBuilder b = conv_graph();
    b.initializer("c", make_tensor({1, 5, 1, 1}, {1, 2, std::numeric_limits<float>::infinity(), 1, 1}))
        .node("Mul", {"conv", "c"}, {"y"}, "mul")
        .output("y");
    cases.push_back({"a scale with inf", b, "Mul", false, pass, true});
  }
  {
    GraphBuilder b = conv_graph();
    b.initializer("c", random_tensor({1, 5, 1, 1}, 3))
        .node("Mul", {"conv", "c"}, {"y"}, "mul")
        .node("Relu", {"conv"}, {"r"}, "relu")
        .output("y")
        .output("r");
    cases.push_back({"the Conv's output read twice", b, "Mul", false, pass, true});
  }
  {
    GraphBuilder b = conv_graph();
    b.initializer("c", random_tensor({1, 5, 1, 1}, 3)).node("Mul", {"conv", "c"}, {"y"}, "mul").output("y").output("conv");
    cases.push_back({"the Conv's output a graph output", b, "Mul", false, pass});
  }
  check_cases(cases);
}

TEST_CASE("cancel-transposes: NHWC round trips go, Transpose pairs become one, identities go") {
  const std::string pass = "cancel-transposes";
  std::vector<Case> cases;
  auto round_trip = [](std::vector<int64_t> second, bool relu_after = true) {
    GraphBuilder b = conv_graph();
    b.node("Transpose", {"conv"}, {"nhwc"}, "to_nhwc", perm({0, 2, 3, 1}))
        .node("Transpose", {"nhwc"}, {"back"}, "to_nchw", perm(std::move(second)));
    if (relu_after) b.node("Relu", {"back"}, {"y"}, "relu").output("y");
    else b.output("back");
    return b;
  };
  cases.push_back({"(0,2,3,1) then (0,3,1,2)", round_trip({0, 3, 1, 2}), "Transpose", true, pass});
  {
    GraphBuilder b = conv_graph();
    b.node("Transpose", {"conv"}, {"same"}, "identity", perm({0, 1, 2, 3})).node("Relu", {"same"}, {"y"}).output("y");
    cases.push_back({"an identity perm", b, "Transpose", true, pass});
  }
  {
    GraphBuilder b = conv_graph();
    b.node("Transpose", {"conv"}, {"y"}, "identity", perm({0, 1, 2, 3})).output("y");
    cases.push_back({"an identity perm writing a graph output", b, "Transpose", false, pass, true});
  }
  check_cases(cases);

  // (0,2,3,1) then (0,2,1,3) is one Transpose (0,3,2,1) of the Conv's output, with the same result.
  GraphBuilder b = round_trip({0, 2, 1, 3});
  const auto [graph, infos, inputs] = build(b, 7);
  const Tensor want = Plan::build(graph, infos, Backend::ref, graph_pass_names())->run(inputs)[0];
  for (Backend backend : {Backend::dnnl, Backend::ref}) {
    CAPTURE(backend_name(backend));
    const auto plan = Plan::build(graph, infos, backend);
    int transposes = 0;
    for (const Node& n : plan->graph().nodes) {
      if (n.op_type != "Transpose") continue;
      ++transposes;
      CHECK(n.note == "Transpose(0,3,2,1) from 'to_nhwc' 'to_nchw'");
    }
    CHECK(transposes == 1);
    CHECK(within_tolerance("Conv", 11, plan->run(inputs)[0], want) == "");
  }
}

TEST_CASE("pad-through-transpose: Keras' ZeroPadding2D in NHWC before the Transpose into a Conv folds into the Conv") {
  const std::string pass = "pad-through-transpose";
  auto nhwc = [](const std::string& mode, bool pool) {
    GraphBuilder b;
    b.input("x", {1, 6, 6, 4})
        .ints("pads", {0, 0, 0, 0, 0, 1, 1, 0})
        .initializer("W", random_tensor({5, 4, 3, 3}, 11, -0.25f, 0.25f));
    Attributes a;
    a.set("mode", string_attr(mode));
    b.node("Pad", {"x", "pads"}, {"padded"}, "zero_padding", a)
        .node("Transpose", {"padded"}, {"nchw"}, "to_nchw", perm({0, 3, 1, 2}));
    if (pool) {
      Attributes p;
      p.set("kernel_shape", ints_attr({3, 3}));
      p.set("strides", ints_attr({2, 2}));
      p.set("count_include_pad", int_attr(1));
      b.node("AveragePool", {"nchw"}, {"y"}, "pool", p);
    } else {
      Attributes c = conv_attrs({0, 0, 0, 0});
      c.set("strides", ints_attr({2, 2}));
      b.node("Conv", {"nchw", "W"}, {"y"}, "conv", c);
    }
    b.output("y");
    return b;
  };
  std::vector<Case> cases;
  cases.push_back({"Pad -> Transpose -> Conv", nhwc("constant", false), "Pad", true, pass});
  cases.push_back({"Pad -> Transpose -> AveragePool", nhwc("constant", true), "Pad", true, pass});
  cases.push_back({"reflect mode", nhwc("reflect", false), "Pad", false, pass, true});
  check_cases(cases);
}

TEST_CASE("reduce-before-transpose: a reduction of an NHWC view reduces the NCHW tensor, then permutes the result") {
  const std::string pass = "reduce-before-transpose";
  // conv [1, 5, 6, 6] -> Transpose(perm) -> `reduce`(axes, keepdims); opset 18 gives the axes as an input.
  auto head = [](const std::string& reduce, std::vector<int64_t> axes, bool keepdims, int opset = 13,
                 bool transpose_read_twice = false) {
    GraphBuilder b(opset);
    b.input("x", {1, 4, 6, 6}).initializer("W", random_tensor({5, 4, 3, 3}, 11, -0.25f, 0.25f));
    b.node("Conv", {"x", "W"}, {"conv"}, "conv", conv_attrs());
    b.node("Transpose", {"conv"}, {"nhwc"}, "to_nhwc", perm({0, 2, 3, 1}));
    Attributes a;
    a.set("keepdims", int_attr(keepdims ? 1 : 0));
    if (opset >= 18) {
      b.ints("axes", axes).node(reduce, {"nhwc", "axes"}, {"y"}, "reduce", a);
    } else {
      a.set("axes", ints_attr(axes));
      b.node(reduce, {"nhwc"}, {"y"}, "reduce", a);
    }
    b.output("y");
    if (transpose_read_twice) b.node("Relu", {"nhwc"}, {"r"}, "relu").output("r");
    return b;
  };
  std::vector<Case> cases;
  cases.push_back({"GlobalAveragePooling2D: axes 1, 2, keepdims", head("ReduceMean", {1, 2}, true), "ReduceMean", true,
                   pass, false, "ReduceMean"});
  cases.push_back({"axes 1, 2, no keepdims: no Transpose left", head("ReduceMean", {1, 2}, false), "Transpose", true,
                   pass, false, "ReduceMean"});
  // ReduceMax is exact: what differs is the Conv's.
  cases.push_back({"axis 1, no keepdims: a Transpose of the result", head("ReduceMax", {1}, false), "", true, pass,
                   false, "Conv"});
  cases.push_back({"axes -1 (channels), opset 18", head("ReduceSum", {-1}, true, 18), "", true, pass, false, "ReduceSum"});
  cases.push_back({"the Transpose read by another node too", head("ReduceMean", {1, 2}, true, 13, true), "", false,
                   pass, false, "ReduceMean"});
  check_cases(cases);
}

TEST_CASE("elementwise-before-transpose: BatchNorm and Relu6 written in NHWC between Transposes fold into the Conv") {
  const std::string pass = "elementwise-before-transpose";
  // conv [1, 5, 6, 6] -> Transpose(0,2,3,1) -> Mul(scale) -> Add(offset) -> Clip(0, 6) -> Transpose(0,3,1,2) -> Relu.
  auto nhwc_bn = [](Shape scale_shape) {
    GraphBuilder b = conv_graph();
    b.initializer("scale", random_tensor(scale_shape, 13, 0.5f, 1.5f))
        .initializer("offset", random_tensor({5}, 14))
        .initializer("lo", make_tensor({}, {0.f}))
        .initializer("hi", make_tensor({}, {6.f}))
        .node("Transpose", {"conv"}, {"nhwc"}, "to_nhwc", perm({0, 2, 3, 1}))
        .node("Mul", {"nhwc", "scale"}, {"scaled"}, "mul")
        .node("Add", {"offset", "scaled"}, {"shifted"}, "add")
        .node("Clip", {"shifted", "lo", "hi"}, {"relu6"}, "relu6")
        .node("Transpose", {"relu6"}, {"nchw"}, "to_nchw", perm({0, 3, 1, 2}))
        .node("Relu", {"nchw"}, {"y"}, "next")  // a graph output Transpose would be kept under its name
        .output("y");
    return b;
  };
  std::vector<Case> cases;
  cases.push_back({"scale [C]", nhwc_bn({5}), "Transpose", true, pass});
  cases.push_back({"scale [1, 1, 1, C]", nhwc_bn({1, 1, 1, 5}), "Mul", true, pass});
  // [6, 1] right-aligns with W, C: per (w, c), not per channel: moved before the Transpose, not into the Conv.
  cases.push_back({"scale [6, 1] (per W): moved, not folded", nhwc_bn({6, 1}), "Transpose", true, pass});
  cases.push_back({"scale [2, 6, 6, 5] widens the batch", nhwc_bn({2, 6, 6, 5}), "Transpose", false, pass, true});
  check_cases(cases);
}
