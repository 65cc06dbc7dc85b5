#include <doctest/doctest.h>

#include <cmath>

#include "ops/builtin_ops.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

TEST_CASE("unary ops match their formulas") {
  struct Case { const char* op; float x; float want; };
  const Case cases[] = {
      {"Relu", -2.f, 0.f},      {"Relu", 3.f, 3.f},          {"LeakyRelu", -2.f, -0.02f},
      {"Sigmoid", 0.f, 0.5f},   {"Sigmoid", -100.f, 3.7200760e-44f}, {"Tanh", 0.5f, 0.46211716f},
      {"HardSigmoid", 1.f, 0.7f}, {"HardSigmoid", 10.f, 1.f}, {"HardSwish", 1.f, 0.6666667f},
      {"HardSwish", -4.f, 0.f}, {"Round", 2.5f, 2.f},       {"Round", -1.5f, -2.f},      {"Round", 0.5f, 0.f},
      {"Sign", -3.f, -1.f},     {"Sign", 0.f, 0.f},           {"Elu", -1.f, -0.63212056f}, {"Celu", -1.f, -0.63212056f},
      {"Selu", 1.f, 1.05070102f}, {"Softplus", 0.f, 0.69314718f}, {"Softsign", 3.f, 0.75f},
      {"ThresholdedRelu", 1.f, 0.f}, {"ThresholdedRelu", 1.5f, 1.5f}, {"Mish", 1.f, 0.86509839f},
      {"Erf", 0.5f, 0.52049988f}, {"Reciprocal", 4.f, 0.25f}, {"Floor", -1.5f, -2.f},   {"Ceil", -1.5f, -1.f},
  };
  for (const Case& c : cases) {
    const std::string op = c.op;
    CAPTURE(op);
    CAPTURE(c.x);
    Tensor y = run_op(c.op, {}, {make_tensor({1}, {c.x})})[0];
    CHECK(within_tolerance(c.op, 19, y, std::vector<double>{c.want}) == "");
  }
}

TEST_CASE("Clip reads bounds from attributes before opset 11 and from inputs after") {
  Attributes a;
  a.set("min", float_attr(-1.f));
  a.set("max", float_attr(1.f));
  Tensor x = make_tensor({4}, {-3.f, -0.5f, 0.5f, 3.f});
  Tensor y6 = run_op("Clip", a, {x}, 6)[0];
  Tensor y13 = run_op("Clip", {}, {x, make_tensor({}, {-1.f}), make_tensor({}, {1.f})}, 13)[0];
  Tensor y13_max_only = run_op("Clip", {}, {x, Tensor(), make_tensor({}, {0.f})}, 13)[0];
  for (int i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(y6.data<float>()[i] == std::min(1.f, std::max(-1.f, x.data<float>()[i])));
    CHECK(y13.data<float>()[i] == y6.data<float>()[i]);
    CHECK(y13_max_only.data<float>()[i] == std::min(0.f, x.data<float>()[i]));
  }
  CHECK_THROWS_AS(run_op("Clip", a, {x}, 13), Error);  // attributes are gone at opset 11
}

TEST_CASE("opsets 1-5 of the unary ops: consumed_inputs is accepted there only, Selu's old defaults") {
  Attributes hint;
  hint.set("consumed_inputs", ints({0}));
  const Tensor x = make_tensor({1}, {1.f});
  CHECK(run_op("Relu", hint, {x}, 1)[0].data<float>()[0] == 1.f);
  CHECK_THROWS_AS(run_op("Relu", hint, {x}, 6), Error);
  CHECK_THROWS_AS(run_op("Softplus", hint, {x}, 1), Error);  // Softplus never had it
  CHECK(run_op("Selu", hint, {x}, 1)[0].data<float>()[0] == 1.0507f);  // gamma 1.0507 before opset 6
  CHECK(run_op("Selu", {}, {x}, 6)[0].data<float>()[0] == 1.05070102214813232421875f);
  Attributes clip_hint = hint;
  clip_hint.set("max", float_attr(0.5f));
  CHECK(run_op("Clip", clip_hint, {x}, 1)[0].data<float>()[0] == 0.5f);
  CHECK_THROWS_AS(run_op("Clip", clip_hint, {x}, 6), Error);
}

TEST_CASE("Not negates bools and takes nothing else") {
  Tensor b(DType::boolean, {3});
  b.data<bool>()[0] = true;
  b.data<bool>()[1] = false;
  b.data<bool>()[2] = true;
  const Tensor y = run_op("Not", {}, {b}, 1)[0];
  CHECK(!y.data<bool>()[0]);
  CHECK(y.data<bool>()[1]);
  CHECK(!y.data<bool>()[2]);
  CHECK_THROWS_AS(run_op("Not", {}, {make_tensor({2})}, 1), Error);
}

TEST_CASE("binary ops broadcast both ways") {
  Tensor a = make_tensor({2, 1, 3});
  Tensor b = make_tensor({4, 1}, {10, 20, 30, 40});
  Tensor y = run_op("Add", {}, {a, b})[0];
  REQUIRE(y.shape() == Shape{2, 4, 3});
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 4; ++j)
      for (int64_t k = 0; k < 3; ++k) {
        CAPTURE(i); CAPTURE(j); CAPTURE(k);
        CHECK(y.data<float>()[(i * 4 + j) * 3 + k] == float(i * 3 + k) + 10.f * float(j + 1));
      }
  CHECK_THROWS_AS(run_op("Mul", {}, {make_tensor({2, 3}), make_tensor({4, 3})}), Error);
}

TEST_CASE("integer Div truncates toward zero and refuses division by zero") {
  Tensor a = make_int_tensor({4}, {7, -7, 7, -7});
  Tensor b = make_int_tensor({4}, {2, 2, -2, -2});
  Tensor y = run_op("Div", {}, {a, b}, 14, 1, "ref", {false, false})[0];
  CHECK(std::vector<int64_t>(y.data<int64_t>(), y.data<int64_t>() + 4) == std::vector<int64_t>{3, -3, -3, 3});
  CHECK_THROWS_AS(run_op("Div", {}, {a, make_int_tensor({1}, {0})}, 14, 1, "ref", {false, false}), Error);
}
