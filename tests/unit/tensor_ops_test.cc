// Unit tests of the tensor, index and cast families (ops/tensor, ops/index, ops/cast): Flatten, Reshape,
// Squeeze, Unsqueeze, Transpose, Concat, Slice, Gather, Shape, Cast, Constant, Identity, Dropout, Pad, and the
// ops sized or indexed by data (ConstantOfShape, Expand, Tile, Range, Split, GatherElements, GatherND,
// ScatterND, DepthToSpace, SpaceToDepth, Trilu, EyeLike). Expected values come from direct index formulas or
// from numpy (noted where so).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "ops/index/gather_elements.h"
#include "ops/tensor/identity.h"
#include "ops/tensor/pad.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();

template <class T>
Tensor typed(Shape shape, std::vector<T> values) {
  Tensor t(dtype_of<T>(), shape);
  REQUIRE(int64_t(values.size()) == t.numel());
  for (size_t i = 0; i < values.size(); ++i) t.data<T>()[i] = values[i];
  return t;
}

template <class T>
std::vector<T> values(const Tensor& t) {
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

std::vector<float> iota(int64_t n) {
  std::vector<float> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(float(i));
  return v;
}

Attributes attrs(std::initializer_list<std::pair<const char*, Attribute>> list) {
  Attributes a;
  for (const auto& [name, value] : list) a.set(name, value);
  return a;
}

// infer of `type` on the given infos (as at load time), without running anything.
std::vector<ValueInfo> infer_only(const std::string& type, const Attributes& a, const std::vector<ValueInfo>& in,
                                  int opset = 19, size_t num_outputs = 1) {
  Node n = make_node(type, a, in.size(), num_outputs, opset);
  return n.def->infer(*n.params, in);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// ---- Reshape / Flatten / Squeeze / Unsqueeze ----

TEST_CASE("Reshape resolves 0 and -1 and keeps the elements in order") {
  struct Case { Shape in; std::vector<int64_t> shape; bool allowzero; Shape want; };
  const Case cases[] = {
      {{2, 3, 4}, {4, 6}, false, {4, 6}},
      {{2, 3, 4}, {-1}, false, {24}},
      {{2, 3, 4}, {0, -1}, false, {2, 12}},
      {{2, 3, 4}, {0, 0, 2, 2}, false, {2, 3, 2, 2}},
      {{2, 3, 4}, {-1, 2, 0}, false, {3, 2, 4}},  // 0 copies input dim 2
      {{0, 3}, {3, 0}, true, {3, 0}},              // allowzero: a real 0
      {{0, 3}, {0, 3}, false, {0, 3}},
      {{1}, {}, false, {}},
  };
  for (const Case& c : cases) {
    CAPTURE(to_string(c.in));
    CAPTURE(list_string(c.shape));
    CAPTURE(c.allowzero);
    Tensor x = make_tensor(c.in);
    Attributes a;
    if (c.allowzero) a.set("allowzero", int_attr(1));
    Tensor y = run_op("Reshape", a, {x, make_int_tensor({int64_t(c.shape.size())}, c.shape)}, 14)[0];
    CHECK(y.shape() == c.want);
    CHECK(values<float>(y) == iota(y.numel()));
  }
}

TEST_CASE("Reshape refuses impossible shapes") {
  struct Case { Shape in; std::vector<int64_t> shape; bool allowzero; };
  const Case cases[] = {
      {{2, 3}, {-1, -1}, false},  // two -1
      {{2, 3}, {-2, 3}, false},   // negative dim
      {{2, 3}, {4, 2}, false},    // 6 elements vs 8
      {{2, 3}, {4, -1}, false},   // 6 not a multiple of 4
      {{2, 3}, {0, 0, 0}, false}, // 0 at index 2 but input rank 2
      {{0, 3}, {0, -1}, true},    // 0 with -1 under allowzero
      {{0, 3}, {0, -1}, false},   // -1 beside dims multiplying to 0
  };
  for (const Case& c : cases) {
    CAPTURE(to_string(c.in));
    CAPTURE(list_string(c.shape));
    CAPTURE(c.allowzero);
    Attributes a;
    if (c.allowzero) a.set("allowzero", int_attr(1));
    CHECK_THROWS_AS(run_op("Reshape", a, {make_tensor(c.in), make_int_tensor({int64_t(c.shape.size())}, c.shape)}, 14),
                    Error);
  }
  CHECK_THROWS_AS(make_node("Reshape", attrs({{"allowzero", int_attr(1)}}), 2, 1, 13), Error);  // opset 14 attribute
  CHECK_THROWS_AS(make_node("Reshape", attrs({{"allowzero", int_attr(2)}}), 2, 1, 14), Error);
}

TEST_CASE("Reshape infer without the shape's data gives the rank only") {
  const ValueInfo x = ValueInfo::of(DType::f32, {kUnknownDim, 3});
  std::vector<ValueInfo> out = infer_only("Reshape", {}, {x, ValueInfo::of(DType::i64, {2})});
  CHECK(out[0].rank_known);
  CHECK(out[0].shape == Shape{kUnknownDim, kUnknownDim});
  out = infer_only("Reshape", {}, {x, ValueInfo::of(DType::i64, {kUnknownDim})});
  CHECK_FALSE(out[0].rank_known);
  // With the data: an unknown batch stays unknown under 0, and -1 cannot be resolved yet.
  out = infer_only("Reshape", {}, {x, ValueInfo::of(make_int_tensor({2}, {0, -1}))});
  CHECK(out[0].shape == Shape{kUnknownDim, kUnknownDim});
  out = infer_only("Reshape", {}, {x, ValueInfo::of(make_int_tensor({3}, {0, 3, 1}))});
  CHECK(out[0].shape == Shape{kUnknownDim, 3, 1});
}

TEST_CASE("Flatten splits the dims at axis") {
  struct Case { Shape in; int64_t axis; Shape want; };
  const Case cases[] = {
      {{2, 3, 4, 5}, 0, {1, 120}},  {{2, 3, 4, 5}, 1, {2, 60}},   {{2, 3, 4, 5}, 4, {120, 1}},
      {{2, 3, 4, 5}, -1, {24, 5}},  {{2, 3, 4, 5}, -4, {1, 120}}, {{}, 0, {1, 1}},
  };
  for (const Case& c : cases) {
    CAPTURE(to_string(c.in));
    CAPTURE(c.axis);
    Tensor y = run_op("Flatten", attrs({{"axis", int_attr(c.axis)}}), {make_tensor(c.in)}, 13)[0];
    CHECK(y.shape() == c.want);
    CHECK(values<float>(y) == iota(y.numel()));
  }
  CHECK_THROWS_AS(run_op("Flatten", attrs({{"axis", int_attr(5)}}), {make_tensor({2, 3, 4, 5})}), Error);
  CHECK_THROWS_AS(run_op("Flatten", attrs({{"axis", int_attr(-5)}}), {make_tensor({2, 3, 4, 5})}), Error);
  CHECK(infer_only("Flatten", {}, {ValueInfo::of(DType::f32, {kUnknownDim, 3, 4})})[0].shape ==
        Shape{kUnknownDim, 12});
}

TEST_CASE("Squeeze and Unsqueeze take axes as an attribute before opset 13 and as an input after") {
  struct Case { const char* op; Shape in; std::vector<int64_t> axes; Shape want; };
  const Case cases[] = {
      {"Squeeze", {1, 3, 1, 5}, {0, 2}, {3, 5}},
      {"Squeeze", {1, 3, 1, 5}, {-2}, {1, 3, 5}},
      {"Squeeze", {1, 3, 1, 5}, {}, {3, 5}},  // no axes: every 1
      {"Unsqueeze", {3, 5}, {0}, {1, 3, 5}},
      {"Unsqueeze", {3, 5}, {2, 0}, {1, 3, 1, 5}},  // unsorted
      {"Unsqueeze", {3, 5}, {-1}, {3, 5, 1}},
      {"Unsqueeze", {3, 5}, {1, 4, -2}, {3, 1, 5, 1, 1}},
      {"Unsqueeze", {}, {0}, {1}},
  };
  for (const Case& c : cases) {
    for (int opset : {11, 13}) {
      CAPTURE(c.op);
      CAPTURE(to_string(c.in));
      CAPTURE(list_string(c.axes));
      CAPTURE(opset);
      const bool no_axes = c.axes.empty();
      Tensor y;
      if (opset < 13) {
        Attributes a;
        if (!no_axes) a.set("axes", ints(c.axes));
        y = run_op(c.op, a, {make_tensor(c.in)}, opset)[0];
      } else if (no_axes) {
        y = run_op(c.op, {}, {make_tensor(c.in)}, opset)[0];
      } else {
        y = run_op(c.op, {}, {make_tensor(c.in), make_int_tensor({int64_t(c.axes.size())}, c.axes)}, opset)[0];
      }
      CHECK(y.shape() == c.want);
      CHECK(values<float>(y) == iota(y.numel()));
    }
  }
}

TEST_CASE("Squeeze and Unsqueeze refuse bad axes") {
  const Tensor x = make_tensor({1, 3});
  CHECK_THROWS_AS(run_op("Squeeze", {}, {x, make_int_tensor({1}, {1})}, 13), Error);      // dim 3 is not 1
  CHECK_THROWS_AS(run_op("Squeeze", {}, {x, make_int_tensor({1}, {2})}, 13), Error);      // out of range
  CHECK_THROWS_AS(run_op("Squeeze", {}, {x, make_int_tensor({2}, {0, -2})}, 13), Error);  // twice
  CHECK_THROWS_AS(run_op("Unsqueeze", {}, {x, make_int_tensor({1}, {3})}, 13), Error);    // out rank 3
  CHECK_THROWS_AS(run_op("Unsqueeze", {}, {x, make_int_tensor({2}, {1, 1})}, 13), Error);
  CHECK_THROWS_AS(run_op("Unsqueeze", {}, {x}, 13), Error);        // axes input required
  CHECK_THROWS_AS(run_op("Unsqueeze", {}, {x}, 11), Error);        // axes attribute required
  CHECK_THROWS_AS(run_op("Squeeze", attrs({{"axes", ints({0})}}), {x, make_int_tensor({1}, {0})}, 13), Error);
  // Squeeze without axes on unknown dims cannot know the rank yet.
  CHECK_FALSE(infer_only("Squeeze", {}, {ValueInfo::of(DType::f32, {kUnknownDim, 3})}, 13)[0].rank_known);
  // Unsqueeze whose axes are not known yet still knows the output rank.
  CHECK(infer_only("Unsqueeze", {}, {ValueInfo::of(DType::f32, {2, 3}), ValueInfo::of(DType::i64, {2})}, 13)[0].shape ==
        Shape(4, kUnknownDim));
}

// ---- Transpose ----

TEST_CASE("Transpose moves element (i0,i1,i2) to its permuted place") {
  const Shape in{2, 3, 4};
  const std::vector<std::vector<int64_t>> perms = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (const auto& perm : perms) {
    CAPTURE(list_string(perm));
    Tensor y = run_op("Transpose", attrs({{"perm", ints(perm)}}), {make_tensor(in)})[0];
    const Shape want{in[size_t(perm[0])], in[size_t(perm[1])], in[size_t(perm[2])]};
    REQUIRE(y.shape() == want);
    for (int64_t a = 0; a < want[0]; ++a)
      for (int64_t b = 0; b < want[1]; ++b)
        for (int64_t c = 0; c < want[2]; ++c) {
          int64_t i[3];
          i[perm[0]] = a;
          i[perm[1]] = b;
          i[perm[2]] = c;
          CAPTURE(a); CAPTURE(b); CAPTURE(c);
          CHECK(y.data<float>()[(a * want[1] + b) * want[2] + c] == float((i[0] * 3 + i[1]) * 4 + i[2]));
        }
  }
  // Default perm reverses; int64 data too.
  Tensor y = run_op("Transpose", {}, {make_int_tensor({2, 3}, {0, 1, 2, 3, 4, 5})}, 13, 1, "ref", {false})[0];
  CHECK(y.shape() == Shape{3, 2});
  CHECK(values<int64_t>(y) == std::vector<int64_t>{0, 3, 1, 4, 2, 5});
  for (const std::vector<int64_t>& bad : {std::vector<int64_t>{0, 1}, {0, 1, 1}, {0, 1, 3}, {-1, 0, 1}}) {
    CAPTURE(list_string(bad));
    CHECK_THROWS_AS(run_op("Transpose", attrs({{"perm", ints(bad)}}), {make_tensor(in)}), Error);
  }
}

// ---- Concat ----

TEST_CASE("Concat joins along the axis, any element type") {
  Tensor a = make_tensor({2, 1, 3});
  Tensor b = make_tensor({2, 2, 3}, {100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111});
  for (int64_t axis : {1, -2}) {
    CAPTURE(axis);
    Tensor y = run_op("Concat", attrs({{"axis", int_attr(axis)}}), {a, b})[0];
    REQUIRE(y.shape() == Shape{2, 3, 3});
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 3; ++j)
        for (int64_t k = 0; k < 3; ++k) {
          CAPTURE(i); CAPTURE(j); CAPTURE(k);
          const float want = j == 0 ? float(i * 3 + k) : float(100 + (i * 2 + (j - 1)) * 3 + k);
          CHECK(y.data<float>()[(i * 3 + j) * 3 + k] == want);
        }
  }
  Tensor yi = run_op("Concat", attrs({{"axis", int_attr(0)}}),
                     {make_int_tensor({2}, {1, 2}), make_int_tensor({0}, {}), make_int_tensor({1}, {-3})})[0];
  CHECK(values<int64_t>(yi) == std::vector<int64_t>{1, 2, -3});
  // Opset 1-3: axis defaults to 1; from 4 on it is required.
  CHECK(run_op("Concat", {}, {a, b}, 1)[0].shape() == Shape{2, 3, 3});
  CHECK_THROWS_AS(run_op("Concat", {}, {a, b}, 4), Error);
  CHECK_THROWS_AS(run_op("Concat", attrs({{"axis", int_attr(0)}}), {a, b}), Error);  // dims differ off-axis
  CHECK_THROWS_AS(run_op("Concat", attrs({{"axis", int_attr(3)}}), {a, a}), Error);
  CHECK_THROWS_AS(run_op("Concat", attrs({{"axis", int_attr(0)}}), {make_tensor({2}), make_tensor({2, 1})}), Error);
  CHECK_THROWS_AS(run_op("Concat", attrs({{"axis", int_attr(0)}}), {make_tensor({2}), make_int_tensor({1}, {1})}),
                  Error);
}

// ---- Slice ----

TEST_CASE("Slice clamps starts and ends exactly as the ONNX spec (= Python slicing)") {
  // Expected values: numpy, np.arange(10)[start:end:step].
  struct Case { int64_t start, end, step; std::vector<float> want; };
  const Case cases[] = {
      {0, 3, 1, {0, 1, 2}},
      {2, -1, 1, {2, 3, 4, 5, 6, 7, 8}},
      {-3, 100, 1, {7, 8, 9}},
      {-100, 3, 1, {0, 1, 2}},
      {8, 2, -1, {8, 7, 6, 5, 4, 3}},
      {-1, -100, -2, {9, 7, 5, 3, 1}},
      {kI64Max, kI64Min, -1, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
      {100, -100, -3, {9, 6, 3, 0}},
      {5, 5, 1, {}},
      {7, 3, 1, {}},
      {3, 7, -1, {}},
      {0, kI64Max, 4, {0, 4, 8}},
      {kI64Min, kI64Max, kI64Max, {0}},
      {9, -11, -1, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
      {9, kI64Min, kI64Min, {9}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.start);
    CAPTURE(c.end);
    CAPTURE(c.step);
    Tensor y = run_op("Slice", {},
                      {make_tensor({10}), make_int_tensor({1}, {c.start}), make_int_tensor({1}, {c.end}),
                       make_int_tensor({1}, {0}), make_int_tensor({1}, {c.step})},
                      13)[0];
    CHECK(y.shape() == Shape{int64_t(c.want.size())});
    CHECK(values<float>(y) == c.want);
  }
  // Empty input with a negative step: nothing to read.
  CHECK(run_op("Slice", {}, {make_tensor({0}), make_int_tensor({1}, {-1}), make_int_tensor({1}, {kI64Min}),
                             Tensor(), make_int_tensor({1}, {-1})}, 13)[0].shape() == Shape{0});
}

TEST_CASE("Slice over several axes, with defaults, attributes and int64 data") {
  // x[i][j] = 4 i + j, shape [3, 4]; y = x[2:0:-1, ::2] -> rows 2, 1; cols 0, 2 (numpy).
  Tensor x = make_tensor({3, 4});
  Tensor y = run_op("Slice", {},
                    {x, make_int_tensor({2}, {2, 0}), make_int_tensor({2}, {0, kI64Max}),
                     make_int_tensor({2}, {0, -1}), make_int_tensor({2}, {-1, 2})},
                    13)[0];
  CHECK(y.shape() == Shape{2, 2});
  CHECK(values<float>(y) == std::vector<float>{8, 10, 4, 6});
  // Default axes (0, 1, ...) and steps; int32 arguments.
  y = run_op("Slice", {}, {x, typed<int32_t>({1}, {1}), typed<int32_t>({1}, {3})}, 13)[0];
  CHECK(values<float>(y) == std::vector<float>{4, 5, 6, 7, 8, 9, 10, 11});
  // Opset 1 attribute form.
  y = run_op("Slice", attrs({{"starts", ints({1})}, {"ends", ints({-1})}, {"axes", ints({1})}}), {x}, 1)[0];
  CHECK(values<float>(y) == std::vector<float>{1, 2, 5, 6, 9, 10});
  Tensor yi = run_op("Slice", {}, {make_int_tensor({4}, {5, 6, 7, 8}), make_int_tensor({1}, {-1}),
                                   make_int_tensor({1}, {kI64Min}), make_int_tensor({1}, {0}),
                                   make_int_tensor({1}, {-1})}, 13, 1, "ref", {false, true, true, true, true})[0];
  CHECK(values<int64_t>(yi) == std::vector<int64_t>{8, 7, 6, 5});
  // Non-constant starts at load time: rank known, dims not.
  CHECK(infer_only("Slice", {}, {ValueInfo::of(DType::f32, {3, 4}), ValueInfo::of(DType::i64, {1}),
                                 ValueInfo::of(DType::i64, {1})})[0].shape == Shape(2, kUnknownDim));
}

TEST_CASE("Slice refuses zero steps, repeated axes and mismatched lengths") {
  Tensor x = make_tensor({3, 4});
  auto ints1 = [](std::vector<int64_t> v) { return make_int_tensor({int64_t(v.size())}, v); };
  CHECK_THROWS_AS(run_op("Slice", {}, {x, ints1({0}), ints1({2}), ints1({0}), ints1({0})}, 13), Error);
  CHECK_THROWS_AS(run_op("Slice", {}, {x, ints1({0, 0}), ints1({2, 2}), ints1({1, -1})}, 13), Error);
  CHECK_THROWS_AS(run_op("Slice", {}, {x, ints1({0, 0}), ints1({2})}, 13), Error);
  CHECK_THROWS_AS(run_op("Slice", {}, {x, ints1({0}), ints1({2}), ints1({2})}, 13), Error);
  CHECK_THROWS_AS(run_op("Slice", {}, {x, ints1({0, 0, 0}), ints1({1, 1, 1})}, 13), Error);
  CHECK_THROWS_AS(run_op("Slice", {}, {x, ints1({0}), ints1({2}), ints1({0}), ints1({1, 1})}, 13), Error);
  CHECK_THROWS_AS(run_op("Slice", attrs({{"starts", ints({0})}}), {x}, 9), Error);  // ends missing
}

// ---- Gather ----

TEST_CASE("Gather picks slices along the axis, negative indices count from the end") {
  Tensor x = make_tensor({3, 4});  // x[i][j] = 4 i + j
  struct Case { int64_t axis; Shape idx_shape; std::vector<int64_t> idx; Shape want_shape; std::vector<float> want; };
  const Case cases[] = {
      {0, {2}, {2, 0}, {2, 4}, {8, 9, 10, 11, 0, 1, 2, 3}},
      {0, {}, {-1}, {4}, {8, 9, 10, 11}},
      {1, {2}, {-1, 1}, {3, 2}, {3, 1, 7, 5, 11, 9}},
      {1, {2, 2}, {0, 3, 3, 0}, {3, 2, 2}, {0, 3, 3, 0, 4, 7, 7, 4, 8, 11, 11, 8}},
      {-1, {1}, {-4}, {3, 1}, {0, 4, 8}},
      {0, {0}, {}, {0, 4}, {}},
  };
  for (const Case& c : cases) {
    for (bool constant : {true, false}) {
      CAPTURE(c.axis);
      CAPTURE(list_string(c.idx));
      CAPTURE(constant);
      Tensor y = run_op("Gather", attrs({{"axis", int_attr(c.axis)}}), {x, make_int_tensor(c.idx_shape, c.idx)}, 13,
                        1, "ref", {false, constant})[0];
      CHECK(y.shape() == c.want_shape);
      CHECK(values<float>(y) == c.want);
    }
  }
  Tensor yi = run_op("Gather", {}, {make_int_tensor({3}, {7, 8, 9}), typed<int32_t>({2}, {-3, 2})}, 13, 1, "ref",
                     {false, false})[0];
  CHECK(values<int64_t>(yi) == std::vector<int64_t>{7, 9});
}

TEST_CASE("Gather index out of range is an error, never a read") {
  Tensor x = make_tensor({3, 4});
  for (int64_t bad : {int64_t(3), int64_t(-4), kI64Max, kI64Min}) {
    for (bool constant : {true, false}) {  // caught by infer when constant, by the kernel otherwise
      CAPTURE(bad);
      CAPTURE(constant);
      const std::string msg = error_of([&] {
        run_op("Gather", {}, {x, make_int_tensor({2}, {0, bad})}, 13, 1, "ref", {false, constant});
      });
      CHECK(msg.find("out of range") != std::string::npos);
    }
  }
  CHECK_THROWS_AS(run_op("Gather", attrs({{"axis", int_attr(2)}}), {x, make_int_tensor({1}, {0})}), Error);
  CHECK_THROWS_AS(run_op("Gather", {}, {x, make_tensor({1}, {0})}, 13, 1, "ref", {false, false}), Error);  // float idx
  CHECK_THROWS_AS(run_op("Gather", {}, {make_tensor({0}), make_int_tensor({1}, {0})}, 13, 1, "ref", {false, false}),
                  Error);
}

// ---- Shape ----

TEST_CASE("Shape selects dims [start, end) with clamping, and its infer carries the data") {
  const Shape in{2, 3, 4, 5};
  struct Case { int64_t start, end; std::vector<int64_t> want; };  // Python: [2,3,4,5][start:end]
  const Case cases[] = {
      {0, kI64Max, {2, 3, 4, 5}}, {1, kI64Max, {3, 4, 5}}, {-1, kI64Max, {5}}, {0, -1, {2, 3, 4}},
      {1, 2, {3}},                {-10, 10, {2, 3, 4, 5}}, {3, 1, {}},         {4, kI64Max, {}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.start);
    CAPTURE(c.end);
    Attributes a = attrs({{"start", int_attr(c.start)}});
    if (c.end != kI64Max) a.set("end", int_attr(c.end));
    Tensor y = run_op("Shape", a, {make_tensor(in)}, 15)[0];
    CHECK(y.shape() == Shape{int64_t(c.want.size())});
    CHECK(values<int64_t>(y) == c.want);
    std::vector<ValueInfo> out = infer_only("Shape", a, {ValueInfo::of(DType::f32, in)}, 15);
    REQUIRE(out[0].constant);
    CHECK(values<int64_t>(*out[0].constant) == c.want);
  }
  // An unknown dim inside the selection: no data; outside: data.
  const ValueInfo batch_unknown = ValueInfo::of(DType::f32, {kUnknownDim, 3, 224});
  CHECK_FALSE(infer_only("Shape", {}, {batch_unknown})[0].constant);
  CHECK(infer_only("Shape", {}, {batch_unknown})[0].shape == Shape{3});
  std::vector<ValueInfo> tail = infer_only("Shape", attrs({{"start", int_attr(1)}}), {batch_unknown});
  REQUIRE(tail[0].constant);
  CHECK(values<int64_t>(*tail[0].constant) == std::vector<int64_t>{3, 224});
  CHECK_THROWS_AS(make_node("Shape", attrs({{"start", int_attr(1)}}), 1, 1, 14), Error);  // opset 15 attribute
}

// ---- Cast ----

TEST_CASE("Cast converts every value, with defined results where C++ has none") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  // `in` is written into a one-element tensor of type `from`; the result is read back as double.
  struct Case { DType from; double in; DType to; double want; };
  const Case cases[] = {
      {DType::f32, 2.7, DType::i32, 2},
      {DType::f32, -2.7, DType::i32, -2},  // toward zero
      {DType::f32, nan, DType::i32, 0},    // NaN -> 0
      {DType::f32, inf, DType::i32, 2147483647},
      {DType::f32, -inf, DType::i64, double(kI64Min)},
      {DType::f32, 3e9, DType::i32, 2147483647},  // saturates
      {DType::f64, 1e19, DType::i64, double(kI64Max)},
      {DType::f64, -9.3e18, DType::i64, double(kI64Min)},
      {DType::f64, 9.2e18, DType::i64, 9.2e18},
      {DType::f32, -1.5, DType::u8, 0},
      {DType::f32, 300, DType::u8, 255},
      {DType::f32, 255.9, DType::u8, 255},
      {DType::f32, -128.9, DType::i8, -128},
      {DType::f32, 127.9, DType::i8, 127},
      {DType::i64, 300, DType::u8, 44},  // wraps modulo 256
      {DType::i64, -1, DType::u8, 255},
      {DType::i64, 200, DType::i8, -56},
      {DType::i64, double((int64_t(1) << 40) + 5), DType::i32, 5},
      {DType::i64, -2147483649.0, DType::i32, 2147483647},
      {DType::i32, -7, DType::i64, -7},
      {DType::u8, 250, DType::i8, -6},
      {DType::f64, 1e300, DType::f32, inf},
      {DType::f64, 0.1, DType::f32, double(0.1f)},
      {DType::f32, nan, DType::f64, nan},
      {DType::f32, nan, DType::boolean, 1},  // as numpy
      {DType::f32, -0.0, DType::boolean, 0},
      {DType::i64, -5, DType::boolean, 1},
      {DType::boolean, 1, DType::f32, 1},
      {DType::boolean, 0, DType::i64, 0},
      {DType::i64, 3, DType::i64, 3},
  };
  for (const Case& c : cases) {
    CAPTURE(dtype_name(c.from));
    CAPTURE(c.in);
    CAPTURE(dtype_name(c.to));
    Tensor x(c.from, {1});
    visit_dtype(c.from, [&](auto t) {
      using T = decltype(t);
      x.data<T>()[0] = T(c.in);
    });
    Tensor y = run_op("Cast", attrs({{"to", int_attr(int64_t(c.to))}}), {x}, 13, 1, "ref", {false})[0];
    REQUIRE(y.dtype() == c.to);
    const double got = y.double_at(0);
    if (std::isnan(c.want)) CHECK(std::isnan(got));
    else CHECK(got == c.want);
  }
  // int64 -> float64 rounds to nearest (ties to even): 2^53 + 1 -> 2^53.
  Tensor big = run_op("Cast", attrs({{"to", int_attr(11)}}), {make_int_tensor({1}, {(int64_t(1) << 53) + 1})})[0];
  CHECK(big.data<double>()[0] == 9007199254740992.0);
}

TEST_CASE("Cast reads any nonzero bool byte as true and validates `to`") {
  Tensor b(DType::boolean, {2});
  static_cast<uint8_t*>(b.raw())[0] = 2;  // not a canonical bool
  Tensor y = run_op("Cast", attrs({{"to", int_attr(7)}}), {b}, 13, 1, "ref", {false})[0];
  CHECK(values<int64_t>(y) == std::vector<int64_t>{1, 0});
  for (int64_t to : {0, 4, 8, 99, -1}) {
    CAPTURE(to);
    const std::string msg = error_of([&] { make_node("Cast", attrs({{"to", int_attr(to)}}), 1, 1, 13); });
    CHECK(msg.find("'to'") != std::string::npos);
  }
  CHECK_THROWS_AS(make_node("Cast", {}, 1, 1, 13), Error);                                           // to missing
  CHECK_THROWS_AS(make_node("Cast", attrs({{"to", int_attr(1)}, {"saturate", int_attr(1)}}), 1, 1, 13), Error);
  CHECK_NOTHROW(make_node("Cast", attrs({{"to", int_attr(1)}, {"saturate", int_attr(1)}}), 1, 1, 19));
}

// ---- Constant / Identity ----

TEST_CASE("Constant gives its value at infer time, in every attribute form") {
  struct Case { const char* attr; Attribute value; DType dtype; Shape shape; std::vector<double> want; };
  const Case cases[] = {
      {"value", tensor_attr(make_int_tensor({2}, {4, -5})), DType::i64, {2}, {4, -5}},
      {"value", tensor_attr(make_tensor({2, 1}, {1.5f, 2.5f})), DType::f32, {2, 1}, {1.5, 2.5}},
      {"value_float", float_attr(0.25f), DType::f32, {}, {0.25}},
      {"value_floats", floats({1, 2, 3}), DType::f32, {3}, {1, 2, 3}},
      {"value_int", int_attr(-3), DType::i64, {}, {-3}},
      {"value_ints", ints({7, 8}), DType::i64, {2}, {7, 8}},
      {"value_ints", ints({}), DType::i64, {0}, {}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.attr);
    const Attributes a = attrs({{c.attr, c.value}});
    std::vector<ValueInfo> out = infer_only("Constant", a, {}, 13);
    REQUIRE(out[0].constant);
    Tensor y = run_op("Constant", a, {}, 13)[0];  // the kernel writes the same value
    for (const Tensor* t : {out[0].constant.get(), static_cast<const Tensor*>(&y)}) {
      CHECK(t->dtype() == c.dtype);
      CHECK(t->shape() == c.shape);
      for (int64_t i = 0; i < t->numel(); ++i) CHECK(t->double_at(i) == c.want[size_t(i)]);
    }
  }
}

TEST_CASE("Constant refuses sparse and string values, and needs exactly one value") {
  Attribute sparse;
  sparse.kind = Attribute::Kind::unsupported;
  sparse.onnx_type = "SPARSE_TENSOR";
  CHECK(error_of([&] { make_node("Constant", attrs({{"sparse_value", sparse}}), 0, 1, 13); }).find("sparse") !=
        std::string::npos);
  CHECK(error_of([&] { make_node("Constant", attrs({{"value_string", string_attr("x")}}), 0, 1, 13); })
            .find("string") != std::string::npos);
  CHECK_THROWS_AS(make_node("Constant", {}, 0, 1, 13), Error);
  CHECK_THROWS_AS(make_node("Constant", attrs({{"value_int", int_attr(1)}, {"value_float", float_attr(1)}}), 0, 1, 13),
                  Error);
  CHECK_THROWS_AS(make_node("Constant", attrs({{"value_int", int_attr(1)}}), 0, 1, 11), Error);  // opset 12 form
  CHECK_THROWS_AS(make_node("Constant", attrs({{"value", int_attr(1)}}), 0, 1, 13), Error);      // not a tensor
}

TEST_CASE("Identity passes data and constants through") {
  Tensor x = make_int_tensor({3}, {1, -2, 3});
  CHECK(values<int64_t>(run_op("Identity", {}, {x}, 13, 1, "ref", {false})[0]) == std::vector<int64_t>{1, -2, 3});
  std::vector<ValueInfo> out = infer_only("Identity", {}, {ValueInfo::of(x)});
  REQUIRE(out[0].constant);
  CHECK(values<int64_t>(*out[0].constant) == std::vector<int64_t>{1, -2, 3});
}

// ---- Dropout ----

TEST_CASE("Dropout is the identity at inference, with an all-true mask") {
  Tensor x = make_tensor({2, 3}, {1, -2, 3, -4, 5, -6});
  Tensor no = typed<bool>({}, {false}), yes = typed<bool>({}, {true});
  struct Case { int opset; Attributes a; std::vector<Tensor> in; };
  const Case cases[] = {
      {7, attrs({{"ratio", float_attr(0.3f)}}), {x}},
      {10, {}, {x}},
      {13, attrs({{"seed", int_attr(0)}}), {x}},
      {13, {}, {x, make_tensor({}, {0.5f})}},
      {13, {}, {x, make_tensor({}, {0.5f}), no}},
      {13, {}, {x, make_tensor({}, {0.f}), yes}},  // training with ratio 0 drops nothing
      {13, {}, {x, Tensor(), no}},
  };
  for (const Case& c : cases) {
    for (bool constant : {true, false}) {
      CAPTURE(c.opset);
      CAPTURE(c.in.size());
      CAPTURE(constant);
      std::vector<Tensor> y = run_op("Dropout", c.a, c.in, c.opset, 2, "ref", std::vector<bool>(3, constant));
      CHECK(values<float>(y[0]) == values<float>(x));
      REQUIRE(y[1].shape() == x.shape());
      if (c.opset >= 10) {
        REQUIRE(y[1].dtype() == DType::boolean);
        for (int64_t i = 0; i < x.numel(); ++i) CHECK(static_cast<const uint8_t*>(y[1].raw())[i] == 1);
      } else {
        CHECK(values<float>(y[1]) == std::vector<float>(6, 1.f));  // before opset 10 the mask has x's type
      }
    }
  }
}

TEST_CASE("Training-mode Dropout with ratio > 0 is refused") {
  Tensor x = make_tensor({4});
  Tensor yes = typed<bool>({}, {true});
  // ratio given and > 0, or omitted (default 0.5); refused by infer when known, else by the kernel.
  const std::vector<std::vector<Tensor>> inputs = {{x, make_tensor({}, {0.3f}), yes}, {x, Tensor(), yes}};
  for (const auto& in : inputs) {
    for (bool constant : {true, false}) {
      CAPTURE(in[1].defined());
      CAPTURE(constant);
      const std::string msg =
          error_of([&] { run_op("Dropout", {}, in, 13, 1, "ref", {false, constant, constant}); });
      CHECK(msg.find(kTrainingDropoutRefused) != std::string::npos);
    }
  }
  CHECK_THROWS_AS(run_op("Dropout", {}, {x, make_tensor({}, {1.5f})}, 13, 1, "ref", {false, true}), Error);  // > 1
  CHECK_THROWS_AS(run_op("Dropout", {}, {x, make_tensor({2}, {0.f, 0.f})}), Error);  // not a scalar
  CHECK_THROWS_AS(make_node("Dropout", attrs({{"ratio", float_attr(0.5f)}}), 1, 1, 12), Error);  // input form
  CHECK_THROWS_AS(make_node("Dropout", {}, 2, 1, 11), Error);
}

// ---- Pad ----

TEST_CASE("Pad in each mode, negative pads crop first") {
  // Expected values: numpy's np.pad on the cropped input (ONNX's reference order), x = [1, 2, 3, 4], value 9.
  struct Case { int64_t begin, end; PadMode mode; std::vector<float> want; };
  const Case cases[] = {
      {2, 1, PadMode::constant, {9, 9, 1, 2, 3, 4, 9}},
      {2, 1, PadMode::edge, {1, 1, 1, 2, 3, 4, 4}},
      {3, 3, PadMode::reflect, {4, 3, 2, 1, 2, 3, 4, 3, 2, 1}},
      {2, 1, PadMode::reflect, {3, 2, 1, 2, 3, 4, 3}},
      {5, 6, PadMode::wrap, {4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2}},
      {-1, 2, PadMode::reflect, {2, 3, 4, 3, 2}},
      {-2, -1, PadMode::constant, {3}},
      {2, -3, PadMode::edge, {1, 1, 1}},
      {1, -2, PadMode::wrap, {2, 1, 2}},
      {-3, 2, PadMode::edge, {4, 4, 4}},
      {0, 0, PadMode::reflect, {1, 2, 3, 4}},
      {-4, 2, PadMode::constant, {9, 9}},
      {-5, 3, PadMode::constant, {9, 9}},  // cropped beyond the input: all constant
  };
  const char* names[] = {"constant", "reflect", "edge", "wrap"};
  for (const Case& c : cases) {
    CAPTURE(c.begin);
    CAPTURE(c.end);
    CAPTURE(names[int(c.mode)]);
    const Attributes a = attrs({{"mode", string_attr(names[int(c.mode)])}});
    Tensor x = make_tensor({4}, {1, 2, 3, 4});
    Tensor y = run_op("Pad", a, {x, make_int_tensor({2}, {c.begin, c.end}), make_tensor({}, {9.f})}, 19, 1, "ref",
                      {false, true, false})[0];
    CHECK(values<float>(y) == c.want);
    if (c.mode != PadMode::wrap) {  // opset 2 attribute form
      Attributes old = a;
      old.set("pads", ints({c.begin, c.end}));
      old.set("value", float_attr(9.f));
      CHECK(values<float>(run_op("Pad", old, {x}, 2)[0]) == c.want);
    }
  }
}

TEST_CASE("Pad in 2-D, with axes (opset 18), other element types and a default constant") {
  Tensor x = make_tensor({2, 3});  // [[0,1,2],[3,4,5]]
  // numpy: np.pad(x, ((1,1),(2,2)), 'reflect')
  Tensor y = run_op("Pad", attrs({{"mode", string_attr("reflect")}}), {x, make_int_tensor({4}, {1, 2, 1, 2})}, 13)[0];
  CHECK(y.shape() == Shape{4, 7});
  CHECK(values<float>(y) == std::vector<float>{5, 4, 3, 4, 5, 4, 3, 2, 1, 0, 1, 2, 1, 0,
                                               5, 4, 3, 4, 5, 4, 3, 2, 1, 0, 1, 2, 1, 0});
  // axes = [-1]: only the last axis; numpy np.pad(x, ((0,0),(1,0)), constant 0).
  y = run_op("Pad", {}, {x, make_int_tensor({2}, {1, 0}), Tensor(), make_int_tensor({1}, {-1})}, 18)[0];
  CHECK(values<float>(y) == std::vector<float>{0, 0, 1, 2, 0, 3, 4, 5});
  // numpy: np.pad(x, ((0,1),(1,0)), 'edge') on int64 data.
  Tensor yi = run_op("Pad", attrs({{"mode", string_attr("edge")}}),
                     {make_int_tensor({2, 3}, {0, 1, 2, 3, 4, 5}), make_int_tensor({4}, {0, 1, 1, 0})}, 13, 1, "ref",
                     {false, true})[0];
  CHECK(values<int64_t>(yi) == std::vector<int64_t>{0, 0, 1, 2, 3, 3, 4, 5, 3, 3, 4, 5});
  Tensor yb = run_op("Pad", {}, {typed<bool>({1}, {true}), make_int_tensor({2}, {1, 1}), typed<bool>({}, {true})}, 13,
                     1, "ref", {false, true, false})[0];
  CHECK(values<bool>(yb) == std::vector<bool>{true, true, true});
  // Pads not known at load time: rank only.
  CHECK(infer_only("Pad", {}, {ValueInfo::of(DType::f32, {2, 3}), ValueInfo::of(DType::i64, {4})}, 13)[0].shape ==
        Shape(2, kUnknownDim));
}

TEST_CASE("Pad refuses what it cannot do") {
  Tensor x = make_tensor({2, 3});
  auto pad = [&](const char* mode, std::vector<int64_t> pads, int opset = 19) {
    const Tensor pads_tensor = make_int_tensor({int64_t(pads.size())}, pads);
    return run_op("Pad", attrs({{"mode", string_attr(mode)}}), {x, pads_tensor}, opset);
  };
  struct Case { const char* mode; std::vector<int64_t> pads; };
  const Case cases[] = {
      {"reflect", {0, 3, 0, 0}},    // pad 3 > 3 - 1
      {"reflect", {1, 0, 0, 0}},    // axis 0 has 2 elements: pad 1 is fine ...
      {"reflect", {0, 1, 0, -2}},   // ... but 1 element left after cropping cannot reflect
      {"edge", {0, 1, 0, -3}},      // nothing left to repeat
      {"wrap", {0, 1, 0, -3}},
      {"constant", {0, 0, 0, -4}},  // output dim below 0
      {"constant", {0, 0, 0}},      // 3 pads for 2 axes
      {"constant", {0, kI64Max, 0, 0}},
      {"constant", {0, kI64Min, 0, 0}},
      {"symmetric", {0, 0, 0, 0}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.mode);
    CAPTURE(list_string(c.pads));
    if (c.pads == std::vector<int64_t>{1, 0, 0, 0}) CHECK_NOTHROW(pad(c.mode, c.pads));
    else CHECK_THROWS_AS(pad(c.mode, c.pads), Error);
  }
  CHECK_THROWS_AS(pad("wrap", {0, 1, 0, 0}, 18), Error);  // wrap is opset 19
  CHECK_THROWS_AS(run_op("Pad", {}, {x, make_int_tensor({2}, {1, 1}), Tensor(), make_int_tensor({2}, {1, -1})}, 18),
                  Error);  // axis twice
  CHECK_THROWS_AS(run_op("Pad", {}, {x, make_int_tensor({4}, {0, 0, 0, 0}), make_int_tensor({}, {0})}, 13), Error);
  CHECK_THROWS_AS(run_op("Pad", {}, {x, make_int_tensor({4}, {0, 0, 0, 0}), make_tensor({2}, {0, 0})}, 13), Error);
  CHECK_THROWS_AS(run_op("Pad", attrs({{"pads", ints({0, 0, 0, 0})}}), {x}, 11), Error);  // attribute form is < 11
  CHECK_THROWS_AS(run_op("Pad", {}, {x}, 2), Error);                                    // pads attribute required
}

// ---- Plan-time folding of shape arithmetic ----

TEST_CASE("Shape -> Gather -> Unsqueeze -> Concat -> Reshape folds from infer alone") {
  // The chain torchvision exports for x.view(x.size(0), -1), run through infer with a known input shape.
  const ValueInfo x = ValueInfo::of(DType::f32, {2, 3, 4});
  const ValueInfo shape = infer_only("Shape", {}, {x})[0];
  REQUIRE(shape.constant);
  Node gather = make_node("Gather", attrs({{"axis", int_attr(0)}}), 2, 1, 13);
  std::vector<ValueInfo> batch =
      infer_node(gather, {shape, ValueInfo::of(make_int_tensor({}, {0}))});  // folds with the ref kernel
  REQUIRE(batch[0].constant);
  Node unsqueeze = make_node("Unsqueeze", {}, 2, 1, 13);
  std::vector<ValueInfo> batch1 = infer_node(unsqueeze, {batch[0], ValueInfo::of(make_int_tensor({1}, {0}))});
  REQUIRE(batch1[0].constant);
  Node concat = make_node("Concat", attrs({{"axis", int_attr(0)}}), 2, 1, 13);
  std::vector<ValueInfo> target = infer_node(concat, {batch1[0], ValueInfo::of(make_int_tensor({1}, {-1}))});
  REQUIRE(target[0].constant);
  CHECK(values<int64_t>(*target[0].constant) == std::vector<int64_t>{2, -1});
  CHECK(infer_only("Reshape", {}, {x, target[0]})[0].shape == Shape{2, 12});
}

// ---- ops sized or indexed by data: ConstantOfShape, Expand, Tile, Range, Split, GatherElements, GatherND,
// ScatterND, DepthToSpace, SpaceToDepth, Trilu ----

TEST_CASE("ConstantOfShape, Expand, Tile and Range compute their outputs") {
  Tensor v(DType::i64, {1});
  v.data<int64_t>()[0] = -3;
  const Tensor c = run_op("ConstantOfShape", attrs({{"value", tensor_attr(v)}}), {make_int_tensor({2}, {2, 2})})[0];
  CHECK(c.shape() == Shape{2, 2});
  CHECK(values<int64_t>(c) == std::vector<int64_t>{-3, -3, -3, -3});
  const Tensor e = run_op("Expand", {}, {make_tensor({3, 1}, {1, 2, 3}), make_int_tensor({2}, {1, 2})})[0];
  CHECK(e.shape() == Shape{3, 2});
  CHECK(values<float>(e) == std::vector<float>{1, 1, 2, 2, 3, 3});
  const Tensor t = run_op("Tile", {}, {make_tensor({2, 2}, {1, 2, 3, 4}), make_int_tensor({2}, {2, 2})})[0];
  CHECK(values<float>(t) == std::vector<float>{1, 2, 1, 2, 3, 4, 3, 4, 1, 2, 1, 2, 3, 4, 3, 4});  // numpy.tile
  const Tensor t1 = run_op("Tile", {}, {make_tensor({2}, {1, 2}), make_int_tensor({}, {3}),
                                        make_int_tensor({}, {0})}, 1)[0];
  CHECK(values<float>(t1) == std::vector<float>{1, 2, 1, 2, 1, 2});
  const Tensor r = run_op("Range", {}, {make_int_tensor({}, {10}), make_int_tensor({}, {-3}),
                                        make_int_tensor({}, {-4})})[0];
  CHECK(values<int64_t>(r) == std::vector<int64_t>{10, 6, 2, -2});
  const Tensor rf = run_op("Range", {}, {make_tensor({}, {1}), make_tensor({}, {2}), make_tensor({}, {0.25f})}, 19, 1,
                           "ref", {true, true, true})[0];
  CHECK(values<float>(rf) == std::vector<float>{1, 1.25f, 1.5f, 1.75f});
}

TEST_CASE("ConstantOfShape, Expand, Tile and Range refuse bad sizes before allocating") {
  CHECK(error_of([] { run_op("ConstantOfShape", {}, {make_int_tensor({2}, {2, -1})}); }).find("negative") !=
        std::string::npos);
  CHECK_THROWS_AS(run_op("ConstantOfShape", {}, {make_int_tensor({3}, {1 << 30, 1 << 30, 1 << 30})}), Error);
  CHECK_THROWS_AS(make_node("ConstantOfShape", attrs({{"value", tensor_attr(make_tensor({2}))}}), 1, 1, 9), Error);
  CHECK_THROWS_AS(run_op("Expand", {}, {make_tensor({3}), make_int_tensor({1}, {2})}), Error);  // 3 vs 2
  CHECK_THROWS_AS(run_op("Expand", {}, {make_tensor({1}), make_int_tensor({1}, {-2})}), Error);
  CHECK_THROWS_AS(run_op("Expand", {}, {make_tensor({1}), make_int_tensor({3}, {1 << 20, 1 << 20, 1 << 20})}), Error);
  CHECK_THROWS_AS(run_op("Tile", {}, {make_tensor({2, 2}), make_int_tensor({1}, {2})}), Error);  // one per axis
  CHECK_THROWS_AS(run_op("Tile", {}, {make_tensor({2}), make_int_tensor({1}, {-1})}), Error);
  CHECK_THROWS_AS(run_op("Tile", {}, {make_tensor({2}), make_int_tensor({1}, {kI64Max})}), Error);
  CHECK(error_of([] { run_op("Range", {}, {make_int_tensor({}, {0}), make_int_tensor({}, {5}), make_int_tensor({}, {0})}); })
            .find("delta") != std::string::npos);
  CHECK_THROWS_AS(run_op("Range", {}, {make_int_tensor({}, {kI64Min}), make_int_tensor({}, {kI64Max}),
                                       make_int_tensor({}, {1})}), Error);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_AS(run_op("Range", {}, {make_tensor({}, {0}), make_tensor({}, {nan}), make_tensor({}, {1})}, 19, 1,
                         "ref", {true, true, true}), Error);
  CHECK_THROWS_AS(run_op("Range", {}, {make_tensor({}, {0}), make_tensor({}, {1e30f}), make_tensor({}, {1})}, 19, 1,
                         "ref", {true, true, true}), Error);
  CHECK_THROWS_AS(run_op("Range", {}, {make_tensor({}, {0}), make_int_tensor({}, {5}), make_tensor({}, {1})}, 19, 1,
                         "ref", {true, true, true}), Error);  // mixed types
}

TEST_CASE("Split: attribute, input and num_outputs forms; sizes must add up") {
  const Tensor x = make_tensor({5}, iota(5));
  std::vector<Tensor> y = run_op("Split", {}, {x, make_int_tensor({2}, {2, 3})}, 13, 2);
  CHECK(values<float>(y[0]) == std::vector<float>{0, 1});
  CHECK(values<float>(y[1]) == std::vector<float>{2, 3, 4});
  y = run_op("Split", attrs({{"split", ints({4, 1})}}), {x}, 11, 2);
  CHECK(values<float>(y[1]) == std::vector<float>{4});
  y = run_op("Split", attrs({{"num_outputs", int_attr(2)}}), {x}, 18, 2);
  CHECK(values<float>(y[0]) == std::vector<float>{0, 1, 2});  // ceil(5 / 2), the last part smaller
  CHECK(values<float>(y[1]) == std::vector<float>{3, 4});
  CHECK(error_of([&] { run_op("Split", {}, {x, make_int_tensor({2}, {2, 2})}, 13, 2); }).find("adds up") !=
        std::string::npos);
  CHECK_THROWS_AS(run_op("Split", {}, {x, make_int_tensor({2}, {6, -1})}, 13, 2), Error);
  CHECK_THROWS_AS(run_op("Split", {}, {x, make_int_tensor({3}, {1, 2, 2})}, 13, 2), Error);  // 3 sizes, 2 outputs
  CHECK_THROWS_AS(run_op("Split", {}, {x}, 13, 2), Error);                                   // 5 is not even
  CHECK_THROWS_AS(make_node("Split", attrs({{"num_outputs", int_attr(3)}}), 1, 2, 18), Error);
  CHECK_THROWS_AS(make_node("Split", attrs({{"split", ints({1, 1})}}), 2, 2, 13), Error);  // attribute before 13
  CHECK_THROWS_AS(make_node("Split", attrs({{"num_outputs", int_attr(2)}}), 1, 2, 13), Error);
  CHECK_THROWS_AS(run_op("Split", attrs({{"axis", int_attr(1)}}), {x}, 13, 1), Error);
}

TEST_CASE("element_offsets (GatherElements' and ScatterElements' index walk) against each entry's coordinates") {
  // Random shapes of rank 1-4, every axis, indices smaller than data along the other axes, int32 and int64 indices
  // (negative ones too): each entry's offset is its own coordinates with the axis one replaced, in data's strides.
  uint64_t seed = 34;
  auto draw = [&](int64_t lo, int64_t hi) {  // in [lo, hi]
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return lo + int64_t((seed >> 33) % uint64_t(hi - lo + 1));
  };
  for (int trial = 0; trial < 200; ++trial) {
    const size_t rank = size_t(draw(1, 4)), axis = size_t(draw(0, int64_t(rank) - 1));
    const bool i32 = trial % 2 == 1;
    Shape data_shape, index_shape;
    for (size_t a = 0; a < rank; ++a) {
      data_shape.push_back(draw(1, 5));
      index_shape.push_back(a == axis ? draw(1, 5) : draw(1, data_shape[a]));
    }
    const int64_t n = data_shape[axis], count = checked_numel(index_shape);
    Tensor indices(i32 ? DType::i32 : DType::i64, index_shape);
    std::vector<int64_t> values;
    for (int64_t k = 0; k < count; ++k) values.push_back(draw(-n, n - 1));
    for (int64_t k = 0; k < count; ++k) {
      if (i32) indices.data<int32_t>()[k] = int32_t(values[size_t(k)]);
      else indices.data<int64_t>()[k] = values[size_t(k)];
    }
    const std::vector<int64_t> got = element_offsets(Tensor(DType::f32, data_shape), indices, axis);
    CAPTURE(to_string(data_shape));
    CAPTURE(to_string(index_shape));
    CAPTURE(axis);
    CAPTURE(i32);
    REQUIRE(got.size() == size_t(count));
    for (int64_t k = 0; k < count; ++k) {
      int64_t rest = k, offset = 0, stride = 1;
      std::vector<int64_t> coord(rank);
      for (size_t a = rank; a-- > 0;) {
        coord[a] = rest % index_shape[a];
        rest /= index_shape[a];
      }
      coord[axis] = values[size_t(k)] < 0 ? values[size_t(k)] + n : values[size_t(k)];
      for (size_t a = rank; a-- > 0;) {
        offset += coord[a] * stride;
        stride *= data_shape[a];
      }
      CAPTURE(k);
      CHECK(got[size_t(k)] == offset);
    }
  }
  // An index out of range names its entry, before anything is read.
  Tensor bad(DType::i64, {2, 2});
  bad.data<int64_t>()[3] = 2;
  CHECK_THROWS_WITH_AS(element_offsets(Tensor(DType::f32, {2, 2}), bad, 1),
                       doctest::Contains("index 2 (entry 3 of the indices) is out of range for axis 1 of size 2"), Error);
}

TEST_CASE("GatherElements, GatherND, ScatterND and ScatterElements pick and place elements; indices out of range are errors") {
  const Tensor x = make_tensor({2, 3}, iota(6));
  const Tensor ge = run_op("GatherElements", attrs({{"axis", int_attr(1)}}),
                           {x, make_int_tensor({2, 2}, {2, 0, -1, 1})})[0];
  CHECK(values<float>(ge) == std::vector<float>{2, 0, 5, 4});
  const Tensor gnd = run_op("GatherND", {}, {x, make_int_tensor({2, 2}, {1, 2, 0, -3})})[0];
  CHECK(values<float>(gnd) == std::vector<float>{5, 0});
  const Tensor gb = run_op("GatherND", attrs({{"batch_dims", int_attr(1)}}), {x, make_int_tensor({2, 1}, {1, 2})})[0];
  CHECK(values<float>(gb) == std::vector<float>{1, 5});
  const Tensor s = run_op("ScatterND", attrs({{"reduction", string_attr("add")}}),
                          {x, make_int_tensor({2, 1}, {1, 1}), make_tensor({2, 3}, {1, 1, 1, 10, 10, 10})}, 16)[0];
  CHECK(values<float>(s) == std::vector<float>{0, 1, 2, 14, 15, 16});
  const Tensor sn = run_op("ScatterND", {}, {x, make_int_tensor({1, 2}, {0, -1}), make_tensor({1}, {9})}, 11)[0];
  CHECK(values<float>(sn) == std::vector<float>{0, 1, 9, 3, 4, 5});
  for (const std::string& e :
       {error_of([&] { run_op("GatherElements", {}, {x, make_int_tensor({1, 1}, {2})}); }),
        error_of([&] { run_op("GatherElements", {}, {x, make_int_tensor({1, 1}, {-3})}, 19, 1, "ref", {false, false}); }),
        error_of([&] { run_op("GatherND", {}, {x, make_int_tensor({1, 2}, {0, 3})}, 19, 1, "ref", {false, false}); }),
        error_of([&] { run_op("ScatterND", {}, {x, make_int_tensor({1, 1}, {2}), make_tensor({1, 3})}); }),
        error_of([&] { run_op("ScatterElements", {}, {x, make_int_tensor({1, 1}, {2}), make_tensor({1, 1})}); }),
        error_of([&] { run_op("ScatterElements", attrs({{"axis", int_attr(1)}}),
                              {x, make_int_tensor({1, 1}, {-4}), make_tensor({1, 1})}); })})
    CHECK(e.find("out of range") != std::string::npos);
  CHECK_THROWS_AS(run_op("GatherElements", {}, {x, make_int_tensor({2}, {0, 1})}), Error);          // rank
  CHECK_THROWS_AS(run_op("GatherElements", {}, {x, make_int_tensor({1, 4}, {0, 0, 0, 0})}), Error);  // 4 > 3
  CHECK_THROWS_AS(run_op("GatherND", {}, {x, make_int_tensor({1, 3}, {0, 0, 0})}), Error);          // k > rank
  CHECK_THROWS_AS(run_op("GatherND", attrs({{"batch_dims", int_attr(1)}}), {x, make_int_tensor({3, 1}, {0, 0, 0})}),
                  Error);  // batch dims differ
  CHECK_THROWS_AS(run_op("ScatterND", {}, {x, make_int_tensor({1, 1}, {0}), make_tensor({1, 2})}), Error);
  CHECK_THROWS_AS(make_node("ScatterND", attrs({{"reduction", string_attr("max")}}), 3, 1, 16), Error);  // opset 18
  CHECK_THROWS_AS(make_node("ScatterND", attrs({{"reduction", string_attr("add")}}), 3, 1, 13), Error);
  CHECK_THROWS_AS(make_node("GatherND", attrs({{"batch_dims", int_attr(1)}}), 2, 1, 11), Error);
  // ScatterElements: updates land where the indices say along the axis; reductions from opset 16.
  const Tensor se = run_op("ScatterElements", attrs({{"axis", int_attr(1)}}),
                           {x, make_int_tensor({2, 1}, {2, -3}), make_tensor({2, 1}, {10, 20})}, 13)[0];
  CHECK(values<float>(se) == std::vector<float>{0, 1, 10, 20, 4, 5});
  const Tensor sa = run_op("ScatterElements", attrs({{"reduction", string_attr("add")}}),
                           {x, make_int_tensor({2, 1}, {1, 1}), make_tensor({2, 1}, {10, 20})}, 16)[0];
  CHECK(values<float>(sa) == std::vector<float>{0, 1, 2, 33, 4, 5});
  CHECK_THROWS_WITH_AS(run_op("ScatterElements", {}, {x, make_int_tensor({1, 1}, {0}), make_tensor({1, 2})}),
                       doctest::Contains("must have the shape of indices"), Error);
  CHECK_THROWS_AS(make_node("ScatterElements", attrs({{"reduction", string_attr("max")}}), 3, 1, 16), Error);
  CHECK_THROWS_AS(make_node("Scatter", attrs({{"reduction", string_attr("add")}}), 3, 1, 10), Error);
}

TEST_CASE("DepthToSpace, SpaceToDepth and Trilu") {
  // numpy: x.reshape(1, 2, 2, 1, 1, 2).transpose(0, 3, 4, 1, 5, 2).reshape(1, 1, 2, 4) for DCR.
  const Tensor x = make_tensor({1, 4, 1, 2}, iota(8));
  const Tensor dcr = run_op("DepthToSpace", attrs({{"blocksize", int_attr(2)}}), {x})[0];
  CHECK(dcr.shape() == Shape{1, 1, 2, 4});
  CHECK(values<float>(dcr) == std::vector<float>{0, 2, 1, 3, 4, 6, 5, 7});
  const Tensor back = run_op("SpaceToDepth", attrs({{"blocksize", int_attr(2)}}), {dcr})[0];
  CHECK(values<float>(back) == values<float>(x));
  const Tensor crd = run_op("DepthToSpace", attrs({{"blocksize", int_attr(2)}, {"mode", string_attr("CRD")}}), {x})[0];
  CHECK(values<float>(crd) == std::vector<float>{0, 2, 1, 3, 4, 6, 5, 7});  // one output channel: same as DCR
  CHECK_THROWS_AS(run_op("DepthToSpace", attrs({{"blocksize", int_attr(3)}}), {x}), Error);  // 4 % 9
  CHECK_THROWS_AS(run_op("DepthToSpace", attrs({{"blocksize", int_attr(2)}}), {make_tensor({4, 2})}), Error);
  CHECK_THROWS_AS(make_node("DepthToSpace", attrs({{"blocksize", int_attr(2)}, {"mode", string_attr("XYZ")}}), 1, 1, 13),
                  Error);
  CHECK_THROWS_AS(make_node("DepthToSpace", attrs({{"blocksize", int_attr(2)}, {"mode", string_attr("CRD")}}), 1, 1, 1),
                  Error);
  CHECK_THROWS_AS(make_node("DepthToSpace", attrs({{"blocksize", int_attr(0)}}), 1, 1, 13), Error);
  CHECK_THROWS_AS(run_op("SpaceToDepth", attrs({{"blocksize", int_attr(2)}}), {make_tensor({1, 1, 3, 2})}), Error);
  const Tensor m = make_tensor({3, 3}, iota(9));
  CHECK(values<float>(run_op("Trilu", {}, {m})[0]) == std::vector<float>{0, 1, 2, 0, 4, 5, 0, 0, 8});
  CHECK(values<float>(run_op("Trilu", attrs({{"upper", int_attr(0)}}), {m, make_int_tensor({}, {-1})})[0]) ==
        std::vector<float>{0, 0, 0, 3, 0, 0, 6, 7, 0});
  CHECK(values<float>(run_op("Trilu", {}, {m, make_int_tensor({}, {kI64Min})})[0]) == iota(9));
  CHECK_THROWS_AS(run_op("Trilu", {}, {make_tensor({3})}), Error);
  CHECK_THROWS_AS(make_node("Trilu", attrs({{"upper", int_attr(2)}}), 1, 1, 14), Error);
}

TEST_CASE("EyeLike: ones on diagonal k, input 0's shape, dtype or input 0's type") {
  const Tensor x = make_tensor({3, 4}, iota(12));
  CHECK(values<float>(run_op("EyeLike", {}, {x})[0]) == std::vector<float>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0});
  const Tensor up = run_op("EyeLike", attrs({{"k", int_attr(2)}, {"dtype", int_attr(7)}}), {x})[0];  // int64
  CHECK(up.dtype() == DType::i64);
  CHECK(values<int64_t>(up) == std::vector<int64_t>{0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0});
  const Tensor tall = make_tensor({4, 2}, iota(8));
  CHECK(values<float>(run_op("EyeLike", attrs({{"k", int_attr(-1)}}), {tall})[0]) ==
        std::vector<float>{0, 0, 1, 0, 0, 1, 0, 0});
  CHECK(values<float>(run_op("EyeLike", attrs({{"k", int_attr(-9)}}), {tall})[0]) == std::vector<float>(8, 0.f));
  CHECK_THROWS_AS(run_op("EyeLike", {}, {make_tensor({2, 2, 2})}), Error);  // not 2-D
  CHECK(error_of([] { make_node("EyeLike", attrs({{"dtype", int_attr(10)}}), 1, 1, 9); })  // float16
            .find("attribute 'dtype' = 10") != std::string::npos);
  CHECK_THROWS_AS(make_node("EyeLike", attrs({{"axis", int_attr(0)}}), 1, 1, 9), Error);  // unknown attribute
}

TEST_CASE("legacy opsets: Reshape shape attribute, Pad paddings, Cast to a string, Dropout is_test") {
  const Tensor x = make_tensor({2, 3}, iota(6));
  CHECK(run_op("Reshape", attrs({{"shape", ints({3, -1})}}), {x}, 4)[0].shape() == Shape{3, 2});
  CHECK_THROWS_AS(make_node("Reshape", {}, 1, 1, 4), Error);                                   // shape required
  CHECK_THROWS_AS(make_node("Reshape", attrs({{"shape", ints({6})}}), 2, 1, 5), Error);       // input from 5
  const Tensor padded = run_op("Pad", attrs({{"paddings", ints({0, 1, 0, 0})}, {"value", float_attr(9)}}), {x}, 1)[0];
  CHECK(values<float>(padded) == std::vector<float>{9, 0, 1, 2, 9, 3, 4, 5});
  CHECK_THROWS_AS(make_node("Pad", attrs({{"pads", ints({0, 0, 0, 0})}}), 1, 1, 1), Error);  // opset 1 says paddings
  CHECK_THROWS_AS(make_node("Pad", attrs({{"paddings", ints({0, 0, 0, 0})}}), 1, 1, 2), Error);
  const Tensor c = run_op("Cast", attrs({{"to", string_attr("int64")}}), {make_tensor({2}, {1.5f, -2.5f})}, 5)[0];
  CHECK(values<int64_t>(c) == std::vector<int64_t>{1, -2});
  CHECK_THROWS_AS(make_node("Cast", attrs({{"to", string_attr("STRING")}}), 1, 1, 5), Error);
  CHECK_THROWS_AS(make_node("Cast", attrs({{"to", string_attr("REAL")}}), 1, 1, 1), Error);
  CHECK_THROWS_AS(make_node("Cast", attrs({{"to", int_attr(1)}}), 1, 1, 5), Error);  // a string before 6
  const std::vector<Tensor> d = run_op("Dropout", attrs({{"is_test", int_attr(0)}, {"ratio", float_attr(0.5f)}}), {x}, 6, 2);
  CHECK(values<float>(d[0]) == iota(6));
  CHECK(values<float>(d[1]) == std::vector<float>(6, 1.f));  // mask of the data's type before opset 10
  CHECK_THROWS_AS(make_node("Dropout", attrs({{"consumed_inputs", ints({0})}}), 1, 1, 6), Error);  // opset 1 only
  CHECK_THROWS_AS(make_node("Dropout", attrs({{"is_test", int_attr(1)}}), 1, 1, 7), Error);
  CHECK_THROWS_AS(make_node("Dropout", attrs({{"is_test", int_attr(2)}}), 1, 1, 6), Error);
}

TEST_CASE("NonZero and Compress: shapes from data known when planned, refused otherwise") {
  // The output's shape is known only with the data: unknown for data a plan does not have.
  const InferredNode unknown = infer_node("NonZero", {}, {make_tensor({2, 3})}, 13, 1, {false}, "");
  CHECK(unknown.out[0].shape == Shape{2, kUnknownDim});
  const Tensor y = run_op("NonZero", {}, {make_int_tensor({2, 2}, {0, 3, 4, 0})}, 13, 1, "ref", {true})[0];
  REQUIRE(y.shape() == Shape{2, 2});
  const int64_t want[] = {0, 1, 1, 0};  // rows of the nonzeros, then their columns
  for (int i = 0; i < 4; ++i) CHECK(y.data<int64_t>()[i] == want[i]);
  CHECK_THROWS_WITH_AS(run_op("NonZero", {}, {make_tensor({}, {1.f})}, 13, 1, "ref", {true}), doctest::Contains("scalar"), Error);

  Tensor keep(DType::boolean, {2});
  keep.data<bool>()[0] = false;
  keep.data<bool>()[1] = true;
  Attributes axis0;
  axis0.set("axis", int_attr(0));
  const Tensor c = run_op("Compress", axis0, {make_tensor({3, 2}, {1, 2, 3, 4, 5, 6}), keep}, 11, 1, "ref", {false, true})[0];
  REQUIRE(c.shape() == Shape{1, 2});
  CHECK(c.data<float>()[0] == 3.f);
  CHECK(c.data<float>()[1] == 4.f);
  struct Bad { const char* name; int opset; Attributes attrs; std::vector<Tensor> inputs; const char* message; };
  Attributes negative, axis5;
  negative.set("axis", int_attr(-1));
  axis5.set("axis", int_attr(5));
  Tensor keep4(DType::boolean, {4});
  const Bad cases[] = {
      {"float condition", 11, axis0, {make_tensor({3, 2}), make_tensor({2})}, "condition"},
      {"2-D condition", 11, axis0, {make_tensor({3, 2}), keep.reshaped({1, 2})}, "1-D"},
      {"condition longer than the axis", 11, axis0, {make_tensor({3, 2}), keep4}, "4 entries"},
      {"axis out of range", 11, axis5, {make_tensor({3, 2}), keep}, "axis"},
  };
  for (const Bad& b : cases) {
    CAPTURE(std::string(b.name));
    CAPTURE(b.opset);
    CHECK_THROWS_WITH_AS(run_op("Compress", b.attrs, b.inputs, b.opset, 1, "ref", {false, true}),
                         doctest::Contains(b.message), Error);
  }
  // A negative axis below opset 11 is read from the back, with a warning (README "Exporter leniencies").
  Attributes axis1;
  axis1.set("axis", int_attr(1));
  const std::vector<Tensor> x_keep = {make_tensor({3, 2}, {1, 2, 3, 4, 5, 6}), keep};
  const Tensor by_index = run_op("Compress", axis1, x_keep, 9, 1, "ref", {false, true})[0];
  const Tensor got = run_op("Compress", negative, x_keep, 9, 1, "ref", {false, true})[0];
  REQUIRE(got.shape() == by_index.shape());
  CHECK(std::memcmp(got.raw(), by_index.raw(), got.bytes()) == 0);
  const InferredNode n = infer_node("Compress", negative, x_keep, 9, 1, {false, true}, "");
  CHECK(n.node.def->hints.caution(*n.node.params, n.in).find("opset 11") != std::string::npos);
}

TEST_CASE("visit_numeric_dtype visits the numeric types and refuses bool, float16 and bfloat16") {
  for (DType t : {DType::f32, DType::f64, DType::i64, DType::i32, DType::i8, DType::u8}) {
    CAPTURE(dtype_name(t));
    CHECK(visit_numeric_dtype(t, [](auto zero) { return dtype_of<decltype(zero)>(); }) == t);
  }
  for (DType t : {DType::boolean, DType::f16, DType::bf16, DType::undefined}) {
    CAPTURE(dtype_name(t));
    CHECK_THROWS_AS(visit_numeric_dtype(t, [](auto) {}), Error);
  }
  CHECK_THROWS_WITH_AS(visit_numeric_dtype(DType::boolean, [](auto) {}), "element type bool is not supported", Error);
}
