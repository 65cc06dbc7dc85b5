// Unit tests of ReduceMean: the attribute form (opsets 1-17), the `axes` input form and noop_with_empty_axes
// (opset 18, beyond onnx 1.12's node tests), keepdims, negative and bad axes.
// The other kinds (Sum, Max, Min, Prod, L1, L2, SumSquare, LogSum, LogSumExp) share its geometry: their tests
// cover the opset of the axes input, empty reductions, NaN, and refusals.
//
// Expected values: x[i] = 0.5 * i - 3 for i = 0..23, shape [2, 3, 4]. The means were printed by numpy
// (x.mean(axis=axes, keepdims=...)) and are easy to check by hand: x is linear in its flat index
// 12 * a + 4 * b + c, so a mean is x at the mean index, e.g. over axis 1 (b in 0..2, mean 1):
// x[a, :, c].mean() = 0.5 * (12 a + 4 + c) - 3.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <sstream>

#include "ops/builtin_ops.h"
#include "engine/op.h"
#include "ops/reduce/reduce.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {


Tensor ramp() {
  Tensor t = make_tensor({2, 3, 4});
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = 0.5f * float(i) - 3.f;
  return t;
}

std::vector<float> floats_of(const Tensor& t) { return std::vector<float>(t.data<float>(), t.data<float>() + t.numel()); }

struct Case {
  std::vector<int64_t> axes;  // empty with has_axes false: not given
  bool has_axes;
  int keepdims;
  Shape y_shape;
  std::vector<double> y;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {{1}, true, 1, {2, 1, 4}, {-1.f, -0.5f, 0.f, 0.5f, 5.f, 5.5f, 6.f, 6.5f}},
      {{2, 0}, true, 0, {3}, {0.75f, 2.75f, 4.75f}},
      {{0, 2}, true, 1, {1, 3, 1}, {0.75f, 2.75f, 4.75f}},
      {{}, false, 1, {1, 1, 1}, {2.75f}},
      {{}, false, 0, {}, {2.75f}},
      {{-1}, true, 0, {2, 3}, {-2.25f, -0.25f, 1.75f, 3.75f, 5.75f, 7.75f}},
      {{-3, 1, 2}, true, 0, {}, {2.75f}},
  };
  return c;
}

}  // namespace

TEST_CASE("ReduceMean with the axes attribute (opsets 1-17)") {
  for (int opset : {11, 13, 17}) {
    for (const Case& c : cases()) {
      CAPTURE(opset);
      CAPTURE(str(c.axes));
      CAPTURE(c.keepdims);
      Attributes a;
      if (c.has_axes) a.set("axes", ints(c.axes));
      a.set("keepdims", int_attr(c.keepdims));
      Tensor y = run_op("ReduceMean", a, {ramp()}, opset)[0];
      CHECK(y.shape() == c.y_shape);
      CHECK(within_tolerance("ReduceMean", opset, y, c.y) == "");
    }
  }
  // keepdims defaults to 1; opset 1 takes non-negative axes.
  Attributes a;
  a.set("axes", ints({1}));
  CHECK(run_op("ReduceMean", a, {ramp()}, 1)[0].shape() == Shape{2, 1, 4});
}

namespace {

// Each op, given the negative axis below opset 11 (as exporters write it), computes what the positive one
// gives and warns; from opset 11 on it does not warn.
void check_negative_axis_below_opset_11(std::initializer_list<const char*> ops, const Attributes& negative,
                                        const Attributes& positive) {
  for (const char* op : ops) {
    CAPTURE(std::string(op));
    const Tensor want = run_op(op, positive, {ramp()}, 1)[0];
    const Tensor got = run_op(op, negative, {ramp()}, 1)[0];
    REQUIRE(got.shape() == want.shape());
    CHECK(std::memcmp(got.raw(), want.raw(), got.bytes()) == 0);
    const InferredNode n = infer_node(op, negative, {ramp()}, 1, 1, {false}, "");
    CHECK(n.node.def->hints.caution(*n.node.params, n.in).find("opset 11") != std::string::npos);
    const InferredNode at11 = infer_node(op, negative, {ramp()}, 11, 1, {false}, "");
    CHECK(at11.node.def->hints.caution(*at11.node.params, at11.in).empty());
  }
}

}  // namespace

TEST_CASE("Reduce ops below opset 11 read a negative axis from the back, with a warning (paddle2onnx)") {
  Attributes negative, positive;
  negative.set("axes", ints({-1}));
  positive.set("axes", ints({2}));
  check_negative_axis_below_opset_11({"ReduceMean", "ReduceSum", "ReduceMax"}, negative, positive);
}

TEST_CASE("ArgMax and ArgMin below opset 11 read a negative axis from the back, with a warning") {
  Attributes negative, positive;
  negative.set("axis", int_attr(-1));
  positive.set("axis", int_attr(2));
  check_negative_axis_below_opset_11({"ArgMax", "ArgMin"}, negative, positive);
}

TEST_CASE("ReduceMean-18 reads axes from a constant input") {
  for (const Case& c : cases()) {
    CAPTURE(str(c.axes));
    CAPTURE(c.keepdims);
    Attributes a;
    a.set("keepdims", int_attr(c.keepdims));
    // Not given: input omitted (an undefined Tensor) or an empty axes tensor; both mean "every axis".
    Tensor axes = c.has_axes ? make_int_tensor({int64_t(c.axes.size())}, c.axes) : make_int_tensor({0}, {});
    Tensor y = run_op("ReduceMean", a, {ramp(), axes}, 18)[0];
    CHECK(y.shape() == c.y_shape);
    CHECK(within_tolerance("ReduceMean", 18, y, c.y) == "");
    if (!c.has_axes) {
      Tensor y_omitted = run_op("ReduceMean", a, {ramp(), Tensor()}, 18)[0];
      CHECK(y_omitted.shape() == c.y_shape);
      CHECK(within_tolerance("ReduceMean", 18, y_omitted, c.y) == "");
      Tensor y_one_input = run_op("ReduceMean", a, {ramp()}, 18)[0];
      CHECK(within_tolerance("ReduceMean", 18, y_one_input, c.y) == "");
    }
  }
}

TEST_CASE("ReduceMean-18 noop_with_empty_axes") {
  struct NoopCase { const char* name; int noop; Tensor axes; Shape y_shape; std::vector<double> y; };
  const std::vector<float> floats = floats_of(ramp());
  const std::vector<double> x(floats.begin(), floats.end());
  const NoopCase noop_cases[] = {
      {"noop, axes omitted: identity", 1, Tensor(), {2, 3, 4}, x},
      {"noop, axes empty: identity", 1, make_int_tensor({0}, {}), {2, 3, 4}, x},
      {"noop, axes given: reduces", 1, make_int_tensor({1}, {1}), {2, 1, 4}, {-1.f, -0.5f, 0.f, 0.5f, 5.f, 5.5f, 6.f, 6.5f}},
      {"no noop, axes empty: every axis", 0, make_int_tensor({0}, {}), {1, 1, 1}, {2.75f}},
  };
  for (const NoopCase& c : noop_cases) {
    CAPTURE(std::string(c.name));
    for (int keepdims : {0, 1}) {
      CAPTURE(keepdims);
      Attributes a;
      a.set("noop_with_empty_axes", int_attr(c.noop));
      a.set("keepdims", int_attr(keepdims));
      Tensor y = run_op("ReduceMean", a, {ramp(), c.axes}, 18)[0];
      Shape want = c.y_shape;
      if (!keepdims && std::string(c.name).find("identity") == std::string::npos) {
        want.clear();
        for (int64_t d : c.y_shape) if (d != 1) want.push_back(d);
      }
      CHECK(y.shape() == want);
      CHECK(within_tolerance("ReduceMean", 18, y, c.y) == "");
    }
  }
}

TEST_CASE("ReduceMean-18 with axes computed at run time") {
  Attributes a;
  a.set("keepdims", int_attr(1));
  Node n = make_node("ReduceMean", a, 2, 1, 18);
  const Tensor x = ramp();
  const Tensor axes = make_int_tensor({1}, {-2});
  // Load time: which dims go is unknown; dims of size 1 stay 1 either way.
  std::vector<ValueInfo> out = n.def->infer(*n.params, {ValueInfo::of(DType::f32, {2, 1, 4}), ValueInfo::of(DType::i64, {1})});
  CHECK(out[0].shape == Shape{kUnknownDim, 1, kUnknownDim});
  Attributes no_keep;
  no_keep.set("keepdims", int_attr(0));
  Node n0 = make_node("ReduceMean", no_keep, 2, 1, 18);
  CHECK_FALSE(n0.def->infer(*n0.params, {ValueInfo::of(DType::f32, {2, 3, 4}), ValueInfo::of(DType::i64, {1})})[0].rank_known);
  // Run time: the kernel reads the axes and checks the output it was given.
  auto run = [&](Shape y_shape) {
    Tensor y(DType::f32, y_shape);
    KernelIO io{{&x, &axes}, {&y}};
    compile_reference(*n.def, n.params, {ValueInfo::of(DType::f32, x.shape()), ValueInfo::of(DType::i64, {1})},
                      {ValueInfo::of(DType::f32, y_shape)})->run(io);
    return y;
  };
  CHECK(within_tolerance("ReduceMean", 18, run({2, 1, 4}), {-1, -0.5, 0, 0.5, 5, 5.5, 6, 6.5}) == "");
  CHECK_THROWS_AS(run({2, 3, 1}), Error);
}

TEST_CASE("ReduceMean sums in double and rounds once") {
  // float32 accumulation: (1e8 + 1) rounds to 1e8, giving 0.25 instead of the exact 0.5.
  Attributes a;
  a.set("keepdims", int_attr(0));
  Tensor y = run_op("ReduceMean", a, {make_tensor({4}, {1e8f, 1.f, -1e8f, 1.f})}, 13)[0];
  CHECK(y.shape() == Shape{});
  CHECK(y.data<float>()[0] == 0.5f);
  // A reduced dim of size 0: the mean of nothing is NaN.
  Attributes ax;
  ax.set("axes", ints({1}));
  Tensor e = run_op("ReduceMean", ax, {make_tensor({2, 0})}, 13)[0];
  CHECK(e.shape() == Shape{2, 1});
  CHECK(std::isnan(e.data<float>()[0]));
}

TEST_CASE("ReduceMean refuses bad axes and attributes of other opsets") {
  struct Bad { const char* name; int opset; Attributes attrs; std::vector<Tensor> inputs; };
  auto attrs = [](const char* name, Attribute v) { Attributes a; a.set(name, std::move(v)); return a; };
  const Tensor x = ramp();
  const Bad cases[] = {
      {"axis out of range", 13, attrs("axes", ints({3})), {x}},
      {"negative axis out of range", 13, attrs("axes", ints({-4})), {x}},
      {"duplicate axis", 13, attrs("axes", ints({1, 1})), {x}},
      {"duplicate axis, once negative", 13, attrs("axes", ints({2, -1})), {x}},
      {"axes attribute at opset 18", 18, attrs("axes", ints({1})), {x}},
      {"noop_with_empty_axes before opset 18", 13, attrs("noop_with_empty_axes", int_attr(1)), {x}},
      {"axes input before opset 18", 13, {}, {x, make_int_tensor({1}, {1})}},
      {"keepdims 2", 13, attrs("keepdims", int_attr(2)), {x}},
      {"unknown attribute", 13, attrs("axis", int_attr(1)), {x}},
      {"axes input out of range", 18, {}, {x, make_int_tensor({1}, {5})}},
      {"axes input duplicate", 18, {}, {x, make_int_tensor({2}, {0, -3})}},
      {"axes input 2-D", 18, {}, {x, make_int_tensor({1, 1}, {0})}},
      {"axes input float", 18, {}, {x, make_tensor({1}, {0.f})}},
      {"int64 data", 13, {}, {make_int_tensor({2}, {1, 2})}},
  };
  for (const Bad& c : cases) {
    CAPTURE(std::string(c.name));
    CAPTURE(c.opset);
    std::vector<bool> constant(c.inputs.size(), true);
    constant[0] = false;
    CHECK_THROWS_AS(run_op("ReduceMean", c.attrs, c.inputs, c.opset, 1, "ref", constant), Error);
  }
}

TEST_CASE("ReduceSum reads axes from input 1 from opset 13; the other kinds from opset 18") {
  auto attrs = [](const char* name, Attribute v) { Attributes a; a.set(name, std::move(v)); return a; };
  Tensor axes = make_int_tensor({1}, {1});
  Tensor y = run_op("ReduceSum", {}, {ramp(), axes}, 13)[0];
  CHECK(y.shape() == Shape{2, 1, 4});
  CHECK(floats_of(y) == std::vector<float>{-3.f, -1.5f, 0.f, 1.5f, 15.f, 16.5f, 18.f, 19.5f});
  Tensor noop = run_op("ReduceSum", attrs("noop_with_empty_axes", int_attr(1)), {ramp(), make_int_tensor({0}, {})}, 13)[0];
  CHECK(floats_of(noop) == floats_of(ramp()));
  CHECK(run_op("ReduceMax", attrs("axes", ints({1})), {ramp()}, 13)[0].shape() == Shape{2, 1, 4});
}

TEST_CASE("Reduce kinds over zero elements and NaN") {
  auto axes1 = [] { Attributes a; a.set("axes", ints({1})); return a; };
  const Tensor empty = make_tensor({2, 0});
  CHECK(floats_of(run_op("ReduceSum", axes1(), {empty}, 11)[0]) == std::vector<float>{0.f, 0.f});
  CHECK(floats_of(run_op("ReduceProd", axes1(), {empty}, 11)[0]) == std::vector<float>{1.f, 1.f});
  CHECK(floats_of(run_op("ReduceL2", axes1(), {empty}, 11)[0]) == std::vector<float>{0.f, 0.f});
  CHECK(std::isinf(run_op("ReduceMax", axes1(), {empty}, 11)[0].data<float>()[0]));
  CHECK(run_op("ReduceMin", axes1(), {empty}, 11)[0].data<float>()[0] > 0.f);
  CHECK(run_op("ReduceLogSumExp", axes1(), {empty}, 11)[0].data<float>()[0] < 0.f);
  const Tensor nan = make_tensor({1, 3}, {1.f, std::nanf(""), 2.f});
  CHECK(std::isnan(run_op("ReduceMax", axes1(), {nan}, 11)[0].data<float>()[0]));
  CHECK(std::isnan(run_op("ReduceMin", axes1(), {nan}, 11)[0].data<float>()[0]));
  // LogSumExp subtracts the maximum first: no overflow for large inputs.
  const Tensor big = make_tensor({1, 2}, {1000.f, 1000.f});
  CHECK(run_op("ReduceLogSumExp", axes1(), {big}, 11)[0].data<float>()[0] == doctest::Approx(1000.0 + std::log(2.0)));
}

TEST_CASE("Reduce kinds refuse bad attributes, opsets and element types") {
  struct Bad { const char* op; int opset; Attributes attrs; std::vector<Tensor> inputs; };
  auto attrs = [](const char* name, Attribute v) { Attributes a; a.set(name, std::move(v)); return a; };
  const Tensor x = ramp();
  const Bad cases[] = {
      {"ReduceSum", 13, attrs("axes", ints({1})), {x}},                       // axes is an input from 13
      {"ReduceSum", 11, attrs("noop_with_empty_axes", int_attr(1)), {x}},
      {"ReduceSum", 11, {}, {x, make_int_tensor({1}, {1})}},                  // axes input before 13
      {"ReduceMax", 13, {}, {x, make_int_tensor({1}, {1})}},                  // axes input before 18
      {"ReduceMax", 18, attrs("axes", ints({0})), {x}},
      {"ReduceProd", 13, attrs("axes", ints({3})), {x}},
      {"ReduceL1", 13, attrs("axes", ints({0, -3})), {x}},
      {"ReduceL2", 1, attrs("axes", ints({-4})), {x}},                        // out of range (-1 is read, warned)
      {"ReduceMin", 13, attrs("keepdims", int_attr(-1)), {x}},
      {"ReduceLogSumExp", 13, attrs("axis", int_attr(0)), {x}},
      {"ReduceL2", 13, {}, {make_int_tensor({2}, {1, 2})}},                   // int data: float kinds only
      {"ReduceLogSum", 13, {}, {make_int_tensor({2}, {1, 2})}},
      {"ReduceSumSquare", 18, {}, {x, make_int_tensor({1}, {7})}},
  };
  for (const Bad& c : cases) {
    CAPTURE(std::string(c.op));
    CAPTURE(c.opset);
    std::vector<bool> constant(c.inputs.size(), true);
    constant[0] = false;
    CHECK_THROWS_AS(run_op(c.op, c.attrs, c.inputs, c.opset, 1, "ref", constant), Error);
  }
}

TEST_CASE("ArgMax and ArgMin: ties, NaN, refusals") {
  auto attrs = [](std::initializer_list<std::pair<const char*, int64_t>> kv) {
    Attributes a;
    for (auto [k, v] : kv) a.set(k, int_attr(v));
    return a;
  };
  auto ints_of = [](const Tensor& t) { return std::vector<int64_t>(t.data<int64_t>(), t.data<int64_t>() + t.numel()); };
  const Tensor x = make_tensor({2, 3}, {1.f, 3.f, 3.f, std::nanf(""), 0.f, std::nanf("")});
  Tensor y = run_op("ArgMax", attrs({{"axis", 1}}), {x}, 13)[0];
  CHECK(y.dtype() == DType::i64);
  CHECK(y.shape() == Shape{2, 1});
  CHECK(ints_of(y) == std::vector<int64_t>{1, 0});
  CHECK(ints_of(run_op("ArgMax", attrs({{"axis", 1}, {"select_last_index", 1}}), {x}, 13)[0]) == std::vector<int64_t>{2, 2});
  CHECK(ints_of(run_op("ArgMin", attrs({{"axis", -1}, {"keepdims", 0}}), {x}, 13)[0]) == std::vector<int64_t>{0, 0});
  CHECK(run_op("ArgMin", attrs({{"axis", 0}, {"keepdims", 0}}), {x}, 13)[0].shape() == Shape{3});

  struct Bad { const char* name; int opset; Attributes attrs; Tensor x; };
  const Bad cases[] = {
      {"axis out of range", 13, attrs({{"axis", 2}}), x},
      {"select_last_index before opset 12", 11, attrs({{"select_last_index", 1}}), x},
      {"select_last_index 2", 13, attrs({{"select_last_index", 2}}), x},
      {"keepdims 3", 13, attrs({{"keepdims", 3}}), x},
      {"unknown attribute", 13, attrs({{"axes", 0}}), x},
      {"empty axis", 13, attrs({{"axis", 1}}), make_tensor({2, 0})},
      {"scalar", 13, {}, make_tensor({}, {1.f})},
  };
  for (const Bad& c : cases) {
    CAPTURE(std::string(c.name));
    CHECK_THROWS_AS(run_op("ArgMax", c.attrs, {c.x}, c.opset), Error);
  }
}

TEST_CASE("CumSum: exclusive, reverse, refusals") {
  auto attrs = [](int64_t ex, int64_t rev) {
    Attributes a;
    a.set("exclusive", int_attr(ex));
    a.set("reverse", int_attr(rev));
    return a;
  };
  auto floats = [](const Tensor& t) { return std::vector<float>(t.data<float>(), t.data<float>() + t.numel()); };
  const Tensor x = make_tensor({2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor ax1 = make_int_tensor({}, {1}), ax0 = make_int_tensor({1}, {-2});
  CHECK(floats(run_op("CumSum", attrs(0, 0), {x, ax1}, 14)[0]) == std::vector<float>{1, 3, 6, 4, 9, 15});
  CHECK(floats(run_op("CumSum", attrs(1, 0), {x, ax1}, 14)[0]) == std::vector<float>{0, 1, 3, 0, 4, 9});
  CHECK(floats(run_op("CumSum", attrs(0, 1), {x, ax1}, 14)[0]) == std::vector<float>{6, 5, 3, 15, 11, 6});
  CHECK(floats(run_op("CumSum", attrs(1, 1), {x, ax1}, 14)[0]) == std::vector<float>{5, 3, 0, 11, 6, 0});
  CHECK(floats(run_op("CumSum", attrs(0, 0), {x, ax0}, 11)[0]) == std::vector<float>{1, 2, 3, 5, 7, 9});
  CHECK_THROWS_AS(run_op("CumSum", attrs(0, 0), {x, make_int_tensor({}, {2})}, 14), Error);       // axis out of range
  CHECK_THROWS_AS(run_op("CumSum", attrs(0, 0), {x, make_int_tensor({2}, {0, 1})}, 14), Error);   // two axes
  CHECK_THROWS_AS(run_op("CumSum", attrs(2, 0), {x, ax1}, 14), Error);                            // exclusive 2
  CHECK_THROWS_AS(run_op("CumSum", attrs(0, 0), {make_tensor({}, {1.f}), ax1}, 14), Error);       // scalar
}

TEST_CASE("TopK: order, ties, NaN, refusals") {
  auto ints_of = [](const Tensor& t) { return std::vector<int64_t>(t.data<int64_t>(), t.data<int64_t>() + t.numel()); };
  auto floats = [](const Tensor& t) { return std::vector<float>(t.data<float>(), t.data<float>() + t.numel()); };
  auto a = [](std::initializer_list<std::pair<const char*, int64_t>> kv) {
    Attributes at;
    for (auto [k, v] : kv) at.set(k, int_attr(v));
    return at;
  };
  const Tensor x = make_tensor({2, 4}, {1, 3, 3, 2, 5, std::nanf(""), 0, 5});
  const Tensor k2 = make_int_tensor({1}, {2});
  std::vector<Tensor> y = run_op("TopK", {}, {x, k2}, 11, 2);
  CHECK(y[0].shape() == Shape{2, 2});
  CHECK(ints_of(y[1]) == std::vector<int64_t>{1, 2, 1, 0});  // ties: lower index first; NaN above all
  CHECK(floats(y[0])[0] == 3.f);
  y = run_op("TopK", a({{"largest", 0}}), {x, k2}, 11, 2);
  CHECK(ints_of(y[1]) == std::vector<int64_t>{0, 3, 2, 0});
  CHECK(floats(y[0]) == std::vector<float>{1, 2, 0, 5});
  y = run_op("TopK", a({{"k", 1}, {"axis", 0}}), {x}, 1, 2);
  CHECK(ints_of(y[1]) == std::vector<int64_t>{1, 1, 0, 1});

  // K constant: infer checks it (the kernel too: bad_input corpus).
  check_bad_nodes({
      {"k larger than the axis", "TopK", 11, {}, {x, make_int_tensor({1}, {5})},
       "k is 5 but axis -1 has only 4 elements", 2},
      {"negative k", "TopK", 11, {}, {x, make_int_tensor({1}, {-1})}, "must not be negative", 2},
      {"two values of K", "TopK", 11, {}, {x, make_int_tensor({2}, {1, 2})}, "one value", 2},
      {"opset 1 without k", "TopK", 1, {}, {x}, "'k' is required", 2},
      {"opset 1 k too large", "TopK", 1, a({{"k", 9}}), {x}, "k is 9", 2},
      {"largest before opset 11", "TopK", 10, a({{"largest", 0}}), {x, k2}, "largest", 2},
      {"axis out of range", "TopK", 11, a({{"axis", 2}}), {x, k2}, "axis", 2},
  });
}
