// The oneDNN kernels against the reference kernels (the oracle), within each op's declared tolerance, on
// random data over case tables; and the cases each dnnl kernel must decline, with its reason.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <thread>

#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

TEST_CASE("dnnl Conv matches the reference over groups, dilations, pads, strides and 1-3 spatial dims") {
  struct Case {
    const char* what;
    Shape x, w;
    int64_t group;
    const char* auto_pad;
    std::vector<int64_t> strides, dilations, pads;  // attributes; empty = not given
    bool bias;
  };
  const Case cases[] = {
      {"1-D plain", {2, 3, 9}, {4, 3, 3}, 1, "NOTSET", {}, {}, {}, true},
      {"1-D strided, asymmetric pads", {1, 2, 10}, {3, 2, 4}, 1, "NOTSET", {3}, {}, {2, 1}, false},
      {"1-D dilated, grouped", {1, 4, 12}, {6, 2, 3}, 2, "NOTSET", {}, {2}, {1, 1}, true},
      {"2-D pads 1", {1, 3, 5, 6}, {2, 3, 3, 3}, 1, "NOTSET", {}, {}, {1, 1, 1, 1}, true},
      {"2-D asymmetric pads, stride 2", {2, 2, 7, 5}, {3, 2, 3, 3}, 1, "NOTSET", {2, 2}, {}, {1, 0, 2, 1}, true},
      {"2-D dilations 2x3", {1, 2, 9, 8}, {2, 2, 3, 2}, 1, "NOTSET", {}, {2, 3}, {0, 1, 0, 1}, false},
      {"2-D groups 2", {2, 4, 6, 6}, {6, 2, 3, 3}, 2, "NOTSET", {}, {}, {1, 1, 1, 1}, true},
      {"2-D depthwise", {1, 8, 7, 7}, {8, 1, 3, 3}, 8, "NOTSET", {}, {}, {1, 1, 1, 1}, true},
      {"2-D depthwise, multiplier 2, stride 2", {1, 4, 9, 9}, {8, 1, 3, 3}, 4, "NOTSET", {2, 2}, {}, {1, 1, 1, 1},
       false},
      {"2-D SAME_UPPER stride 2 (odd total pad)", {1, 3, 8, 7}, {4, 3, 4, 4}, 1, "SAME_UPPER", {2, 2}, {}, {}, true},
      {"2-D SAME_LOWER stride 2", {1, 3, 8, 7}, {4, 3, 4, 4}, 1, "SAME_LOWER", {2, 2}, {}, {}, true},
      {"2-D VALID stride 3", {1, 2, 10, 11}, {3, 2, 3, 2}, 1, "VALID", {3, 3}, {}, {}, false},
      {"2-D 1x1", {2, 16, 5, 5}, {8, 16, 1, 1}, 1, "NOTSET", {}, {}, {}, true},
      {"2-D kernel larger than input, padded", {1, 2, 2, 3}, {2, 2, 4, 4}, 1, "NOTSET", {}, {}, {2, 1, 1, 2}, true},
      {"2-D 32 channels (blocked layouts)", {2, 32, 14, 14}, {64, 32, 3, 3}, 1, "NOTSET", {}, {}, {1, 1, 1, 1},
       true},
      {"2-D 7x7 stride 2 stem", {1, 3, 32, 32}, {16, 3, 7, 7}, 1, "NOTSET", {2, 2}, {}, {3, 3, 3, 3}, false},
      {"2-D groups 4, 64 channels", {1, 64, 8, 8}, {64, 16, 3, 3}, 4, "NOTSET", {}, {}, {1, 1, 1, 1}, true},
      {"3-D plain", {1, 2, 4, 5, 6}, {3, 2, 2, 3, 3}, 1, "NOTSET", {}, {}, {}, true},
      {"3-D strided, asymmetric pads, dilated", {2, 2, 6, 7, 5}, {2, 2, 3, 2, 2}, 1, "NOTSET", {2, 1, 2},
       {1, 2, 1}, {1, 0, 1, 0, 1, 1}, false},
      {"3-D grouped", {1, 4, 5, 5, 5}, {4, 2, 3, 3, 3}, 2, "NOTSET", {}, {}, {1, 1, 1, 1, 1, 1}, true},
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    for (bool constant_weights : {false, true}) {
      CAPTURE(c.what);
      CAPTURE(str(c.x));
      CAPTURE(str(c.w));
      CAPTURE(c.group);
      CAPTURE(c.auto_pad);
      CAPTURE(str(c.strides));
      CAPTURE(str(c.dilations));
      CAPTURE(str(c.pads));
      CAPTURE(c.bias);
      CAPTURE(constant_weights);
      Attributes a;
      a.set("group", int_attr(c.group));
      a.set("auto_pad", string_attr(c.auto_pad));
      if (!c.strides.empty()) a.set("strides", ints(c.strides));
      if (!c.dilations.empty()) a.set("dilations", ints(c.dilations));
      if (!c.pads.empty()) a.set("pads", ints(c.pads));
      std::vector<Tensor> in{random_tensor(c.x, seed++), random_tensor(c.w, seed++)};
      if (c.bias) in.push_back(random_tensor({c.w[0]}, seed++));
      const std::vector<bool> constant{false, constant_weights, constant_weights};
      CHECK(dnnl_vs_ref("Conv", a, in, 11, constant) == "");
    }
  }
}

TEST_CASE("dnnl Conv runs one compiled kernel from many threads at once") {
  Attributes a;
  a.set("pads", ints({1, 1, 1, 1}));
  const std::vector<Tensor> in{random_tensor({1, 16, 12, 12}, 7), random_tensor({32, 16, 3, 3}, 8)};
  const std::vector<bool> constant{false, true};
  Node n = make_node("Conv", a, 2, 1, 11);
  const std::vector<ValueInfo> infos{ValueInfo::of(in[0].dtype(), in[0].shape()), ValueInfo::of(in[1])};
  const std::vector<ValueInfo> out = n.def->infer(*n.params, infos);
  REQUIRE(n.def->kernels.front().name == "dnnl");
  const std::unique_ptr<CompiledKernel> kernel = compile_named(n, "dnnl", infos, out, {{Layout(), Layout()}, {}});
  const Tensor want = run_op("Conv", a, in, 11, 1, "ref", constant)[0];
  std::vector<Tensor> got(4);
  std::vector<std::thread> threads;
  for (Tensor& y : got)
    threads.emplace_back([&] {
      for (int rep = 0; rep < 5; ++rep) {
        std::vector<Tensor> results{Tensor(DType::f32, out[0].shape)};
        run_compiled(*kernel, in, results);
        y = results[0];
      }
    });
  for (std::thread& t : threads) t.join();
  for (size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(within_tolerance("Conv", 11, got[i], want) == "");
  }
}

TEST_CASE("dnnl Conv declines what it cannot run") {
  Attributes a;
  CHECK(dnnl_declines("Conv", a, {random_tensor({1, 2, 0, 4}, 1), random_tensor({3, 2, 1, 1}, 2)}) != "");
  CHECK(dnnl_declines("Conv", a, {random_tensor({1, 2, 5, 4}, 1), random_tensor({3, 2, 1, 1}, 2)}) == "");
}

TEST_CASE("dnnl Gemm matches the reference for transposes, alpha, beta and every C broadcast") {
  struct Case {
    int64_t M, N, K;
    bool trans_a, trans_b;
    float alpha, beta;
    bool has_c;
    Shape c;
    int opset;
  };
  const Case cases[] = {
      {3, 4, 5, false, false, 1.f, 1.f, false, {}, 13},
      {3, 4, 5, true, false, 1.f, 1.f, false, {}, 13},
      {3, 4, 5, false, true, 1.f, 1.f, false, {}, 13},
      {3, 4, 5, true, true, 0.5f, 1.f, false, {}, 13},
      {3, 4, 5, false, false, 1.f, 1.f, true, {3, 4}, 13},
      {3, 4, 5, false, true, 1.f, 1.f, true, {4}, 13},
      {3, 4, 5, false, false, 1.f, 1.f, true, {1, 4}, 13},
      {3, 4, 5, false, false, 0.25f, 0.35f, true, {3, 1}, 13},
      {3, 4, 5, true, true, 2.f, -1.5f, true, {}, 13},
      {3, 4, 5, false, false, 1.f, 0.f, true, {1, 1}, 13},
      {3, 4, 5, false, false, 1.f, 2.f, true, {1}, 13},
      {3, 4, 5, false, false, 0.f, 1.f, true, {3, 4}, 13},
      {1, 1000, 512, false, true, 1.f, 1.f, true, {1000}, 13},
      {8, 64, 2048, false, true, 1.f, 1.f, true, {64}, 13},
      {17, 9, 33, true, false, 1.5f, 0.5f, true, {17, 9}, 6},
      {4, 6, 1, false, false, 1.f, 1.f, true, {6}, 7},
      {2, 37, 70, false, false, 1.f, 3.f, true, {1, 37}, 13},
      {2, 37, 70, false, true, 1.f, 0.5f, true, {1, 1}, 13},
      {3, 4, 5, false, true, 1.f, -1.5f, true, {}, 13},
      {5, 1, 7, false, false, 1.f, 1.f, true, {1}, 13},
  };
  uint32_t seed = 100;
  for (const Case& c : cases) {
    CAPTURE(c.M);
    CAPTURE(c.N);
    CAPTURE(c.K);
    CAPTURE(c.trans_a);
    CAPTURE(c.trans_b);
    CAPTURE(c.alpha);
    CAPTURE(c.beta);
    CAPTURE(c.has_c);
    CAPTURE(str(c.c));
    CAPTURE(c.opset);
    Attributes a;
    a.set("transA", int_attr(c.trans_a));
    a.set("transB", int_attr(c.trans_b));
    a.set("alpha", float_attr(c.alpha));
    a.set("beta", float_attr(c.beta));
    // B is scaled like a layer's weights (PyTorch's Linear init, U(+-1/sqrt(K))), so that outputs are O(1)
    // and the float32 partial sums stay within the premise of the op's tolerance.
    const float w = 1.f / std::sqrt(float(c.K));
    std::vector<Tensor> in{random_tensor(c.trans_a ? Shape{c.K, c.M} : Shape{c.M, c.K}, seed++),
                           random_tensor(c.trans_b ? Shape{c.N, c.K} : Shape{c.K, c.N}, seed++, -w, w)};
    if (c.has_c) in.push_back(random_tensor(c.c, seed++));
    // Constant B and C (a layer's weights and bias) take the inner product where A is not transposed and
    // C is a row; everything else the matmul.
    for (bool constant_b_c : {false, true}) {
      CAPTURE(constant_b_c);
      CHECK(dnnl_vs_ref("Gemm", a, in, c.opset, {false, constant_b_c, constant_b_c}) == "");
    }
  }
}

TEST_CASE("dnnl MatMul matches the reference for vectors and broadcast batches") {
  struct Case {
    Shape a, b;
  };
  const Case cases[] = {
      {{5}, {5}},
      {{5}, {5, 3}},
      {{4, 5}, {5}},
      {{4, 5}, {5, 3}},
      {{2, 3, 4, 5}, {5, 6}},
      {{4, 5}, {2, 5, 6}},
      {{2, 1, 4, 5}, {3, 5, 6}},
      {{1, 4, 5}, {4, 5, 6}},
      {{3, 1, 4, 5}, {1, 2, 5, 6}},
      {{5}, {2, 5, 6}},
      {{2, 4, 5}, {5}},
      {{2, 2, 2, 2, 3, 4}, {2, 1, 2, 4, 2}},
      {{64, 256}, {256, 128}},
  };
  uint32_t seed = 200;
  for (const Case& c : cases) {
    CAPTURE(str(c.a));
    CAPTURE(str(c.b));
    CHECK(dnnl_vs_ref("MatMul", {}, {random_tensor(c.a, seed++), random_tensor(c.b, seed++)}, 13) == "");
  }
}

TEST_CASE("dnnl unary ops match the reference, special values included") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  Tensor x = random_tensor({3, 4, 50}, 300, -8.f, 8.f);
  const float specials[] = {0.f, -0.f, inf, -inf, nan, 1e-30f, -1e-30f, 3.f, -3.f, 88.f, -88.f, 100.f, -100.f};
  for (size_t i = 0; i < std::size(specials); ++i) x.data<float>()[i] = specials[i];

  struct Case {
    const char* op;
    Attributes attrs;
    int opset;
    bool nan_in_input;
  };
  auto with = [](std::initializer_list<std::pair<const char*, float>> fs) {
    Attributes a;
    for (const auto& [name, v] : fs) a.set(name, float_attr(v));
    return a;
  };
  // oneDNN's relu and clip compute with compare-and-select or max/min, which turn a NaN input into a number
  // (relu 0, clip its lower bound); the reference kernels propagate NaN (HardSigmoid's reference gives 1).
  // A kernel cannot decline by data, so for those ops NaN is left out of the input: a documented difference.
  const Case cases[] = {
      {"Relu", {}, 14, false},
      {"LeakyRelu", {}, 16, true},
      {"LeakyRelu", with({{"alpha", 0.3f}}), 16, true},
      {"LeakyRelu", with({{"alpha", -2.f}}), 16, true},
      {"Sigmoid", {}, 13, true},
      {"Tanh", {}, 13, true},
      {"HardSigmoid", {}, 6, false},
      {"HardSigmoid", with({{"alpha", 0.5f}, {"beta", 0.6f}}), 6, false},
      {"HardSigmoid", with({{"alpha", -0.3f}, {"beta", 0.1f}}), 6, false},
      {"HardSwish", {}, 14, true},
      {"Clip", with({{"min", -1.f}, {"max", 2.5f}}), 6, false},
      {"Clip", with({{"min", 0.f}}), 6, false},
      {"Clip", {}, 6, false},
  };
  Tensor x_without_nan = x.clone();
  for (int64_t i = 0; i < x.numel(); ++i)
    if (std::isnan(x.data<float>()[i])) x_without_nan.data<float>()[i] = 0.5f;
  for (const Case& c : cases) {
    const std::string op = c.op;
    CAPTURE(op);
    CAPTURE(c.opset);
    CAPTURE(c.nan_in_input);
    CAPTURE(c.attrs.has("alpha") ? c.attrs.get_float("alpha", 0) : 0.f);
    CAPTURE(c.attrs.has("beta") ? c.attrs.get_float("beta", 0) : 0.f);
    CAPTURE(c.attrs.has("min") ? c.attrs.get_float("min", 0) : 0.f);
    CAPTURE(c.attrs.has("max") ? c.attrs.get_float("max", 0) : 0.f);
    CHECK(dnnl_vs_ref(c.op, c.attrs, {c.nan_in_input ? x : x_without_nan}, c.opset) == "");
  }
}

TEST_CASE("dnnl Clip takes constant bound inputs and declines runtime or inverted bounds") {
  const Tensor x = random_tensor({2, 3, 7}, 400, -3.f, 3.f);
  const Tensor lo = make_tensor({}, {-1.f}), hi = make_tensor({1}, {0.5f}), none;
  struct Case {
    const char* what;
    std::vector<Tensor> in;
    std::vector<bool> constant;
    bool declines;
  };
  const Case cases[] = {
      {"both bounds", {x, lo, hi}, {false, true, true}, false},
      {"min only", {x, lo}, {false, true}, false},
      {"max only", {x, none, hi}, {false, false, true}, false},
      {"no bounds", {x}, {false}, false},
      {"runtime min", {x, lo, hi}, {false, false, true}, true},
      {"runtime max", {x, lo, hi}, {false, true, false}, true},
      {"min > max", {x, make_tensor({}, {1.f}), make_tensor({}, {0.f})}, {false, true, true}, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const std::string why = dnnl_declines("Clip", {}, c.in, 13, c.constant);
    CAPTURE(why);
    CHECK((why != "") == c.declines);
    if (!c.declines) CHECK(dnnl_vs_ref("Clip", {}, c.in, 13, c.constant) == "");
  }
  CHECK(dnnl_declines("Clip", {}, {make_int_tensor({2}, {1, 2})}, 13) != "");  // int64
}

TEST_CASE("dnnl binary ops match the reference for broadcasting patterns") {
  struct Case {
    Shape a, b;
    bool a_broadcasts;  // A must grow to the output shape: Add and Mul swap operands, Sub and Div decline
  };
  const Case cases[] = {
      {{2, 3, 4}, {2, 3, 4}, false}, {{3, 4}, {4}, false},        {{2, 3, 4}, {2, 1, 4}, false},
      {{2, 3, 4, 5}, {3, 1, 1}, false}, {{2, 3, 4}, {}, false},   {{2, 3, 4}, {1}, false},
      {{1, 16, 7, 7}, {1, 16, 1, 1}, false}, {{5}, {5}, false},   {{4}, {3, 4}, true},
      {{}, {2, 3}, true},            {{2, 1, 4}, {2, 3, 4}, true},
  };
  const char* ops[] = {"Add", "Sub", "Mul", "Div"};
  uint32_t seed = 500;
  for (const Case& c : cases)
    for (const char* op_name : ops) {
      const std::string op = op_name;
      CAPTURE(op);
      CAPTURE(str(c.a));
      CAPTURE(str(c.b));
      // Divisors away from 0 keep quotients finite; both kernels are exact anyway.
      const std::vector<Tensor> in{random_tensor(c.a, seed++), random_tensor(c.b, seed++, 0.5f, 2.f)};
      const std::string why = dnnl_declines(op, {}, in, 14);
      CAPTURE(why);
      const bool commutative = op == "Add" || op == "Mul";
      CHECK((why != "") == (c.a_broadcasts && !commutative));
      if (why.empty()) CHECK(dnnl_vs_ref(op, {}, in, 14) == "");
    }
}

TEST_CASE("dnnl binary ops keep an arriving nChw16c layout only where oneDNN has a JIT kernel for it") {
  // oneDNN 2.6 runs a broadcast src1 (per channel, or one scalar) over nChw16c with its reference
  // implementation only: the kernel takes such inputs plain (the plan reorders) instead.
  struct Case {
    Shape a, b;
    bool keeps_blocked;
  };
  const Case cases[] = {
      {{1, 32, 9, 9}, {1, 32, 9, 9}, true},   // same shapes: blocked src1 too
      {{1, 32, 9, 9}, {1, 32, 1, 1}, false},  // per channel (squeeze-excitation)
      {{1, 32, 9, 9}, {1}, false},            // one scalar
  };
  for (const Case& c : cases)
    for (const std::string op : {"Add", "Mul"}) {
      CAPTURE(op);
      CAPTURE(str(c.a));
      CAPTURE(str(c.b));
      const Node n = make_node(op, {}, 2, 1, 14);
      const std::vector<ValueInfo> in{ValueInfo::of(DType::f32, c.a), ValueInfo::of(DType::f32, c.b)};
      const Layout blocked = channel_blocked_layout(c.a);
      const KernelLayouts offered{{blocked, c.b == c.a ? blocked : Layout()}, {}};
      const auto kernel = compile_named(n, "dnnl", in, {ValueInfo::of(DType::f32, c.a)}, offered);
      REQUIRE(kernel->layouts() != nullptr);
      CHECK(!is_plain(kernel->layouts()->in[0]) == c.keeps_blocked);
      CHECK(!is_plain(kernel->layouts()->out[0]) == c.keeps_blocked);
      const std::vector<Tensor> x{random_tensor(c.a, 7), random_tensor(c.b, 8)};
      std::vector<Tensor> got{Tensor(DType::f32, c.a)};
      run_compiled(*kernel, x, got);
      CHECK(within_tolerance(op, 14, got[0], run_op(op, {}, x, 14)[0]) == "");
    }
}

TEST_CASE("dnnl eltwise ops keep an arriving nChw16c layout only where oneDNN has a JIT kernel for it") {
  // oneDNN 2.6's logistic over nChw16c with padded channels (C not a multiple of 16) is its reference one.
  struct Case {
    const char* op;
    Shape x;
    bool keeps_blocked;
  };
  const Case cases[] = {
      {"Sigmoid", {1, 32, 5, 5}, true},
      {"Sigmoid", {1, 20, 5, 5}, false},
      {"Relu", {1, 20, 5, 5}, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.op);
    CAPTURE(str(c.x));
    const Node n = make_node(c.op, {}, 1, 1, 14);
    const std::vector<ValueInfo> in{ValueInfo::of(DType::f32, c.x)};
    const auto kernel = compile_named(n, "dnnl", in, in, {{channel_blocked_layout(c.x)}, {}});
    REQUIRE(kernel->layouts() != nullptr);
    CHECK(!is_plain(kernel->layouts()->in[0]) == c.keeps_blocked);
    const std::vector<Tensor> x{random_tensor(c.x, 9)};
    std::vector<Tensor> got{Tensor(DType::f32, c.x)};
    run_compiled(*kernel, x, got);
    CHECK(within_tolerance(c.op, 14, got[0], run_op(c.op, {}, x, 14)[0]) == "");
  }
}

TEST_CASE("dnnl binary ops decline when both inputs broadcast, and non-float32") {
  for (const char* op : {"Add", "Sub", "Mul", "Div"}) {
    CAPTURE(op);
    CHECK(dnnl_declines(op, {}, {random_tensor({2, 1, 4}, 1), random_tensor({3, 1}, 2)}) != "");
    CHECK(dnnl_declines(op, {}, {make_int_tensor({2}, {1, 2}), make_int_tensor({2}, {3, 4})}) != "");
  }
}

TEST_CASE("dnnl BatchNormalization matches the reference in test mode, any rank") {
  struct Case {
    Shape x;
    float epsilon;
    int opset;
  };
  const Case cases[] = {
      {{2, 3}, 1e-5f, 15},          {{2, 3, 5}, 1e-5f, 15},      {{2, 3, 4, 5}, 1e-3f, 15},
      {{1, 2, 3, 4, 5}, 1e-5f, 9},  {{6}, 1e-5f, 9},             {{2, 3, 2, 2, 2, 2}, 0.f, 14},
      {{1, 64, 14, 14}, 1e-5f, 7},
  };
  uint32_t seed = 600;
  for (const Case& c : cases) {
    CAPTURE(str(c.x));
    CAPTURE(c.epsilon);
    CAPTURE(c.opset);
    const int64_t C = c.x.size() == 1 ? 1 : c.x[1];
    Attributes a;
    a.set("epsilon", float_attr(c.epsilon));
    const std::vector<Tensor> in{random_tensor(c.x, seed++, -3.f, 3.f), random_tensor({C}, seed++, 0.5f, 2.f),
                                 random_tensor({C}, seed++), random_tensor({C}, seed++),
                                 random_tensor({C}, seed++, 0.1f, 3.f)};
    CHECK(dnnl_vs_ref("BatchNormalization", a, in, c.opset) == "");
  }
  Attributes training;
  training.set("training_mode", int_attr(1));
  CHECK(dnnl_declines("BatchNormalization", training,
                      {random_tensor({2, 3, 4}, 1), random_tensor({3}, 2), random_tensor({3}, 3),
                       random_tensor({3}, 4), random_tensor({3}, 5, 0.1f, 1.f)},
                      15) != "");
}

TEST_CASE("dnnl Softmax matches the reference for every axis, both opset semantics") {
  struct Case {
    Shape x;
    int64_t axis;
    int opset;
  };
  const Case cases[] = {
      {{2, 3, 4}, 0, 13},  {{2, 3, 4}, 1, 13},  {{2, 3, 4}, 2, 13},     {{2, 3, 4}, -1, 13},
      {{5}, 0, 13},        {{2, 3, 4, 5}, 1, 13}, {{2, 1000}, 1, 13},  {{2, 3, 4}, 0, 11},
      {{2, 3, 4}, 1, 11},  {{2, 3, 4}, 2, 11},  {{2, 3, 4, 5}, -2, 1}, {{3, 10}, 1, 1},
  };
  uint32_t seed = 700;
  for (const Case& c : cases) {
    CAPTURE(str(c.x));
    CAPTURE(c.axis);
    CAPTURE(c.opset);
    Attributes a;
    a.set("axis", int_attr(c.axis));
    CHECK(dnnl_vs_ref("Softmax", a, {random_tensor(c.x, seed++, -10.f, 10.f)}, c.opset) == "");
  }
  // Rows [-inf, x, -inf, x] (the infinities weigh 0), all -inf (NaN, as Exp/ReduceSum/Div give), large values
  // (no overflow after subtracting the max).
  const float inf = std::numeric_limits<float>::infinity();
  const Tensor x = make_tensor({3, 4}, {-inf, 1.f, -inf, 2.f, -inf, -inf, -inf, -inf, 1e30f, 1e30f, 3e30f, -1e30f});
  CHECK(dnnl_vs_ref("Softmax", {}, {x}, 13) == "");
  // A row holding +inf is all NaN in ONNX (the sum is NaN); oneDNN 2.6 gives NaN only where the inf was and 0
  // elsewhere: [0, inf, 1, 2] -> [0, NaN, 0, 0]. A kernel cannot decline by data, so this is a documented
  // difference, pinned here to notice if it changes.
  const Tensor with_inf = run_op("Softmax", {}, {make_tensor({1, 4}, {0.f, inf, 1.f, 2.f})}, 13, 1, "dnnl")[0];
  CHECK(std::isnan(with_inf.data<float>()[1]));
  CHECK(with_inf.data<float>()[0] == 0.f);
}

TEST_CASE("dnnl LRN matches the reference for odd sizes and declines even ones") {
  struct Case {
    Shape x;
    int64_t size;
    float alpha, beta, bias;
  };
  const Case cases[] = {
      {{2, 7, 3, 3}, 1, 1e-4f, 0.75f, 1.f}, {{2, 7, 3, 3}, 3, 1e-2f, 0.75f, 1.f}, {{1, 5, 4}, 5, 0.5f, 0.5f, 2.f},
      {{1, 3, 2, 2, 2}, 3, 2e-4f, 1.f, 1.f}, {{1, 16, 6, 6}, 5, 1e-4f, 0.75f, 2.f}, {{2, 4, 3}, 7, 0.3f, 0.6f, 0.5f},
  };
  uint32_t seed = 800;
  for (const Case& c : cases) {
    CAPTURE(str(c.x));
    CAPTURE(c.size);
    CAPTURE(c.alpha);
    CAPTURE(c.beta);
    CAPTURE(c.bias);
    Attributes a;
    a.set("size", int_attr(c.size));
    a.set("alpha", float_attr(c.alpha));
    a.set("beta", float_attr(c.beta));
    a.set("bias", float_attr(c.bias));
    CHECK(dnnl_vs_ref("LRN", a, {random_tensor(c.x, seed++, -3.f, 3.f)}, 13) == "");
  }
  Attributes even;
  even.set("size", int_attr(4));
  CHECK(dnnl_declines("LRN", even, {random_tensor({1, 6, 2, 2}, 1)}, 13) != "");
}
