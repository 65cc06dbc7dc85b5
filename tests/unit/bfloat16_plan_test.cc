// The bfloat16 plan (passes/bfloat16_plan.h): which nodes it marks and why, the roundings it inserts, and its
// numbers: exactly float32 arithmetic on bfloat16-rounded values, and within the error bfloat16's 8-bit
// significand allows of the float32 result. The precision a model's plans use (PrecisionReport).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <map>

#include "api/tools_facade.h"
#include "engine/float16.h"
#include "ops/cast/round_to_float16.h"
#include "runtime/model_access.h"
#include "runtime/plan.h"
#include "tests/unit/built_graph.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

bool all_bfloat16(const Tensor& t) {
  for (int64_t i = 0; i < t.numel(); ++i) {
    const float x = t.data<float>()[i];
    if (bfloat16_to_float(float_to_bfloat16(x)) != x) return false;
  }
  return true;
}

std::shared_ptr<const Plan> plan(const BuiltGraph& g, Precision precision) {
  return Plan::build(g.graph, g.infos, Backend::ref, {}, {}, {}, {0, nullptr, precision});
}

Attributes pads1() {
  Attributes a;
  a.set("pads", ints({1, 1, 1, 1}));
  return a;
}

// The native bfloat16 plan of `g`, run once with --verify (throws when a step is beyond its tolerance); null on
// a CPU without native bfloat16 (float32 there: nothing is stored in bfloat16).
std::shared_ptr<const Plan> verified_native_plan(const BuiltGraph& g) {
  Options o;
  o.precision = Precision::bf16;
  o.verify = true;
  const Model native = ModelAccess::from_graph(*g.graph, o);
  if (!precision_report(native).cpu_native_bfloat16) return nullptr;
  native.run(g.inputs);
  return ModelAccess::plan(native, g.inputs);
}

// Calls f(op, step) for each step of `p`, with the step's op type ("(reorder)" for the plan's own), kernel and
// layouts captured for the checks f makes.
template <class F>
void for_each_step(const Plan& p, F f) {
  for (const PlanStep& s : p.steps()) {
    const std::string op = s.node < 0 ? "(reorder)" : p.graph().nodes[size_t(s.node)].op_type;
    const std::string layouts = (s.layouts.in.empty() ? std::string("-") : s.layouts.in[0].name()) + " -> " +
                                (s.layouts.out.empty() ? std::string("-") : s.layouts.out[0].name());
    CAPTURE(op);
    CAPTURE(s.kernel);
    CAPTURE(layouts);
    f(op, s);
  }
}

}  // namespace

TEST_CASE("the bfloat16 plan marks convolutions, pooling, copies and matmuls bf16 and Softmax float32") {
  Attributes pool;
  pool.set("kernel_shape", ints({2, 2}));
  pool.set("strides", ints({2, 2}));
  GraphBuilder b;
  b.input("x", {1, 4, 6, 6})
      .initializer("w", random_tensor({8, 4, 3, 3}, 1))
      .initializer("bias", random_tensor({8}, 2))
      .initializer("wg", random_tensor({72, 10}, 3))
      .initializer("bg", random_tensor({10}, 4))
      .node("Conv", {"x", "w", "bias"}, {"c"}, "conv", pads1())
      .node("Relu", {"c"}, {"r"}, "relu")
      .node("MaxPool", {"r"}, {"p"}, "pool", pool)
      .node("Flatten", {"p"}, {"f"}, "flat")
      .node("MatMul", {"f", "wg"}, {"m"}, "fc")
      .node("Softmax", {"m"}, {"y"}, "softmax")
      .output("y")
      .output("m");
  const BuiltGraph g = build(b, 7);
  const std::shared_ptr<const Plan> p = plan(g, Precision::bf16);
  const Graph& pg = p->graph();
  std::map<std::string, std::string> precision;  // node -> "bf16" or "fp32: why"
  int roundings = 0;
  for (const Node& n : pg.nodes) {
    precision[n.name] = n.precision == Precision::bf16 ? "bf16" : "fp32: " + n.precision_why;
    if (n.op_type == "RoundToFloat16") {
      ++roundings;
      CHECK(params_as<RoundToFloat16Params>(*n.params, n.op_type).to == DType::bf16);
    }
    if (n.op_type == "FusedConv") {
      CHECK(n.precision == Precision::bf16);
      CHECK(all_bfloat16(*pg.value(n.inputs[1]).info.constant));   // weights rounded once
      CHECK(!all_bfloat16(*pg.value(n.inputs[2]).info.constant));  // bias float32
    }
    if (n.op_type == "MatMul") CHECK(all_bfloat16(*pg.value(n.inputs[1]).info.constant));
  }
  CAPTURE(precision.size());
  CHECK(precision["pool"] == "bf16");
  CHECK(precision["flat"] == "bf16");
  CHECK(precision["fc"] == "bf16");
  CHECK(precision["softmax"] == "fp32: Softmax stays float32");
  // x (a graph input read by the convolution) and the two values stored in bfloat16 before a bf16 reader (the
  // convolution's and the pool's); m is a graph output read only by Softmax: float32, not rounded.
  CHECK(roundings == 3);
  for (const PassReport& r : p->pass_reports())
    if (r.pass == "bfloat16") CHECK(r.summary() == "3 RoundToFloat16 added");
  const std::vector<Tensor> y = p->run(g.inputs);
  CHECK(!all_bfloat16(y[1]));  // a graph output stays float32
}

TEST_CASE("a bfloat16 convolution is float32 arithmetic on bfloat16 values, within bfloat16's error of float32") {
  // Derived bound: x and w rounded to bfloat16 (8 significant bits) are x(1+d1), w(1+d2) with |d| <= u = 2^-8,
  // so each product moves by at most (2u + u^2)|x||w|: |y_bf16 - y_f32| <= (2u + u^2) sum|x||w| plus both
  // float32 accumulations of K terms (K 2^-24 sum|x||w| each, bounded loosely).
  for (int64_t ic : {3, 16, 64}) {
    CAPTURE(ic);
    GraphBuilder b;
    const Tensor w = random_tensor({8, ic, 3, 3}, 11);
    b.input("x", {1, ic, 9, 9}).initializer("w", w).node("Conv", {"x", "w"}, {"y"}, "conv", pads1()).output("y");
    const BuiltGraph g = build(b, 12);
    const Tensor got = plan(g, Precision::bf16)->run(g.inputs)[0];

    GraphBuilder rounded;
    rounded.input("x", {1, ic, 9, 9}).initializer("w", rounded_to_bfloat16(w))
        .node("Conv", {"x", "w"}, {"y"}, "conv", pads1()).output("y");
    const BuiltGraph r = build(rounded, 12);
    const Tensor exact = plan(r, Precision::f32)->run({rounded_to_bfloat16(g.inputs[0])})[0];
    CHECK(std::memcmp(got.raw(), exact.raw(), got.bytes()) == 0);

    const Tensor want = plan(g, Precision::f32)->run(g.inputs)[0];
    const Tensor m = magnitudes_of("Conv", pads1(), {g.inputs[0], w});
    const double u = std::ldexp(1.0, -8), K = double(ic * 9);
    double worst = 0;  // the largest error as a fraction of its bound
    for (int64_t i = 0; i < got.numel(); ++i) {
      const double bound = (2 * u + u * u + 2 * K * std::ldexp(1.0, -24)) * m.data<float>()[i];
      worst = std::max(worst, std::fabs(double(got.data<float>()[i]) - want.data<float>()[i]) / bound);
    }
    CAPTURE(worst);
    CHECK(worst <= 1.0);
    // bfloat16 did round: the plan is not float32 (how far below the bound the error stays is statistics: the
    // rounding errors of K products partly cancel, so no lower bound on `worst` holds for every K).
    CHECK(std::memcmp(got.raw(), want.raw(), got.bytes()) != 0);
  }
}

TEST_CASE("native bfloat16 kernels compute what the emulation does, up to float32 summation order") {
  // Where the CPU has native bfloat16 (AVX512_BF16 or AMX), the dnnl backend's bf16 Conv, Gemm and MatMul run
  // oneDNN's bf16 primitives on the values the emulation rounds; only the order of the float32 sums differs,
  // so each output is within 2 K 2^-24 sum|x||w| of the emulated one (K terms, both orders, loosely).
  // Elsewhere the same models run float32 and the check below is skipped (the emulation is checked above).
  struct Case {
    std::string op;
    Shape x, w;
    Attributes attrs;
    int64_t k;  // terms per output
  };
  Attributes grouped = pads1(), depthwise = pads1(), half_alpha;
  half_alpha.set("alpha", float_attr(0.5f));  // not a layer: a float32 kernel on the plan's rounded weights
  grouped.set("group", int_attr(4));
  depthwise.set("group", int_attr(16));
  const Case cases[] = {{"Conv", {1, 32, 10, 10}, {16, 32, 3, 3}, pads1(), 32 * 9},
                        {"Conv", {2, 16, 8, 8}, {16, 4, 3, 3}, grouped, 4 * 9},
                        {"Conv", {1, 16, 9, 9}, {32, 1, 3, 3}, depthwise, 9},
                        {"Conv", {1, 3, 17, 17}, {16, 3, 3, 3}, pads1(), 3 * 9},
                        {"MatMul", {5, 64}, {64, 24}, {}, 64},
                        {"MatMul", {2, 5, 64}, {2, 64, 16}, {}, 64},  // batched B: float32, rounded by the plan
                        {"Gemm", {3, 48}, {48, 10}, half_alpha, 48},
                        {"Gemm", {3, 48}, {48, 10}, {}, 48}};
  for (const Case& c : cases) {
    CAPTURE(c.op);
    CAPTURE(to_string(c.x));
    CAPTURE(to_string(c.w));
    const Tensor w = random_tensor(c.w, 5);
    GraphBuilder b;
    b.input("x", c.x).initializer("w", w).node(c.op, {"x", "w"}, {"y"}, "op", c.attrs).output("y");
    const BuiltGraph g = build(b, 6);
    Options o;
    o.precision = Precision::bf16;
    o.verify = true;  // and each step within its tolerance of the reference on the inputs the kernel rounds
    const Model native = ModelAccess::from_graph(*g.graph, o);
    const PrecisionReport report = precision_report(native);
    CAPTURE(report.why);
    if (!report.cpu_native_bfloat16) {
      CHECK(report.used == Precision::f32);
      continue;
    }
    CHECK(report.used == Precision::bf16);
    CHECK(!report.emulated);
    const Tensor got = native.run(g.inputs)[0];
    const Tensor want = bfloat16_emulated(native).run(g.inputs)[0];
    const Tensor m = magnitudes_of(c.op, c.attrs, {g.inputs[0], w});
    double worst = 0;
    for (int64_t i = 0; i < got.numel(); ++i) {
      const double bound = 2 * double(c.k) * std::ldexp(1.0, -24) * m.data<float>()[i] + 1e-30;
      worst = std::max(worst, std::fabs(double(got.data<float>()[i]) - want.data<float>()[i]) / bound);
    }
    CAPTURE(worst);
    CHECK(worst <= 1.0);
  }
}

TEST_CASE("a model's precision: bf16 runs natively where the CPU can, else float32 with the reason, emulated when asked") {
  GraphBuilder b;
  b.input("x", {1, 2, 4, 4}).initializer("w", random_tensor({2, 2, 1, 1}, 1)).node("Conv", {"x", "w"}, {"y"}).output("y");
  const BuiltGraph g = build(b, 3);
  Options o;
  o.precision = Precision::bf16;
  const PrecisionReport dnnl = precision_report(ModelAccess::from_graph(*g.graph, o));
  CAPTURE(dnnl.why);
  CAPTURE(dnnl.cpu_isa);
  CHECK(dnnl.requested == Precision::bf16);
  // Native where the CPU has AVX512_BF16 or AMX; float32 elsewhere, saying why.
  CHECK(dnnl.used == (dnnl.cpu_native_bfloat16 ? Precision::bf16 : Precision::f32));
  CHECK(!dnnl.emulated);
  CHECK(dnnl.why.find(dnnl.cpu_native_bfloat16 ? "native bfloat16" : "this CPU has no native bfloat16") != std::string::npos);
  if (!dnnl.cpu_native_bfloat16) CHECK(dnnl.why.find("runs float32") != std::string::npos);

  const Model emulated = bfloat16_emulated(ModelAccess::from_graph(*g.graph, o));
  CHECK(precision_report(emulated).used == Precision::bf16);
  CHECK(precision_report(emulated).emulated);
  CHECK(plan_of(emulated, g.inputs).precision() == Precision::bf16);

  o.backend = Backend::ref;
  CHECK(precision_report(ModelAccess::from_graph(*g.graph, o)).used == Precision::bf16);

  setenv("CNNX_BFLOAT16", "fast", 1);
  CHECK_THROWS_WITH_AS(ModelAccess::from_graph(*g.graph, o), doctest::Contains("CNNX_BFLOAT16='fast' is not a setting"),
                       Error);
  o.backend = Backend::dnnl;
  setenv("CNNX_BFLOAT16", "emulate", 1);
  CHECK(precision_report(ModelAccess::from_graph(*g.graph, o)).emulated);
  unsetenv("CNNX_BFLOAT16");
  CHECK_THROWS_WITH_AS(parse_precision("fp16"), "unknown precision 'fp16' (expected fp32 or bf16)", Error);
}

TEST_CASE("native bfloat16 stores the values between the kernels that read them in bfloat16") {
  // x -> Conv+Relu -> y1 -> Conv (+ y1, Relu) -> y3 -> Mul(y3, Sigmoid(GlobalAveragePool(y3))) -> m -> Conv -> y;
  // Softmax(y1) -> s. y1, y3, m and the pooling's g are written by bf16 nodes and read rounded: the
  // convolutions, the Mul and the pooling store them in bfloat16 (dnnl/layouts.h) and the roundings view them;
  // the pooling reads y3 so; Softmax (float32) gets y1 through a reorder to a float32 layout. --verify checks
  // every step against its reference, stored outputs within half a bfloat16 ulp more (runtime/plan.cc,
  // check_step).
  GraphBuilder b;
  b.input("x", {1, 16, 12, 12})
      .initializer("wa", random_tensor({32, 16, 3, 3}, 21)).initializer("wb", random_tensor({32, 32, 3, 3}, 22))
      .initializer("wc", random_tensor({16, 32, 1, 1}, 23))
      .node("Conv", {"x", "wa"}, {"a"}, "conv_a", pads1()).node("Relu", {"a"}, {"y1"}, "relu_a")
      .node("Conv", {"y1", "wb"}, {"b"}, "conv_b", pads1()).node("Add", {"b", "y1"}, {"sum"}, "add")
      .node("Relu", {"sum"}, {"y3"}, "relu_b").node("GlobalAveragePool", {"y3"}, {"g"}, "pool")
      .node("Sigmoid", {"g"}, {"gate"}, "sigmoid").node("Mul", {"y3", "gate"}, {"m"}, "mul")
      .node("Conv", {"m", "wc"}, {"y"}, "conv_c").node("Softmax", {"y1"}, {"s"}, "softmax")
      .output("y").output("s");
  const BuiltGraph g = build(b, 24);
  const std::shared_ptr<const Plan> p = verified_native_plan(g);  // throws when a step is beyond its tolerance
  if (!p) return;  // no native bfloat16 on this CPU
  int stored = 0, viewed = 0;
  for_each_step(*p, [&](const std::string& op, const PlanStep& s) {
    if (op == "Softmax") CHECK(!stores_bfloat16(s.layouts.in[0]));
    if (op == "FusedConv" || op == "Conv" || op == "GlobalAveragePool" || op == "Mul")
      CHECK(stores_bfloat16(s.layouts.in[0]));
    if (op == "FusedConv" || op == "Conv" || op == "Mul") stored += stores_bfloat16(s.layouts.out[0]);
    if (op == "RoundToFloat16" && stores_bfloat16(s.layouts.in[0])) viewed += s.view;
  });
  CHECK(stored == 3);  // y1, y3 and m; conv_c writes the graph output y, float32
  CHECK(viewed == 4);
}

TEST_CASE("native bfloat16 stores a Linear layer's output in bfloat16 for the next one, whatever A's rank") {
  // [2, 5, 64] x [64, 32] + bias -> h -> [32, 16] -> y: both products have constant B (prepared in bfloat16);
  // the first stores h in bfloat16 (the primitive folds A's batch, the layouts keep the values' own dims).
  for (const Shape& x : {Shape{2, 5, 64}, Shape{5, 64}}) {
    CAPTURE(to_string(x));
    Shape h = x;
    h.back() = 32;
    GraphBuilder b;
    b.input("x", x).initializer("w1", random_tensor({64, 32}, 31)).initializer("b1", random_tensor({32}, 32))
        .initializer("w2", random_tensor({32, 16}, 33))
        .node("MatMul", {"x", "w1"}, {"p"}, "linear1").node("Add", {"p", "b1"}, {"h"}, "bias1")
        .node("MatMul", {"h", "w2"}, {"y"}, "linear2").output("y");
    const BuiltGraph g = build(b, 34);
    const std::shared_ptr<const Plan> p = verified_native_plan(g);  // throws when a step is beyond its tolerance
    if (!p) return;  // no native bfloat16 on this CPU
    int products = 0, stored = 0;
    for_each_step(*p, [&](const std::string& op, const PlanStep& s) {
      CHECK(op != "(reorder)");  // h goes from one product to the next as it is
      if (op != "MatMul" && op != "FusedMatMul") return;
      ++products;
      CHECK(stores_bfloat16(s.layouts.in[0]));
      stored += stores_bfloat16(s.layouts.out[0]);
    });
    CHECK(products == 2);
    CHECK(stored == 1);  // h; y is the graph output, float32
  }
}

TEST_CASE("native bfloat16 joins bfloat16 parts and normalizes them in bfloat16, as DenseNet's layers do") {
  // Concat(Conv(x), Conv(x)) -> BatchNormalization -> Relu -> Conv -> y: both parts are stored in bfloat16, so the
  // Concat copies two-byte elements and BatchNormalization (inference: a per-channel affine map, bf16) reads
  // and stores bfloat16; no reorder converts a value back to float32.
  Tensor scale = random_tensor({48}, 41, 0.5f, 1.5f), bias = random_tensor({48}, 42), mean = random_tensor({48}, 43);
  Tensor var = random_tensor({48}, 44, 0.5f, 2.f);
  GraphBuilder b;
  b.input("x", {1, 16, 10, 10})
      .initializer("w1", random_tensor({32, 16, 3, 3}, 45)).initializer("w2", random_tensor({16, 16, 1, 1}, 46))
      .initializer("w3", random_tensor({8, 48, 1, 1}, 47)).initializer("scale", scale).initializer("bias", bias)
      .initializer("mean", mean).initializer("var", var)
      .node("Conv", {"x", "w1"}, {"p1"}, "conv1", pads1()).node("Conv", {"x", "w2"}, {"p2"}, "conv2")
      .node("Concat", {"p1", "p2"}, {"c"}, "concat", [] { Attributes a; a.set("axis", int_attr(1)); return a; }())
      .node("BatchNormalization", {"c", "scale", "bias", "mean", "var"}, {"n"}, "norm")
      .node("Relu", {"n"}, {"r"}, "relu").node("Conv", {"r", "w3"}, {"y"}, "conv3").output("y");
  const BuiltGraph g = build(b, 48);
  const std::shared_ptr<const Plan> p = verified_native_plan(g);  // throws when a step is beyond its tolerance
  if (!p) return;  // no native bfloat16 on this CPU
  int joined = 0, normalized = 0;
  for_each_step(*p, [&](const std::string& op, const PlanStep& s) {
    if (op == "Concat") joined += stores_bfloat16(s.layouts.in[0]) && stores_bfloat16(s.layouts.in[1]) &&
                                  stores_bfloat16(s.layouts.out[0]);
    if (op == "BatchNormalization") normalized += stores_bfloat16(s.layouts.in[0]) && stores_bfloat16(s.layouts.out[0]);
    if (op == "(reorder)")  // x's rounding into a convolution's arrangement, maybe; nothing back to float32
      CHECK(!(stores_bfloat16(s.layouts.in[0]) && !stores_bfloat16(s.layouts.out[0])));
  });
  CHECK(joined == 1);
  CHECK(normalized == 1);
}

TEST_CASE("native bfloat16 permutes and normalizes bfloat16 values without converting them, as ConvNeXt does") {
  // x -> depthwise 7x7 Conv -> Transpose to [N, H, W, C] -> LayerNormalization -> MatMul (C -> 4C) -> Relu ->
  // MatMul (4C -> C) -> Transpose back -> Add x -> y, and the LayerNormalization's output also a graph output z.
  // Each Transpose takes the value stored in bfloat16 and views it (no copy, no conversion to float32 in front
  // of it). The LayerNormalization (a float32 node: its statistics) reads it in bfloat16 too, and stores its
  // output so where only the rounding before the MatMul reads it: in the second graph, where z is a graph
  // output, it writes float32.
  Attributes depthwise = pads1();
  depthwise.set("pads", ints({3, 3, 3, 3}));
  depthwise.set("group", int_attr(16));
  Attributes to_last, to_first;
  to_last.set("perm", ints({0, 2, 3, 1}));
  to_first.set("perm", ints({0, 3, 1, 2}));
  Attributes last_axis;
  last_axis.set("axis", int_attr(-1));
  for (bool z_out : {false, true}) {
    CAPTURE(z_out);
    GraphBuilder b(17);
    b.input("x", {1, 16, 8, 8})
        .initializer("wd", random_tensor({16, 1, 7, 7}, 51)).initializer("w1", random_tensor({16, 64}, 52))
        .initializer("w2", random_tensor({64, 16}, 53)).initializer("gamma", random_tensor({16}, 55, 0.5f, 1.5f))
        .initializer("beta", random_tensor({16}, 56))
        .node("Conv", {"x", "wd"}, {"d"}, "dwconv", depthwise).node("Transpose", {"d"}, {"t"}, "to_last", to_last)
        .node("LayerNormalization", {"t", "gamma", "beta"}, {"z"}, "norm", last_axis)
        .node("MatMul", {"z", "w1"}, {"h"}, "linear1").node("Relu", {"h"}, {"r"}, "relu")
        .node("MatMul", {"r", "w2"}, {"o"}, "linear2").node("Transpose", {"o"}, {"u"}, "to_first", to_first)
        .node("Add", {"u", "x"}, {"y"}, "residual").output("y");
    if (z_out) b.output("z");
    const BuiltGraph g = build(b, 54);
    const std::shared_ptr<const Plan> p = verified_native_plan(g);  // throws when a step is beyond its tolerance
    if (!p) return;  // no native bfloat16 on this CPU
    int permuted = 0, normalized = 0;
    for_each_step(*p, [&](const std::string& op, const PlanStep& s) {
      if (op == "LayerNormalization") {
        ++normalized;
        CHECK(stores_bfloat16(s.layouts.in[0]) == !z_out);
        CHECK(stores_bfloat16(s.layouts.out[0]) == !z_out);
      }
      if (op != "Transpose") return;
      ++permuted;
      CHECK(stores_bfloat16(s.layouts.in[0]));
      CHECK(stores_bfloat16(s.layouts.out[0]));
      CHECK(s.view);
    });
    CHECK(permuted == 2);
    CHECK(normalized == 1);
  }
}

TEST_CASE("native bfloat16 stores Swish convolutions' outputs in bfloat16, as EfficientNet's blocks do") {
  // x -> 1x1 Conv (16 -> 32) -> Swish -> depthwise 3x3 Conv -> Swish = d -> squeeze and excitation:
  // Mul(d, Sigmoid(Conv(Swish(Conv(GlobalAveragePool(d)))))) -> 1x1 Conv (32 -> 16) -> Add x -> y, each Swish
  // spelled x * Sigmoid(x) as torch.onnx writes nn.SiLU. fuse-conv makes FusedConv+Swish and FusedConv+Sigmoid;
  // in bfloat16 the Swish is the primitive's post-op (ops/conv/conv_dnnl.cc) and each convolution's output is
  // stored in bfloat16 for the next kernel; the Mul reads both d and the [1, C, 1, 1] gate so (no conversion
  // in front of it). --verify checks each step against its reference.
  Attributes depthwise = pads1();
  depthwise.set("group", int_attr(32));
  GraphBuilder b;
  b.input("x", {1, 16, 10, 10})
      .initializer("we", random_tensor({32, 16, 1, 1}, 61)).initializer("wd", random_tensor({32, 1, 3, 3}, 62))
      .initializer("w1", random_tensor({8, 32, 1, 1}, 65)).initializer("w2", random_tensor({32, 8, 1, 1}, 66))
      .initializer("wp", random_tensor({16, 32, 1, 1}, 63))
      .node("Conv", {"x", "we"}, {"e"}, "expand").node("Sigmoid", {"e"}, {"es"}, "expand_gate")
      .node("Mul", {"e", "es"}, {"ea"}, "expand_swish")
      .node("Conv", {"ea", "wd"}, {"d"}, "dwconv", depthwise).node("Sigmoid", {"d"}, {"ds"}, "dw_gate")
      .node("Mul", {"d", "ds"}, {"da"}, "dw_swish")
      .node("GlobalAveragePool", {"da"}, {"g"}, "squeeze").node("Conv", {"g", "w1"}, {"f1"}, "fc1")
      .node("Sigmoid", {"f1"}, {"f1s"}, "fc1_gate").node("Mul", {"f1", "f1s"}, {"f1a"}, "fc1_swish")
      .node("Conv", {"f1a", "w2"}, {"f2"}, "fc2").node("Sigmoid", {"f2"}, {"gate"}, "excite")
      .node("Mul", {"da", "gate"}, {"scaled"}, "scale")
      .node("Conv", {"scaled", "wp"}, {"p"}, "project").node("Add", {"p", "x"}, {"y"}, "residual").output("y");
  const BuiltGraph g = build(b, 64);
  const std::shared_ptr<const Plan> p = verified_native_plan(g);  // throws when a step is beyond its tolerance
  if (!p) return;  // no native bfloat16 on this CPU
  int swish_convs = 0, scales = 0;
  for_each_step(*p, [&](const std::string& op, const PlanStep& s) {
    const std::string name = s.node < 0 ? "" : p->graph().nodes[size_t(s.node)].name;
    if (op == "FusedConv" && (name == "expand" || name == "dwconv")) {
      ++swish_convs;
      CHECK(stores_bfloat16(s.layouts.out[0]));
    }
    if (op == "GlobalAveragePool") CHECK(stores_bfloat16(s.layouts.out[0]));  // only its rounding reads it
    if (op == "Mul") {
      ++scales;
      CHECK(stores_bfloat16(s.layouts.in[0]));
      CHECK(stores_bfloat16(s.layouts.in[1]));
      CHECK(stores_bfloat16(s.layouts.out[0]));
    }
  });
  CHECK(swish_convs == 2);
  CHECK(scales == 1);
}

TEST_CASE("native bfloat16 pools bfloat16 values without converting them, as ResNet's stem and DenseNet's transitions do") {
  // x -> Conv+Relu -> MaxPool 3x3/2 pad 1 -> Conv -> Relu -> AveragePool 2x2/2 -> Conv -> y. Each pooling reads
  // its input stored in bfloat16 and stores its output so (ops/pool/pool_dnnl.cc): no reorder anywhere between
  // the first rounding and y. --verify checks each step against its reference.
  Attributes max_window, average_window;
  max_window.set("kernel_shape", ints({3, 3}));
  max_window.set("strides", ints({2, 2}));
  max_window.set("pads", ints({1, 1, 1, 1}));
  average_window.set("kernel_shape", ints({2, 2}));
  average_window.set("strides", ints({2, 2}));
  GraphBuilder b;
  b.input("x", {1, 16, 16, 16})
      .initializer("wa", random_tensor({32, 16, 3, 3}, 71)).initializer("wb", random_tensor({32, 32, 1, 1}, 72))
      .initializer("wc", random_tensor({16, 32, 1, 1}, 73))
      .node("Conv", {"x", "wa"}, {"a"}, "conv_a", pads1()).node("Relu", {"a"}, {"ra"}, "relu_a")
      .node("MaxPool", {"ra"}, {"m"}, "max_pool", max_window).node("Conv", {"m", "wb"}, {"bb"}, "conv_b")
      .node("Relu", {"bb"}, {"rb"}, "relu_b").node("AveragePool", {"rb"}, {"p"}, "average_pool", average_window)
      .node("Conv", {"p", "wc"}, {"y"}, "conv_c").output("y");
  const BuiltGraph g = build(b, 74);
  const std::shared_ptr<const Plan> p = verified_native_plan(g);  // throws when a step is beyond its tolerance
  if (!p) return;  // no native bfloat16 on this CPU
  int pools = 0, reorders = 0;
  for_each_step(*p, [&](const std::string& op, const PlanStep& s) {
    if (op == "(reorder)" && stores_bfloat16(s.layouts.in.at(0)) && !stores_bfloat16(s.layouts.out.at(0))) ++reorders;
    if (op != "MaxPool" && op != "AveragePool") return;
    ++pools;
    CHECK(s.kernel == "dnnl");
    CHECK(stores_bfloat16(s.layouts.in[0]));
    CHECK(stores_bfloat16(s.layouts.out[0]));
  });
  CHECK(pools == 2);
  CHECK(reorders == 0);  // none converts a bfloat16 value back to float32
}
