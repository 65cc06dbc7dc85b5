#include <doctest/doctest.h>

#include <cmath>
#include <limits>

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
      {"Shrink", 0.75f, 0.75f}, {"Shrink", -0.25f, 0.f}, {"Shrink", -0.5f, 0.f},
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

// Neg, Abs, Sign and Relu on integers (the expanded LayerNormalization negates an int64 axis count): exact,
// wrapping at the most negative value as numpy does; the other rows stay float32 only.
TEST_CASE("Neg, Abs, Sign and Relu take integers; the float-only rows refuse them") {
  const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  const Tensor x = make_int_tensor({6}, {lo, -5, -1, 0, 7, hi});
  struct Case { const char* op; std::vector<int64_t> want; };
  const Case cases[] = {
      {"Neg", {lo, 5, 1, 0, -7, -hi}},
      {"Abs", {lo, 5, 1, 0, 7, hi}},
      {"Sign", {-1, -1, -1, 0, 1, 1}},
      {"Relu", {0, 0, 0, 0, 7, hi}},
  };
  for (const Case& c : cases) {
    const std::string op = c.op;
    CAPTURE(op);
    const Tensor y = run_op(c.op, {}, {x}, 14)[0];
    REQUIRE(y.dtype() == DType::i64);
    for (int64_t i = 0; i < 6; ++i) {
      CAPTURE(i);
      CHECK(y.data<int64_t>()[i] == c.want[size_t(i)]);
    }
  }
  // int8 wraps in its own range: Neg(-128) is -128.
  Tensor b(DType::i8, {3});
  const int8_t bytes[3] = {-128, -3, 4};
  std::memcpy(b.data<int8_t>(), bytes, 3);
  const Tensor nb = run_op("Neg", {}, {b}, 13)[0];
  CHECK(nb.data<int8_t>()[0] == -128);
  CHECK(nb.data<int8_t>()[1] == 3);
  CHECK(nb.data<int8_t>()[2] == -4);
  CHECK_THROWS_WITH_AS(run_op("Exp", {}, {x}, 13), doctest::Contains("int64"), Error);
  CHECK_THROWS_AS(run_op("Sigmoid", {}, {x}, 13), Error);
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

namespace {

Attributes legacy_broadcast(int64_t axis = -100) {
  Attributes a;
  a.set("broadcast", int_attr(1));
  if (axis != -100) a.set("axis", int_attr(axis));
  return a;
}

std::vector<int64_t> ints_of(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.numel(); ++i) v.push_back(t.int_at(i));
  return v;
}

Tensor bools(Shape shape, std::vector<int> values) {
  Tensor t(DType::boolean, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<bool>()[i] = values.at(size_t(i)) != 0;
  return t;
}

}  // namespace

TEST_CASE("legacy broadcast (opset < 7) places B at axis, or matches A's suffix") {
  const Tensor a = make_tensor({2, 3, 2});
  Tensor y = run_op("Add", legacy_broadcast(1), {a, make_tensor({3}, {100, 200, 300})}, 6)[0];
  REQUIRE(y.shape() == Shape{2, 3, 2});
  for (int64_t i = 0; i < 12; ++i) {
    CAPTURE(i);
    CHECK(y.data<float>()[i] == float(i) + 100.f * float((i / 2) % 3 + 1));
  }
  Tensor s = run_op("Sub", legacy_broadcast(), {a, make_tensor({2}, {1, 2})}, 6)[0];  // suffix
  for (int64_t i = 0; i < 12; ++i) CHECK(s.data<float>()[i] == float(i) - float(i % 2 + 1));
  Tensor n = run_op("Mul", legacy_broadcast(-2), {a, make_tensor({3, 1}, {1, 2, 3})}, 6)[0];  // axis -2 = 1
  for (int64_t i = 0; i < 12; ++i) CHECK(n.data<float>()[i] == float(i) * float((i / 2) % 3 + 1));
  Attributes consumed;
  consumed.set("consumed_inputs", ints({0, 0}));
  CHECK(run_op("Add", consumed, {a, a}, 1)[0].data<float>()[3] == 6.f);
  Attributes old_and = legacy_broadcast(0);
  Tensor l = run_op("And", old_and, {bools({2, 2}, {1, 1, 0, 1}), bools({2}, {1, 0})}, 1)[0];
  CHECK(l.dtype() == DType::boolean);
  CHECK(ints_of(l) == std::vector<int64_t>{1, 1, 0, 0});
}

TEST_CASE("legacy broadcast errors") {
  const Tensor a = make_tensor({2, 3, 4});
  // Without broadcast=1 the shapes must be equal (multidirectional broadcasting starts at opset 7).
  CHECK_THROWS_WITH_AS(run_op("Add", {}, {a, make_tensor({4})}, 6), doctest::Contains("broadcast=1"), Error);
  CHECK_THROWS_AS(run_op("Mul", {}, {a, make_tensor({4})}, 1), Error);
  CHECK_THROWS_AS(run_op("Less", {}, {a, make_tensor({4})}, 1), Error);
  // B of higher rank, B not fitting at axis, axis out of range, axis without broadcast.
  CHECK_THROWS_WITH_AS(run_op("Add", legacy_broadcast(), {make_tensor({4}), a}, 6), doctest::Contains("higher rank"), Error);
  CHECK_THROWS_WITH_AS(run_op("Add", legacy_broadcast(0), {a, make_tensor({3})}, 6), doctest::Contains("axis 0"), Error);
  CHECK_THROWS_WITH_AS(run_op("Add", legacy_broadcast(2), {a, make_tensor({4, 1})}, 6), doctest::Contains("axis"), Error);
  CHECK_THROWS_AS(run_op("Add", legacy_broadcast(-4), {a, make_tensor({2})}, 6), Error);
  Attributes axis_only;
  axis_only.set("axis", int_attr(1));
  CHECK_THROWS_WITH_AS(run_op("Add", axis_only, {a, make_tensor({3})}, 6), doctest::Contains("broadcast is not 1"), Error);
  Attributes bad;
  bad.set("broadcast", int_attr(2));
  CHECK_THROWS_WITH_AS(run_op("Add", bad, {a, a}, 6), doctest::Contains("broadcast"), Error);
  // consumed_inputs exists only before opset 6; broadcast/axis only before 7.
  Attributes consumed;
  consumed.set("consumed_inputs", ints({0, 0}));
  CHECK_THROWS_AS(run_op("Add", consumed, {a, a}, 6), Error);
  CHECK_THROWS_AS(run_op("Add", legacy_broadcast(), {a, a}, 7), Error);
  // The variadic ops: one shape before opset 8.
  CHECK_THROWS_WITH_AS(run_op("Max", {}, {a, make_tensor({4})}, 6), doctest::Contains("opset 8"), Error);
  CHECK_THROWS_AS(run_op("Sum", {}, {a, make_tensor({1})}, 7), Error);
  CHECK(run_op("Sum", {}, {a, make_tensor({1})}, 8)[0].shape() == Shape{2, 3, 4});
  CHECK_THROWS_AS(run_op("Mean", consumed, {a, a}, 6), Error);
}

TEST_CASE("Mod: the sign of the divisor, or of the dividend with fmod=1") {
  const Tensor a = make_int_tensor({4}, {7, -7, 7, -7}), b = make_int_tensor({4}, {3, 3, -3, -3});
  CHECK(ints_of(run_op("Mod", {}, {a, b})[0]) == std::vector<int64_t>{1, 2, -2, -1});
  Attributes fmod;
  fmod.set("fmod", int_attr(1));
  CHECK(ints_of(run_op("Mod", fmod, {a, b})[0]) == std::vector<int64_t>{1, -1, 1, -1});
  Tensor f = run_op("Mod", fmod, {make_tensor({2}, {5.5f, -5.5f}), make_tensor({1}, {-2.f})})[0];
  CHECK(f.data<float>()[0] == 1.5f);
  CHECK(f.data<float>()[1] == -1.5f);
  CHECK_THROWS_WITH_AS(run_op("Mod", {}, {make_tensor({2}), make_tensor({2})}), doctest::Contains("fmod=1"), Error);
  Attributes bad;
  bad.set("fmod", int_attr(2));
  CHECK_THROWS_AS(run_op("Mod", bad, {a, b}), Error);
  CHECK_THROWS_WITH_AS(run_op("Mod", {}, {a, make_int_tensor({1}, {0})}), doctest::Contains("by zero"), Error);
  CHECK_THROWS_AS(run_op("Mod", {}, {a, make_tensor({4})}), Error);  // element types differ
}

TEST_CASE("Pow: integer powers are exact; mixed base and exponent types") {
  Tensor p = run_op("Pow", {}, {make_int_tensor({5}, {3, -2, 2, -1, 5}), make_int_tensor({5}, {39, 3, -1, -3, 0})})[0];
  CHECK(ints_of(p) == std::vector<int64_t>{4052555153018976267, -8, 0, -1, 1});
  Tensor f = run_op("Pow", {}, {make_tensor({3}, {2.f, -2.f, 4.f}), make_int_tensor({1}, {3})})[0];
  CHECK(f.dtype() == DType::f32);
  CHECK(f.data<float>()[1] == -8.f);
  CHECK(f.data<float>()[2] == 64.f);
  CHECK_THROWS_WITH_AS(run_op("Pow", {}, {make_int_tensor({1}, {0}), make_int_tensor({1}, {-1})}),
                       doctest::Contains("negative exponent"), Error);
  CHECK_THROWS_AS(run_op("Pow", {}, {bools({1}, {1}), make_tensor({1})}), Error);
}

TEST_CASE("comparisons, logical ops and Where: element types and shapes") {
  Tensor eq = run_op("Equal", {}, {make_tensor({3}, {1.f, NAN, 0.f}), make_tensor({3}, {1.f, NAN, -0.f})})[0];
  CHECK(eq.dtype() == DType::boolean);
  CHECK(ints_of(eq) == std::vector<int64_t>{1, 0, 1});
  Tensor ge = run_op("GreaterOrEqual", {}, {make_int_tensor({3}, {1, 2, 3}), make_int_tensor({1}, {2})})[0];
  CHECK(ints_of(ge) == std::vector<int64_t>{0, 1, 1});
  CHECK_THROWS_AS(run_op("Less", {}, {make_tensor({2}), make_int_tensor({2}, {1, 2})}), Error);
  CHECK_THROWS_AS(run_op("Greater", {}, {bools({1}, {1}), bools({1}, {0})}), Error);  // numeric only
  CHECK_THROWS_AS(run_op("And", {}, {make_tensor({2}), make_tensor({2})}), Error);  // bool only
  CHECK_THROWS_AS(run_op("Xor", {}, {bools({2}, {1, 0}), bools({3}, {1, 0, 1})}), Error);
  Tensor w = run_op("Where", {}, {bools({2, 1}, {1, 0}), make_tensor({2}, {1, 2}), make_tensor({1}, {-1})})[0];
  REQUIRE(w.shape() == Shape{2, 2});
  CHECK(std::vector<float>(w.data<float>(), w.data<float>() + 4) == std::vector<float>{1, 2, -1, -1});
  CHECK_THROWS_WITH_AS(run_op("Where", {}, {make_tensor({2}), make_tensor({2}), make_tensor({2})}),
                       doctest::Contains("condition"), Error);
  CHECK_THROWS_AS(run_op("Where", {}, {bools({2}, {1, 0}), make_tensor({2}), make_int_tensor({2}, {1, 2})}), Error);
  CHECK_THROWS_AS(run_op("Where", {}, {bools({2}, {1, 0}), make_tensor({3}), make_tensor({2})}), Error);
  CHECK_THROWS_AS(run_op("Mean", {}, {make_int_tensor({1}, {1}), make_int_tensor({1}, {2})}), Error);  // floats only
  Tensor mx = run_op("Max", {}, {make_tensor({3}, {1, NAN, 5}), make_tensor({1}, {3}), make_tensor({3}, {0, 0, 9})})[0];
  CHECK(mx.data<float>()[0] == 3.f);
  CHECK(std::isnan(mx.data<float>()[1]));
  CHECK(mx.data<float>()[2] == 9.f);
  Tensor mean = run_op("Mean", {}, {make_tensor({2}, {1, 2}), make_tensor({2}, {2, 4}), make_tensor({1}, {3})})[0];
  CHECK(mean.data<float>()[0] == 2.f);
  CHECK(mean.data<float>()[1] == 3.f);
}

TEST_CASE("PRelu below opset 7 reads a slope of X's channel count per channel, with a warning") {
  // X [1, 2, 3]: channel c's negatives scaled by slope[c] (opsets 1, 6; PyTorch's nn.PReLU(2) export).
  const Tensor x = make_tensor({1, 2, 3}, {-1.f, -2.f, 3.f, -4.f, 5.f, -6.f});
  const Tensor slope = make_tensor({2}, {0.5f, 0.25f});
  const float want[] = {-0.5f, -1.f, 3.f, -1.f, 5.f, -1.5f};
  for (int opset : {1, 6})
    for (const char* kernel : {"ref", "dnnl"}) {
      CAPTURE(opset);
      CAPTURE(kernel);
      const std::vector<Tensor> y = run_op("PRelu", {}, {x, slope}, opset, 1, kernel, {false, true});
      for (int i = 0; i < 6; ++i) CHECK(y[0].data<float>()[i] == want[i]);
      const InferredNode n = infer_node("PRelu", {}, {x, slope}, opset, 1, {false, true}, "");
      CHECK(n.node.def->hints.caution(*n.node.params, n.in).find("per channel") != std::string::npos);
    }
  // From opset 7 the same slope broadcasts onto the last axis (3 != 2): refused, and no warning.
  CHECK_THROWS_AS(run_op("PRelu", {}, {x, slope}, 7), Error);
  const InferredNode n = infer_node("PRelu", {}, {x, make_tensor({3}, {1, 2, 3})}, 6, 1, {false, true}, "");
  CHECK(n.node.def->hints.caution(*n.node.params, n.in).empty());  // a slope of the last axis's size is numpy's
}

TEST_CASE("PRelu: slope broadcasts onto X only; consumed_inputs only at opset 1") {
  const Tensor x = make_tensor({2, 3}, {-1.f, 2.f, -3.f, 4.f, -5.f, 0.f});
  const std::vector<Tensor> y = run_op("PRelu", {}, {x, make_tensor({3}, {0.5f, 1.f, 2.f})}, 16);
  const float want[] = {-0.5f, 2.f, -6.f, 4.f, -5.f, 0.f};
  for (int i = 0; i < 6; ++i) CHECK(y[0].data<float>()[i] == want[i]);
  // The slope must broadcast onto X without changing X's shape.
  CHECK_THROWS_AS(run_op("PRelu", {}, {x, make_tensor({2, 1, 3})}, 16), Error);
  CHECK_THROWS_AS(run_op("PRelu", {}, {x, make_tensor({2})}, 16), Error);
  CHECK_THROWS_AS(run_op("PRelu", {}, {make_tensor({3}), make_tensor({2, 3})}, 9), Error);
  CHECK_THROWS_AS(run_op("PRelu", {}, {x, make_int_tensor({1}, {1})}, 16), Error);
  CHECK_THROWS_AS(run_op("PRelu", {}, {x}, 16), Error);
  Attributes hint;
  hint.set("consumed_inputs", ints({0}));
  CHECK(run_op("PRelu", hint, {x, make_tensor({1}, {0.5f})}, 1)[0].data<float>()[0] == -0.5f);
  CHECK_THROWS_AS(run_op("PRelu", hint, {x, make_tensor({1}, {0.5f})}, 6), Error);
  Attributes other;
  other.set("alpha", float_attr(0.5f));
  CHECK_THROWS_AS(run_op("PRelu", other, {x, make_tensor({1}, {0.5f})}, 16), Error);
}

TEST_CASE("IsNaN and IsInf: each sign of infinity on request; a flag other than 0 or 1 is refused") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor x = make_tensor({5}, {-inf, -1.f, 0.f, inf, nan});
  struct Case { const char* op; int64_t negative, positive; std::vector<bool> want; };
  const Case cases[] = {
      {"IsNaN", 1, 1, {false, false, false, false, true}},
      {"IsInf", 1, 1, {true, false, false, true, false}},
      {"IsInf", 0, 1, {false, false, false, true, false}},
      {"IsInf", 1, 0, {true, false, false, false, false}},
      {"IsInf", 0, 0, {false, false, false, false, false}},
  };
  for (const Case& c : cases) {
    const std::string op = c.op;
    CAPTURE(op);
    CAPTURE(c.negative);
    CAPTURE(c.positive);
    Attributes a;
    if (op == "IsInf") {
      a.set("detect_negative", int_attr(c.negative));
      a.set("detect_positive", int_attr(c.positive));
    }
    const Tensor y = run_op(c.op, a, {x}, 13)[0];
    REQUIRE(y.dtype() == DType::boolean);
    for (int64_t i = 0; i < 5; ++i) {
      CAPTURE(i);
      CHECK(y.data<bool>()[i] == c.want[size_t(i)]);
    }
  }
  Attributes bad;
  bad.set("detect_negative", int_attr(2));
  CHECK_THROWS_WITH_AS(run_op("IsInf", bad, {x}, 10), doctest::Contains("detect_negative"), Error);
  CHECK_THROWS_AS(run_op("IsNaN", {}, {make_int_tensor({1}, {3})}, 13), Error);
}
