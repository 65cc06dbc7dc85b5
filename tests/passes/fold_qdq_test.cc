// The fold-qdq pass (passes/fold_qdq.cc): DQ(x), DQ(W), DQ(B) -> Conv [-> Relu | Clip] -> Q becomes one
// QLinearConv / FusedQLinearConv running oneDNN's int8 kernel; near misses stay float and say why. Either way
// the outputs are the pass-free reference plan's (the QDQ graph in float32) within one quantization step per
// element: both round the same real value, the float32 path with an error far below a step here (K = 72 terms
// of at most 2 * 1.92 each, sum |terms| < 300, times K * 2^-24 is 1.3e-3 against a step of 0.1: the pass's
// derivation), so they differ only near rounding ties.
#include <doctest/doctest.h>

#include <cmath>

#include "passes/pass.h"
#include "runtime/plan.h"
#include "tests/unit/built_graph.h"
#include "tests/unit/quant_tensors.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

constexpr float kXScale = 0.02f, kYScale = 0.1f;
constexpr int64_t M = 6;

// Checks got against want, float outputs of a quantized graph, in steps of `step`: each element equal (float32
// values that round alike) or off by at most `max_steps`; prints how many of each (-s), headed by `what`.
void check_steps_apart(const Tensor& got, const Tensor& want, double step, double max_steps, const std::string& what) {
  int64_t equal = 0, off = 0, worse = 0;
  for (int64_t i = 0; i < got.numel(); ++i) {
    const double steps = std::fabs(double(got.data<float>()[i]) - double(want.data<float>()[i])) / step;
    if (steps < 1e-3) ++equal;
    else if (steps <= max_steps + 1e-5) ++off;
    else ++worse;
  }
  CAPTURE(what);
  CAPTURE(equal);
  CAPTURE(off);
  CHECK(worse == 0);
  MESSAGE(what << ": " << equal << " equal, " << off << " at most " << max_steps << " step(s) off");
}

// What a test reads from a plan: its node ops in order, how many reorder steps, the fold-qdq pass's summary and
// near misses (one a line), and for the first step running `op`, its kernel and its input `input`'s layout with
// the kernel ("acdb native").
struct PlanSummary {
  std::string ops, summary, declined, kernel, layout;
  int64_t reorders = 0;
};
PlanSummary summarize(const Plan& plan, const std::string& op = "", size_t input = 0) {
  PlanSummary r;
  for (const PlanStep& s : plan.steps()) {
    if (s.node < 0) {
      ++r.reorders;
      continue;
    }
    const Node& n = plan.graph().nodes[size_t(s.node)];
    r.ops += (r.ops.empty() ? "" : ",") + n.op_type;
    if (n.op_type != op || !r.kernel.empty()) continue;
    r.kernel = s.kernel;
    r.layout = s.layouts.in[input].name() + " " + s.kernel;
  }
  for (const PassReport& p : plan.pass_reports())
    if (p.pass == "fold-qdq") {
      r.summary = p.summary();
      for (const std::string& d : p.declined) r.declined += d + "\n";
    }
  return r;
}

enum class Tail { none, relu, clip };

struct QdqConv {
  Tail tail = Tail::none;
  float bias_scale_factor = 1;  // != 1: B's scale is not x_scale * w_scale (a near miss)
  bool conv_output_read_twice = false;
  DType y_type = DType::u8;
  bool float_bias = false;  // B a float32 constant (PyTorch QAT's export), not a DequantizeLinear
};

GraphBuilder qdq_conv(const QdqConv& s) {
  GraphBuilder b(13);
  std::vector<float> w_scale, b_scale;
  for (int64_t m = 0; m < M; ++m) {
    w_scale.push_back(0.004f + 0.002f * float(m));
    b_scale.push_back(kXScale * w_scale.back() * s.bias_scale_factor);
  }
  Attributes axis0;
  axis0.set("axis", int_attr(0));
  Attributes pads;
  pads.set("pads", ints_attr({1, 1, 1, 1}));
  const int64_t y_zp = s.y_type == DType::u8 ? 128 : 0;
  b.input("x", {1, 8, 6, 6})
      .initializer("x_scale", scalar_f32(kXScale)).initializer("x_zp", zero_point(DType::u8, 128))
      .initializer("w", random_quantized(DType::i8, {M, 8, 3, 3}, 81))
      .initializer("w_scale", floats_1d(w_scale)).initializer("w_zp", zero_points(DType::i8, std::vector<int64_t>(M, 0)))
      .initializer("b", typed_tensor(DType::i32, {M}, {1500, -700, 300, -2000, 0, 950})).initializer("b_scale", floats_1d(b_scale))
      .initializer("y_scale", scalar_f32(kYScale)).initializer("y_zp", zero_point(s.y_type, y_zp))
      .initializer("lo", make_tensor({}, {0.f})).initializer("hi", make_tensor({}, {6.f}))
      .node("QuantizeLinear", {"x", "x_scale", "x_zp"}, {"xq"}, "q_x")
      .node("DequantizeLinear", {"xq", "x_scale", "x_zp"}, {"xf"}, "dq_x")
      .node("DequantizeLinear", {"w", "w_scale", "w_zp"}, {"wf"}, "dq_w", axis0)
      .node("DequantizeLinear", {"b", "b_scale"}, {"bf"}, "dq_b", axis0)
      .initializer("b_float", floats_1d({0.3f, -0.2f, 0.05f, 0.f, 0.11f, -0.4f}))
      .node("Conv", {"xf", "wf", s.float_bias ? "b_float" : "bf"}, {"c"}, "conv", pads);
  std::string last = "c";
  if (s.tail != Tail::none) {
    if (s.tail == Tail::relu) b.node("Relu", {"c"}, {"r"}, "relu");
    else b.node("Clip", {"c", "lo", "hi"}, {"r"}, "relu6");
    last = "r";
  }
  b.node("QuantizeLinear", {last, "y_scale", "y_zp"}, {"yq"}, "q_y")
      .node("DequantizeLinear", {"yq", "y_scale", "y_zp"}, {"y"}, "dq_y")
      .output("y");
  if (s.conv_output_read_twice) b.output("c");
  return b;
}

struct Case {
  std::string what;
  QdqConv spec;
  std::string op;  // the folded node's op, "" when left alone
};

}  // namespace

TEST_CASE("fold-qdq: DQ -> Conv [-> Relu/Clip] -> Q runs as one int8 convolution; near misses stay float") {
  const std::vector<Case> cases = {
      {"no activation", {}, "QLinearConv"},
      {"Relu", {Tail::relu}, "FusedQLinearConv"},
      {"Clip(0, 6), int8 y", {Tail::clip, 1, false, DType::i8}, "FusedQLinearConv"},
      {"float32 B", {Tail::relu, 1, false, DType::u8, true}, "FusedQLinearConv"},
      {"B at another scale", {Tail::none, 2}, ""},
      {"Conv output also a graph output", {Tail::relu, 1, true}, ""},
  };
  for (const Case& c : cases) {
    GraphBuilder gb = qdq_conv(c.spec);
    const auto [graph, infos, inputs] = build(gb, 9);
    const std::vector<Tensor> want = Plan::build(graph, infos, Backend::ref, graph_pass_names())->run(inputs);
    for (Backend backend : {Backend::dnnl, Backend::ref}) {
      CAPTURE(c.what);
      CAPTURE(backend_name(backend));
      const auto plan = Plan::build(graph, infos, backend);
      const PlanSummary p = summarize(*plan, c.op);
      const std::string &ops = p.ops, &kernel = p.kernel, &summary = p.summary, &declined = p.declined;
      CAPTURE(ops);
      CAPTURE(summary);
      CAPTURE(declined);
      if (c.op.empty()) {
        CHECK(summary == "no match");
        CHECK(declined.find("Conv 'conv': ") != std::string::npos);
        CHECK(ops.find("QLinearConv") == std::string::npos);
      } else {
        CHECK(summary.rfind("1 " + c.op + " from ", 0) == 0);
        CHECK(declined.empty());
        CHECK(("," + ops + ",").find(",Conv,") == std::string::npos);
        CHECK(kernel == (backend == Backend::dnnl ? "dnnl" : "ref"));
      }
      const std::vector<Tensor> got = plan->run(inputs);
      REQUIRE(got.size() == want.size());
      for (size_t o = 0; o < got.size(); ++o) {
        // Equal: float32 Conv outputs (a near miss's graph output) round alike.
        // Off by one only near ties, whose share the rule does not bound: shown with -s.
        check_steps_apart(got[o], want[o], kYScale, 1,
                          c.what + ", " + backend_name(backend) + ", output " + std::to_string(o));
      }
    }
  }
}

namespace {

// A residual block as quantizers write it: x -> Q -> DQ -> Conv (8 -> 8) -> Relu -> Q -> DQ, added to DQ(xq),
// -> Relu -> Q -> DQ -> MaxPool 2x2 -> Q (the Add's scale and zero point) -> DQ -> y. `add_scale_y` != 1: the
// MaxPool's QuantizeLinear has another scale (a near miss); `y_int8`: the Add's QuantizeLinear writes int8
// (A and B are uint8: a near miss).
GraphBuilder residual_block(float pool_scale_factor, bool y_int8) {
  GraphBuilder b(13);
  Attributes pads, pool;
  pads.set("pads", ints_attr({1, 1, 1, 1}));
  pool.set("kernel_shape", ints_attr({2, 2}));
  pool.set("strides", ints_attr({2, 2}));
  const DType add_type = y_int8 ? DType::i8 : DType::u8;
  const int64_t add_zp = y_int8 ? -10 : 20;
  b.input("x", {1, 8, 6, 6})
      .initializer("x_scale", scalar_f32(kXScale)).initializer("x_zp", zero_point(DType::u8, 128))
      .initializer("w", random_quantized(DType::i8, {8, 8, 3, 3}, 91)).initializer("w_scale", scalar_f32(0.003f))
      .initializer("c_scale", scalar_f32(0.03f)).initializer("c_zp", zero_point(DType::u8, 0))
      .initializer("a_scale", scalar_f32(0.045f)).initializer("a_zp", zero_point(add_type, add_zp))
      .initializer("p_scale", scalar_f32(0.045f * pool_scale_factor))
      .node("QuantizeLinear", {"x", "x_scale", "x_zp"}, {"xq"}, "q_x")
      .node("DequantizeLinear", {"xq", "x_scale", "x_zp"}, {"xf"}, "dq_x")
      .node("DequantizeLinear", {"w", "w_scale"}, {"wf"}, "dq_w")
      .node("Conv", {"xf", "wf"}, {"c"}, "conv", pads)
      .node("Relu", {"c"}, {"cr"}, "relu_c")
      .node("QuantizeLinear", {"cr", "c_scale", "c_zp"}, {"cq"}, "q_c")
      .node("DequantizeLinear", {"cq", "c_scale", "c_zp"}, {"cf"}, "dq_c")
      .node("Add", {"cf", "xf"}, {"s"}, "add")
      .node("Relu", {"s"}, {"sr"}, "relu_s")
      .node("QuantizeLinear", {"sr", "a_scale", "a_zp"}, {"sq"}, "q_s")
      .node("DequantizeLinear", {"sq", "a_scale", "a_zp"}, {"sf"}, "dq_s")
      .node("MaxPool", {"sf"}, {"p"}, "pool", pool)
      .node("QuantizeLinear", {"p", "p_scale", "a_zp"}, {"pq"}, "q_p")
      .node("DequantizeLinear", {"pq", "p_scale", "a_zp"}, {"y"}, "dq_p")
      .output("y");
  return b;
}

}  // namespace

// The folded Add (FusedQLinearAdd) computes in float32 in the QDQ graph's order, and the MaxPool of int8 is exact
// (ops/quant/qlinear_add_native.cc, passes/fold_qdq.cc), so each folded node equals the reference kernel beside it
// within its op's tolerance (one step, the double-precision reference rounding near ties), checked per node as
// --verify does; the Add reads the convolution's channels-last uint8 as it is.
TEST_CASE("fold-qdq: DQ -> Add -> Relu -> Q and DQ -> MaxPool -> Q stay int8 between int8 convolutions") {
  struct Residual {
    std::string what;
    float pool_scale_factor;
    bool y_int8;
    std::string ops;  // the plan's node ops in order
  };
  const std::vector<Residual> cases = {
      {"folded", 1, false, "QuantizeLinear,FusedQLinearConv,FusedQLinearAdd,MaxPool,DequantizeLinear"},
      {"MaxPool's Q at another scale", 2, false,
       "QuantizeLinear,FusedQLinearConv,FusedQLinearAdd,DequantizeLinear,MaxPool,QuantizeLinear,DequantizeLinear"},
      {"Add's y int8, A and B uint8", 1, true,
       "QuantizeLinear,DequantizeLinear,FusedQLinearConv,DequantizeLinear,Add,Relu,QuantizeLinear,MaxPool,"
       "DequantizeLinear"},
  };
  for (const Residual& c : cases) {
    GraphBuilder gb = residual_block(c.pool_scale_factor, c.y_int8);
    const auto [graph, infos, inputs] = build(gb, 11);
    const std::vector<Tensor> want = Plan::build(graph, infos, Backend::ref, graph_pass_names())->run(inputs);
    for (Backend backend : {Backend::dnnl, Backend::ref}) {
      CAPTURE(c.what);
      CAPTURE(backend_name(backend));
      const auto plan = Plan::build(graph, infos, backend);
      const PlanSummary p = summarize(*plan, "FusedQLinearAdd");
      const std::string &ops = p.ops, &add_layout = p.layout, &declined = p.declined;
      CAPTURE(ops);
      CAPTURE(add_layout);
      CAPTURE(declined);
      CHECK(ops == c.ops);
      if (c.ops.find("FusedQLinearAdd") != std::string::npos)
        CHECK(add_layout == (backend == Backend::dnnl ? "acdb native" : "plain ref"));
      if (c.pool_scale_factor != 1) CHECK(declined.find("MaxPool 'pool': the QuantizeLinear's scale") != std::string::npos);
      if (c.y_int8) CHECK(declined.find("Add 'add': A, B and the QuantizeLinear's y are not of one type") != std::string::npos);
      const std::vector<Tensor> got = run_verified(*plan, inputs);
      // Against the pass-free float path: the convolution may round one step apart near a tie (the first
      // case's rule), which the Add carries as at most 0.03 / 0.045 of its step, so at most two steps of y.
      REQUIRE(got.size() == 1);
      check_steps_apart(got[0], want[0], 0.045 * c.pool_scale_factor, 2, c.what + ", " + backend_name(backend));
    }
  }
}

namespace {

// An inception block's join as quantizers write it: x -> Q -> DQ -> two Conv -> Relu branches, each -> Q (its
// own scale) -> DQ, -> Concat [-> MaxPool 2x2] -> Q (a third scale) -> DQ -> y. `float_input`: the Concat also
// reads x's float value (a near miss).
GraphBuilder inception_join(bool pool, bool float_input) {
  GraphBuilder b(13);
  Attributes pads, window, axis1;
  pads.set("pads", ints_attr({1, 1, 1, 1}));
  window.set("kernel_shape", ints_attr({2, 2}));
  window.set("strides", ints_attr({2, 2}));
  axis1.set("axis", int_attr(1));
  b.input("x", {1, 8, 6, 6})
      .initializer("x_scale", scalar_f32(kXScale)).initializer("x_zp", zero_point(DType::u8, 128))
      .initializer("w1", random_quantized(DType::i8, {8, 8, 3, 3}, 93)).initializer("w2", random_quantized(DType::i8, {4, 8, 3, 3}, 94))
      .initializer("w_scale", scalar_f32(0.003f))
      .initializer("c1_scale", scalar_f32(0.03f)).initializer("c2_scale", scalar_f32(0.05f))
      .initializer("y_scale", scalar_f32(0.04f)).initializer("zp0", zero_point(DType::u8, 0))
      .node("QuantizeLinear", {"x", "x_scale", "x_zp"}, {"xq"}, "q_x")
      .node("DequantizeLinear", {"xq", "x_scale", "x_zp"}, {"xf"}, "dq_x");
  for (const char* k : {"1", "2"}) {
    const std::string s = k;
    b.node("DequantizeLinear", {"w" + s, "w_scale"}, {"wf" + s}, "dq_w" + s)
        .node("Conv", {"xf", "wf" + s}, {"c" + s}, "conv" + s, pads)
        .node("Relu", {"c" + s}, {"r" + s}, "relu" + s)
        .node("QuantizeLinear", {"r" + s, "c" + s + "_scale", "zp0"}, {"rq" + s}, "q_r" + s)
        .node("DequantizeLinear", {"rq" + s, "c" + s + "_scale", "zp0"}, {"rf" + s}, "dq_r" + s);
  }
  std::vector<std::string> parts{"rf1", "rf2"};
  if (float_input) parts.push_back("x");
  b.node("Concat", parts, {"cat"}, "concat", axis1);
  if (pool) b.node("MaxPool", {"cat"}, {"p"}, "pool", window);
  b.node("QuantizeLinear", {pool ? "p" : "cat", "y_scale", "zp0"}, {"yq"}, "q_y")
      .node("DequantizeLinear", {"yq", "y_scale", "zp0"}, {"y"}, "dq_y")
      .output("y");
  return b;
}

}  // namespace

// The folded Concat requantizes each branch by a table of the reference's formula (exact against it) and reads
// the convolutions' channels-last uint8 as they are; the MaxPool after it runs on int8 (exact: Q is monotone).
TEST_CASE("fold-qdq: DQ, DQ -> Concat [-> MaxPool] -> Q stays int8, requantizing each input") {
  struct Join {
    std::string what;
    bool pool, float_input;
    std::string ops;  // the plan's node ops in order
  };
  const std::vector<Join> cases = {
      {"Concat", false, false, "QuantizeLinear,FusedQLinearConv,FusedQLinearConv,QLinearConcat,DequantizeLinear"},
      {"Concat, MaxPool", true, false,
       "QuantizeLinear,FusedQLinearConv,FusedQLinearConv,QLinearConcat,MaxPool,DequantizeLinear"},
      {"a float input", false, true,
       "QuantizeLinear,FusedQLinearConv,FusedQLinearConv,DequantizeLinear,DequantizeLinear,Concat,QuantizeLinear,"
       "DequantizeLinear"},
  };
  for (const Join& c : cases) {
    GraphBuilder gb = inception_join(c.pool, c.float_input);
    const auto [graph, infos, inputs] = build(gb, 12);
    const std::vector<Tensor> want = Plan::build(graph, infos, Backend::ref, graph_pass_names())->run(inputs);
    for (Backend backend : {Backend::dnnl, Backend::ref}) {
      CAPTURE(c.what);
      CAPTURE(backend_name(backend));
      const auto plan = Plan::build(graph, infos, backend);
      const PlanSummary p = summarize(*plan, "QLinearConcat", 2);
      const std::string &ops = p.ops, &concat_layout = p.layout, &declined = p.declined;
      const int64_t reorders = p.reorders;
      CAPTURE(ops);
      CAPTURE(concat_layout);
      CAPTURE(declined);
      CAPTURE(reorders);
      CHECK(ops == c.ops);
      if (c.ops.find("QLinearConcat") != std::string::npos) {
        CHECK(concat_layout == (backend == Backend::dnnl ? "acdb native" : "plain ref"));
        if (backend == Backend::dnnl) CHECK(reorders == 2);  // x into channels-last, y out of it
      }
      if (c.float_input) CHECK(declined.find("Concat 'concat': an input is not a DequantizeLinear") != std::string::npos);
      const std::vector<Tensor> got = run_verified(*plan, inputs);
      // Against the pass-free float path: a convolution may round one step apart near a tie (the first test's
      // rule), which the requantization carries as at most 0.05 / 0.04 of y's step, plus its own rounding:
      // at most two steps; the table itself is the reference formula, and the MaxPool exact.
      REQUIRE(got.size() == 1);
      check_steps_apart(got[0], want[0], 0.04, 2, c.what + ", " + backend_name(backend));
    }
  }
}

namespace {

// x -> Q -> DQ -> (Swish: Sigmoid, Mul | ReLU6: Clip) -> Q (another scale) -> DQ -> y; `sigmoid_out`: the Sigmoid's
// output is a graph output too (a near miss).
GraphBuilder lookup_graph(bool swish, bool sigmoid_out) {
  GraphBuilder b(13);
  b.input("x", {1, 8, 6, 6})
      .initializer("x_scale", scalar_f32(0.05f)).initializer("x_zp", zero_point(DType::u8, 100))
      .initializer("y_scale", scalar_f32(0.02f)).initializer("y_zp", zero_point(DType::u8, 12))
      .initializer("lo", make_tensor({}, {0.f})).initializer("hi", make_tensor({}, {4.f}))
      .node("QuantizeLinear", {"x", "x_scale", "x_zp"}, {"xq"}, "q_x")
      .node("DequantizeLinear", {"xq", "x_scale", "x_zp"}, {"xf"}, "dq_x");
  if (swish) b.node("Sigmoid", {"xf"}, {"s"}, "sigmoid").node("Mul", {"xf", "s"}, {"a"}, "mul");
  else b.node("Clip", {"xf", "lo", "hi"}, {"a"}, "clip");
  b.node("QuantizeLinear", {"a", "y_scale", "y_zp"}, {"yq"}, "q_y")
      .node("DequantizeLinear", {"yq", "y_scale", "y_zp"}, {"y"}, "dq_y")
      .output("y");
  if (sigmoid_out) b.output("s");
  return b;
}

}  // namespace

// The table is the replaced nodes' reference kernels on all 256 values, so the folded graph equals the
// pass-free reference path exactly, on both backends.
TEST_CASE("fold-qdq: DQ -> Sigmoid, Mul (Swish) or Clip -> Q becomes one QLinearLookup, exactly the reference path") {
  struct Lookup {
    std::string what;
    bool swish, sigmoid_out;
    std::string ops;
  };
  const std::vector<Lookup> cases = {
      {"Swish", true, false, "QuantizeLinear,QLinearLookup,DequantizeLinear"},
      {"Clip between two QuantizeLinears", false, false, "QuantizeLinear,QLinearLookup,DequantizeLinear"},
      {"the Sigmoid's output also a graph output", true, true,
       "QuantizeLinear,DequantizeLinear,Sigmoid,Mul,QuantizeLinear,DequantizeLinear"},
  };
  for (const Lookup& c : cases) {
    GraphBuilder gb = lookup_graph(c.swish, c.sigmoid_out);
    const auto [graph, infos, inputs] = build(gb, 13);
    const std::vector<Tensor> want = Plan::build(graph, infos, Backend::ref, graph_pass_names())->run(inputs);
    for (Backend backend : {Backend::dnnl, Backend::ref}) {
      CAPTURE(c.what);
      CAPTURE(backend_name(backend));
      const auto plan = Plan::build(graph, infos, backend);
      const PlanSummary p = summarize(*plan);
      const std::string &ops = p.ops, &declined = p.declined;
      CAPTURE(ops);
      CAPTURE(declined);
      CHECK(ops == c.ops);
      if (c.sigmoid_out) CHECK(declined.find("'sigmoid' writes a graph output") != std::string::npos);
      const std::vector<Tensor> got = plan->run(inputs);
      if (c.sigmoid_out && backend == Backend::dnnl) continue;  // oneDNN's Sigmoid is not the reference's
      REQUIRE(got.size() == want.size());
      int64_t differ = 0;
      for (int64_t i = 0; i < got[0].numel(); ++i) differ += got[0].data<float>()[i] != want[0].data<float>()[i];
      CHECK(differ == 0);
    }
  }
}

namespace {

// A dense layer's input as quantizers leave it: x1 -> Q -> DQ, x2 -> Q -> DQ -> Conv 3x3 -> Relu -> Q -> DQ (or
// x2's DequantizeLinear itself), -> Concat -> BatchNormalization -> Relu -> Q -> DQ -> y; `one_input`: x1's
// DequantizeLinear -> BatchNormalization -> Clip -> Q alone; `concat_out`: the Concat's output is a graph
// output too (a near miss).
struct DenseInput {
  bool conv = false, one_input = false, concat_out = false;
};
GraphBuilder dense_input(const DenseInput& s) {
  GraphBuilder b(13);
  Attributes pads, axis1;
  pads.set("pads", ints_attr({1, 1, 1, 1}));
  axis1.set("axis", int_attr(1));
  const int64_t C = s.one_input ? 3 : 8;
  std::vector<float> gamma, beta, mean, var;
  for (int64_t c = 0; c < C; ++c) {  // |gamma| / sqrt(var + eps) <= 1 / sqrt(0.5): the test's step bound
    gamma.push_back(c % 2 ? 1.f : -0.6f + 0.1f * float(c));
    beta.push_back(0.25f * float(c % 3) - 0.2f);
    mean.push_back(0.1f * float(c) - 0.3f);
    var.push_back(0.5f + 0.3f * float(c));
  }
  b.input("x1", {1, 3, 5, 5}).input("x2", {1, 5, 5, 5})
      .initializer("s1", scalar_f32(0.02f)).initializer("z1", zero_point(DType::u8, 128))
      .initializer("s2", scalar_f32(0.03f)).initializer("z2", zero_point(DType::u8, 100))
      .initializer("w", random_quantized(DType::i8, {5, 5, 3, 3}, 95)).initializer("w_scale", scalar_f32(0.004f))
      .initializer("c_scale", scalar_f32(0.03f)).initializer("zp0", zero_point(DType::u8, 0))
      .initializer("gamma", floats_1d(gamma)).initializer("beta", floats_1d(beta))
      .initializer("mean", floats_1d(mean)).initializer("var", floats_1d(var))
      .initializer("lo", make_tensor({}, {0.f})).initializer("hi", make_tensor({}, {1.5f}))
      .initializer("y_scale", scalar_f32(0.05f)).initializer("y_zp", zero_point(DType::u8, 3))
      .node("QuantizeLinear", {"x1", "s1", "z1"}, {"q1"}, "q_x1")
      .node("DequantizeLinear", {"q1", "s1", "z1"}, {"f1"}, "dq_x1")
      .node("QuantizeLinear", {"x2", "s2", "z2"}, {"q2"}, "q_x2")
      .node("DequantizeLinear", {"q2", "s2", "z2"}, {"f2"}, "dq_x2");
  std::string second = "f2";
  if (s.conv) {
    b.node("DequantizeLinear", {"w", "w_scale"}, {"wf"}, "dq_w")
        .node("Conv", {"f2", "wf"}, {"c"}, "conv", pads)
        .node("Relu", {"c"}, {"cr"}, "relu_c")
        .node("QuantizeLinear", {"cr", "c_scale", "zp0"}, {"cq"}, "q_c")
        .node("DequantizeLinear", {"cq", "c_scale", "zp0"}, {"cf"}, "dq_c");
    second = "cf";
  }
  std::string last;
  if (s.one_input) {
    b.node("BatchNormalization", {"f1", "gamma", "beta", "mean", "var"}, {"bn"}, "norm")
        .node("Clip", {"bn", "lo", "hi"}, {"a"}, "clip");
  } else {
    b.node("Concat", {"f1", second}, {"cat"}, "concat", axis1)
        .node("BatchNormalization", {"cat", "gamma", "beta", "mean", "var"}, {"bn"}, "norm")
        .node("Relu", {"bn"}, {"a"}, "relu");
  }
  b.node("QuantizeLinear", {"a", "y_scale", "y_zp"}, {"yq"}, "q_y")
      .node("DequantizeLinear", {"yq", "y_scale", "y_zp"}, {"y"}, "dq_y")
      .output("y");
  if (s.concat_out) b.output("cat");
  return b;
}

}  // namespace

// The tables are the replaced nodes' reference kernels on every byte of every channel, so without a
// convolution the folded graph equals the pass-free reference path exactly, on both backends. After a
// convolution (which may round one step of 0.03 apart near a tie, the first test's rule) the BatchNormalization's
// slope, at most 1 / sqrt(0.5), carries that as at most 0.85 of y's step of 0.05, plus y's own rounding: at most
// two steps; each node still equals its reference beside it.
TEST_CASE("fold-qdq: DQ, ... -> Concat -> BatchNormalization -> Relu -> Q becomes one QLinearChannelLookup") {
  struct Dense {
    std::string what;
    DenseInput spec;
    std::string ops;
  };
  const std::vector<Dense> cases = {
      {"Concat, BatchNormalization, Relu", {}, "QuantizeLinear,QuantizeLinear,QLinearChannelLookup,DequantizeLinear"},
      {"one input, BatchNormalization, Clip", {false, true},
       "QuantizeLinear,QLinearChannelLookup,DequantizeLinear"},
      {"after a convolution", {true},
       "QuantizeLinear,QuantizeLinear,FusedQLinearConv,QLinearChannelLookup,DequantizeLinear"},
      {"the Concat's output also a graph output", {false, false, true},
       "QuantizeLinear,QuantizeLinear,DequantizeLinear,DequantizeLinear,Concat,BatchNormalization,QuantizeLinear,"
       "DequantizeLinear"},  // fuse-conv: BatchNormalization with its Relu
  };
  for (const Dense& c : cases) {
    GraphBuilder gb = dense_input(c.spec);
    const auto [graph, infos, inputs] = build(gb, 14);
    const std::vector<Tensor> want = Plan::build(graph, infos, Backend::ref, graph_pass_names())->run(inputs);
    for (Backend backend : {Backend::dnnl, Backend::ref}) {
      CAPTURE(c.what);
      CAPTURE(backend_name(backend));
      const auto plan = Plan::build(graph, infos, backend);
      const PlanSummary p = summarize(*plan, "QLinearChannelLookup", 1);
      const std::string &ops = p.ops, &lookup_layout = p.layout, &declined = p.declined;
      CAPTURE(ops);
      CAPTURE(lookup_layout);
      CAPTURE(declined);
      CHECK(ops == c.ops);
      if (c.spec.conv) CHECK(lookup_layout == (backend == Backend::dnnl ? "acdb native" : "plain ref"));
      if (c.spec.concat_out)
        CHECK(declined.find("'concat''s output is read by another node or is a graph output") != std::string::npos);
      const std::vector<Tensor> got = run_verified(*plan, inputs);
      REQUIRE(got.size() == want.size());
      if (c.spec.concat_out && backend == Backend::dnnl) continue;  // oneDNN's float BatchNormalization is not the reference's
      check_steps_apart(got[0], want[0], 0.05, c.spec.conv ? 2 : 0, c.what + ", " + backend_name(backend));
    }
  }
}
