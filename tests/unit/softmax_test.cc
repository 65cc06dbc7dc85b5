#include <doctest/doctest.h>

#include <cmath>

#include "ops/builtin_ops.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

Tensor wave(Shape shape) {
  Tensor t(DType::f32, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = float(3.0 * std::sin(1.3 * double(i) + 0.2));
  return t;
}

Attributes axis_attr(int64_t axis) {
  Attributes a;
  a.set("axis", int_attr(axis));
  return a;
}

// Direct definition exp(x_i) / sum_j exp(x_j) (inputs are small, so no max shift is needed), where j runs
// over the elements sharing every index of i outside dims [first, last).
std::vector<double> direct_softmax(const Tensor& x, size_t first, size_t last) {
  const Shape& s = x.shape();
  const int64_t mid = numel_range(s, first, last), inner = numel_range(s, last, s.size());
  std::vector<double> y(size_t(x.numel()));
  for (int64_t i = 0; i < x.numel(); ++i) {
    const int64_t o = i / (mid * inner), r = i % inner;
    double sum = 0;
    for (int64_t m = 0; m < mid; ++m) sum += std::exp(double(x.data<float>()[(o * mid + m) * inner + r]));
    y[size_t(i)] = std::exp(double(x.data<float>()[i])) / sum;
  }
  return y;
}

}  // namespace

TEST_CASE("Softmax from opset 13 normalizes over the single axis; before 13 over the 2-D view from axis on") {
  struct Case { Shape shape; int opset; bool set_axis; int64_t axis; size_t first, last; };
  const Case cases[] = {
      {{2, 3, 4}, 13, false, 0, 2, 3},  // default -1
      {{2, 3, 4}, 13, true, 0, 0, 1},   {{2, 3, 4}, 13, true, 1, 1, 2},  {{2, 3, 4}, 13, true, -2, 1, 2},
      {{2, 3, 4}, 13, true, -3, 0, 1},  {{5}, 13, false, 0, 0, 1},       {{2, 1, 3, 2}, 13, true, 2, 2, 3},
      {{2, 3, 4}, 11, false, 0, 1, 3},  // default 1: rows of 3*4
      {{2, 3, 4}, 11, true, 0, 0, 3},   {{2, 3, 4}, 11, true, 2, 2, 3},  {{2, 3, 4}, 11, true, -2, 1, 3},
      {{2, 3, 4}, 1, false, 0, 1, 3},   {{2, 3, 4}, 1, true, 2, 2, 3},   {{4}, 11, true, 0, 0, 1},
      {{2, 0, 3}, 13, true, 1, 1, 2},
  };
  for (const Case& c : cases) {
    CAPTURE(to_string(c.shape));
    CAPTURE(c.opset);
    CAPTURE(c.set_axis);
    CAPTURE(c.axis);
    Tensor x = wave(c.shape);
    Tensor y = run_op("Softmax", c.set_axis ? axis_attr(c.axis) : Attributes{}, {x}, c.opset)[0];
    REQUIRE(y.shape() == c.shape);
    CHECK(within_tolerance("Softmax", c.opset, y, direct_softmax(x, c.first, c.last)) == "");
  }
}

TEST_CASE("Softmax is stable for large inputs, exact for equal rows, zero at -inf, NaN for undefined rows") {
  const float inf = INFINITY;
  struct Case { const char* what; std::vector<float> x; std::vector<double> want; };
  const Case cases[] = {
      // numpy: exp(x - 1002) / sum, in float64.
      {"large numbers", {1000, 1001, 1002}, {0.09003057317038046, 0.24472847105479764, 0.6652409557748219}},
      {"very negative numbers", {-1000, -1001, -1002}, {0.6652409557748219, 0.24472847105479764, 0.09003057317038046}},
      {"all equal", {7, 7, 7, 7}, {0.25, 0.25, 0.25, 0.25}},
      {"all equal and huge", {3e38f, 3e38f}, {0.5, 0.5}},
      {"some -inf", {-inf, 0, -inf, 0}, {0, 0.5, 0, 0.5}},
      {"-inf beside one value", {-inf, -5}, {0, 1}},
      {"all -inf", {-inf, -inf, -inf}, {NAN, NAN, NAN}},
      {"+inf", {inf, 0}, {NAN, NAN}},
      {"NaN", {1, NAN, 2}, {NAN, NAN, NAN}},
  };
  for (const Case& c : cases) {
    for (int opset : {11, 13}) {
      CAPTURE(c.what);
      CAPTURE(opset);
      const int64_t n = int64_t(c.x.size());
      Tensor y = run_op("Softmax", {}, {make_tensor({1, n}, c.x)}, opset)[0];
      CHECK(within_tolerance("Softmax", opset, y, c.want) == "");  // NaN must meet NaN
    }
  }
}

TEST_CASE("Softmax refuses axes outside [-rank, rank-1], scalars and non-float inputs") {
  Attributes typo;
  typo.set("axes", int_attr(1));
  check_bad_nodes({
      {"axis = rank", "Softmax", 13, axis_attr(3), {wave({2, 3, 4})}, "axis 3 is out of range for rank 3"},
      {"axis = -rank - 1", "Softmax", 13, axis_attr(-4), {wave({2, 3, 4})}, "axis -4 is out of range for rank 3"},
      {"axis = rank, coerced form", "Softmax", 11, axis_attr(3), {wave({2, 3, 4})},
       "axis 3 is out of range for rank 3"},
      {"default axis 1 on a 1-D input before opset 13", "Softmax", 11, {}, {wave({4})},
       "axis 1 is out of range for rank 1"},
      {"scalar", "Softmax", 13, {}, {wave({})}, "rank >= 1"},
      {"int64 input", "Softmax", 13, {}, {make_int_tensor({2}, {1, 2})}, "element type"},
      {"unknown attribute", "Softmax", 13, typo, {wave({2, 3})}, "unknown attribute 'axes'"},
  });
}

TEST_CASE("Softmax infers shapes with dims unknown at load time and checks the axis against the rank") {
  const int64_t U = kUnknownDim;
  for (int opset : {11, 13}) {
    CAPTURE(opset);
    Node n = make_node("Softmax", axis_attr(-2), 1, 1, opset);
    CHECK(n.def->infer(*n.params, {ValueInfo::of(DType::f32, {U, 3, U})})[0].shape == Shape{U, 3, U});
    CHECK_THROWS_AS(n.def->infer(*n.params, {ValueInfo::of(DType::f32, {U})}), Error);
  }
}

TEST_CASE("LogSoftmax and Hardmax: the 2-D view before opset 13, one axis from 13; the same refusals") {
  // [2, 2, 2]: opset 13 axis 1 works on pairs along dim 1; opset 11 axis 1 on rows of 4.
  const Tensor x = make_tensor({2, 2, 2}, {1, 4, 3, 2, 0, 0, 5, -1});
  const float hard13[] = {0, 1, 1, 0, 0, 1, 1, 0};  // argmax over dim 1
  const float hard11[] = {0, 1, 0, 0, 0, 0, 1, 0};  // argmax over rows of 4
  const Tensor h13 = run_op("Hardmax", axis_attr(1), {x}, 13)[0];
  const Tensor h11 = run_op("Hardmax", {}, {x}, 11)[0];
  for (int i = 0; i < 8; ++i) {
    CHECK(h13.data<float>()[i] == hard13[i]);
    CHECK(h11.data<float>()[i] == hard11[i]);
  }
  const Tensor l11 = run_op("LogSoftmax", {}, {x}, 11)[0];
  const Tensor l13 = run_op("LogSoftmax", axis_attr(1), {x}, 13)[0];
  std::vector<double> want11, want13;
  for (double v : direct_softmax(x, 1, 3)) want11.push_back(std::log(v));
  for (double v : direct_softmax(x, 1, 2)) want13.push_back(std::log(v));
  CHECK(within_tolerance("LogSoftmax", 11, l11, want11) == "");
  CHECK(within_tolerance("LogSoftmax", 13, l13, want13) == "");

  Attributes typo;
  typo.set("axes", int_attr(1));
  for (const char* op : {"LogSoftmax", "Hardmax"}) {
    CAPTURE(op);
    CHECK_THROWS_WITH_AS(run_op(op, axis_attr(3), {wave({2, 3, 4})}, 13), doctest::Contains("out of range"), Error);
    CHECK_THROWS_WITH_AS(run_op(op, axis_attr(-4), {wave({2, 3, 4})}, 11), doctest::Contains("out of range"), Error);
    CHECK_THROWS_WITH_AS(run_op(op, {}, {wave({4})}, 11), doctest::Contains("axis 1 is out of range"), Error);
    CHECK_THROWS_WITH_AS(run_op(op, {}, {wave({})}, 13), doctest::Contains("rank >= 1"), Error);
    CHECK_THROWS_WITH_AS(run_op(op, {}, {make_int_tensor({2}, {1, 2})}, 13), doctest::Contains("element type"), Error);
    CHECK_THROWS_WITH_AS(run_op(op, typo, {wave({2, 3})}, 13), doctest::Contains("unknown attribute 'axes'"), Error);
  }
}
