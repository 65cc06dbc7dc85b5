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
      {"HardSwish", -4.f, 0.f},
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
