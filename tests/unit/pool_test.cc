// Unit tests of the pooling family: AveragePool, MaxPool, GlobalAveragePool, GlobalMaxPool and the shared
// window geometry (ops/pool/pool_geometry.h).
//
// Where the expected values come from: the tables of AveragePool results were printed by a one-off numpy
// script that pools by brute force, straight from the ONNX text and independent of cnnx: for every output cell
// it enumerates all kernel taps, classifies each position as input cell, padding (inside [-pad_begin,
// in + pad_end)) or overhang, and averages the input cells over their count (count_include_pad = 0) or over the
// count of input + padding cells (count_include_pad = 1). Output sizes follow the spec formulas (ceil_mode:
// ceil, then a last window starting at >= in is dropped; SAME_*: ceil(in / stride), total pad clamped at 0,
// the odd cell at the end for SAME_UPPER and at the beginning for SAME_LOWER). Every case without dilations
// and whose pads PyTorch accepts was cross-checked against torch.nn.functional.avg_pool / max_pool (asymmetric
// pads via F.pad and a sum / count ratio). Inputs are x = 1, 2, 3, ... in row-major order, so most values can
// also be checked by hand (comments show a few).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "ops/builtin_ops.h"
#include "ops/pool/pool_geometry.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {


std::vector<float> floats_of(const Tensor& t) { return std::vector<float>(t.data<float>(), t.data<float>() + t.numel()); }
std::vector<int64_t> ints_of(const Tensor& t) { return std::vector<int64_t>(t.data<int64_t>(), t.data<int64_t>() + t.numel()); }

// x = 1, 2, 3, ... of `shape`.
Tensor counting(Shape shape) {
  Tensor t = make_tensor(shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] += 1.f;
  return t;
}

Attributes window_attrs(const std::vector<int64_t>& kernel, const std::vector<int64_t>& strides,
                        const std::vector<int64_t>& dilations, const std::vector<int64_t>& pads, const char* auto_pad,
                        int ceil_mode) {
  Attributes a;
  a.set("kernel_shape", ints(kernel));
  if (!strides.empty()) a.set("strides", ints(strides));
  if (!dilations.empty()) a.set("dilations", ints(dilations));
  if (!pads.empty()) a.set("pads", ints(pads));
  if (auto_pad) a.set("auto_pad", string_attr(auto_pad));
  if (ceil_mode) a.set("ceil_mode", int_attr(ceil_mode));
  return a;
}

struct AvgCase {
  const char* name;
  Shape x_shape;
  std::vector<int64_t> kernel, strides, dilations, pads;  // empty: attribute absent
  const char* auto_pad;                                   // nullptr: absent
  int ceil_mode;
  Shape y_shape;
  std::vector<double> y_exclude_pad, y_include_pad;  // count_include_pad 0, 1
};

// Each case twice: with count_include_pad 0 and 1.
void run_avg_cases(const std::vector<AvgCase>& cases, int opset) {
  for (const AvgCase& c : cases)
    for (int count_include_pad : {0, 1}) {
      std::string params = std::string(c.name) + ": x " + str(c.x_shape) + " kernel " + str(c.kernel) + " strides " +
                           str(c.strides) + " dilations " + str(c.dilations) + " pads " + str(c.pads) + " auto_pad " +
                           (c.auto_pad ? c.auto_pad : "-") + " ceil_mode " + std::to_string(c.ceil_mode) +
                           " count_include_pad " + std::to_string(count_include_pad) + " opset " + std::to_string(opset);
      CAPTURE(params);
      Attributes a = window_attrs(c.kernel, c.strides, c.dilations, c.pads, c.auto_pad, c.ceil_mode);
      a.set("count_include_pad", int_attr(count_include_pad));
      Tensor y = run_op("AveragePool", a, {counting(c.x_shape)}, opset)[0];
      CHECK(y.shape() == c.y_shape);
      if (y.shape() == c.y_shape)
        CHECK(within_tolerance("AveragePool", opset, y, count_include_pad ? c.y_include_pad : c.y_exclude_pad) == "");
    }
}

}  // namespace

TEST_CASE("AveragePool: ceil_mode, count_include_pad, windows in the padding, SAME_UPPER vs SAME_LOWER") {
  // Hand checks of a few rows: "ceil: last window overhangs pads (in 6)": x = 1..6, pads 1+1, kernel 3,
  // stride 2, ceil: out = ceil((8 - 3) / 2) + 1 = 4, windows start at -1, 1, 3, 5; the last covers x[5] = 6, one
  // padding cell and one overhang cell, so it is 6 / 1 (count_include_pad 0) or 6 / 2 = 3 (1, the overhang never
  // counts). "ceil: window starting in right pad dropped": x = 1..4, pads 0+1, kernel 2, stride 2:
  // ceil((5 - 2) / 2) + 1 = 3 windows, but the third would start at 4 = in (in the right padding): 2 windows.
  // "SAME_LOWER odd total pad 1": x = 1..5, kernel 2: total pad 1 goes first: (pad, 1) -> 1 / 1 or 1 / 2.
  run_avg_cases({
      {"ceil: last window overhangs pads (in 6)", {1, 1, 6}, {3}, {2}, {}, {1, 1}, nullptr, 1, {1, 1, 4},
       {1.5f, 3.f, 5.f, 6.f},
       {1.f, 3.f, 5.f, 3.f}},
      {"ceil: last window overhangs pads (in 4)", {1, 1, 4}, {3}, {2}, {}, {1, 1}, nullptr, 1, {1, 1, 3},
       {1.5f, 3.f, 4.f},
       {1.f, 3.f, 2.f}},
      {"ceil: window starting in right pad dropped", {1, 1, 4}, {2}, {2}, {}, {0, 1}, nullptr, 1, {1, 1, 2},
       {1.5f, 3.5f},
       {1.5f, 3.5f}},
      {"ceil: window starting at last input cell kept", {1, 1, 5}, {2}, {2}, {}, {0, 1}, nullptr, 1, {1, 1, 3},
       {1.5f, 3.5f, 5.f},
       {1.5f, 3.5f, 2.5f}},
      {"windows starting in left pad", {1, 1, 4}, {3}, {1}, {}, {2, 0}, nullptr, 0, {1, 1, 4},
       {1.f, 1.5f, 2.f, 3.f},
       {0.3333333432674408f, 1.f, 2.f, 3.f}},
      {"windows in both pads", {1, 1, 3}, {3}, {1}, {}, {2, 2}, nullptr, 0, {1, 1, 5},
       {1.f, 1.5f, 2.f, 2.5f, 3.f},
       {0.3333333432674408f, 1.f, 2.f, 1.6666666269302368f, 1.f}},
      {"SAME_UPPER odd total pad 1", {1, 1, 5}, {2}, {1}, {}, {}, "SAME_UPPER", 0, {1, 1, 5},
       {1.5f, 2.5f, 3.5f, 4.5f, 5.f},
       {1.5f, 2.5f, 3.5f, 4.5f, 2.5f}},
      {"SAME_UPPER stride 2 odd total pad 1", {1, 1, 6}, {3}, {2}, {}, {}, "SAME_UPPER", 0, {1, 1, 3},
       {2.f, 4.f, 5.5f},
       {2.f, 4.f, 3.6666667461395264f}},
      {"SAME_UPPER stride 3 odd total pad 3", {1, 1, 7}, {4}, {3}, {}, {}, "SAME_UPPER", 0, {1, 1, 3},
       {2.f, 4.5f, 6.5f},
       {1.5f, 4.5f, 3.25f}},
      {"SAME_UPPER stride 2 even total pad 2, ceil ignored", {1, 1, 5}, {3}, {2}, {}, {}, "SAME_UPPER", 1, {1, 1, 3},
       {1.5f, 3.f, 4.5f},
       {1.f, 3.f, 3.f}},
      {"SAME_LOWER odd total pad 1", {1, 1, 5}, {2}, {1}, {}, {}, "SAME_LOWER", 0, {1, 1, 5},
       {1.f, 1.5f, 2.5f, 3.5f, 4.5f},
       {0.5f, 1.5f, 2.5f, 3.5f, 4.5f}},
      {"SAME_LOWER stride 2 odd total pad 1", {1, 1, 6}, {3}, {2}, {}, {}, "SAME_LOWER", 0, {1, 1, 3},
       {1.5f, 3.f, 5.f},
       {1.f, 3.f, 5.f}},
      {"SAME_LOWER stride 3 odd total pad 3", {1, 1, 7}, {4}, {3}, {}, {}, "SAME_LOWER", 0, {1, 1, 3},
       {1.5f, 3.5f, 6.f},
       {0.75f, 3.5f, 4.5f}},
      {"SAME_LOWER stride 2 even total pad 2, ceil ignored", {1, 1, 5}, {3}, {2}, {}, {}, "SAME_LOWER", 1, {1, 1, 3},
       {1.5f, 3.f, 4.5f},
       {1.f, 3.f, 3.f}},
      {"SAME_UPPER negative total pad clamps to 0", {1, 1, 8}, {1}, {3}, {}, {}, "SAME_UPPER", 0, {1, 1, 3},
       {1.f, 4.f, 7.f},
       {1.f, 4.f, 7.f}},
      {"VALID, ceil ignored", {1, 1, 7}, {3}, {2}, {}, {}, "VALID", 1, {1, 1, 3},
       {2.f, 4.f, 6.f},
       {2.f, 4.f, 6.f}},
      {"2D ceil overhang both axes", {1, 1, 4, 5}, {3, 3}, {2, 2}, {}, {1, 1, 1, 1}, nullptr, 1, {1, 1, 3, 3},
       {4.f, 5.5f, 7.f, 11.5f, 13.f, 14.5f, 16.5f, 18.f, 19.5f},
       {1.7777777910232544f, 3.6666667461395264f, 3.1111111640930176f, 7.666666507720947f, 13.f, 9.666666984558105f, 5.5f, 9.f, 6.5f}},
      {"3D ceil overhang, pads at the end", {1, 1, 3, 3, 3}, {2, 2, 2}, {2, 2, 2}, {}, {0, 0, 0, 1, 1, 1}, nullptr, 1, {1, 1, 2, 2, 2},
       {7.5f, 9.f, 12.f, 13.5f, 21.f, 22.5f, 25.5f, 27.f},
       {7.5f, 4.5f, 6.f, 3.375f, 10.5f, 5.625f, 6.375f, 3.375f}},
  }, 19);
}

TEST_CASE("AveragePool-19 dilations (beyond onnx 1.12's node tests)") {
  // Hand check of "dilation 2, pads 2" with count_include_pad 1: x = 1..7, window 0 starts at -2 and taps -2, 0, 2
  // -> (0 + 1 + 3) / 3 = 4/3. "dilation 3, SAME_UPPER stride 1": extent 4, total pad 3 = 1 + 2; the last window
  // taps 3 and 6: x[3] = 4 and a padding cell -> 4 / 1 or 4 / 2.
  run_avg_cases({
      {"dilation 2, pads 2", {1, 1, 7}, {3}, {1}, {2}, {2, 2}, nullptr, 0, {1, 1, 7},
       {2.f, 3.f, 3.f, 4.f, 5.f, 5.f, 6.f},
       {1.3333333730697632f, 2.f, 3.f, 4.f, 5.f, 3.3333332538604736f, 4.f}},
      {"dilation 2, ceil overhang", {1, 1, 7}, {3}, {2}, {2}, {1, 1}, nullptr, 1, {1, 1, 3},
       {3.f, 4.f, 5.f},
       {2.f, 4.f, 3.3333332538604736f}},
      {"dilation 3, SAME_LOWER stride 2", {1, 1, 8}, {2}, {2}, {3}, {}, "SAME_LOWER", 0, {1, 1, 4},
       {3.f, 3.5f, 5.5f, 6.f},
       {1.5f, 3.5f, 5.5f, 3.f}},
      {"dilation 3, SAME_UPPER stride 1", {1, 1, 5}, {2}, {1}, {3}, {}, "SAME_UPPER", 0, {1, 1, 5},
       {3.f, 2.5f, 3.5f, 3.f, 4.f},
       {1.5f, 2.5f, 3.5f, 1.5f, 2.f}},
      {"2D dilation (2,1), asymmetric pads, ceil", {1, 1, 4, 5}, {2, 3}, {2, 2}, {2, 1}, {1, 0, 1, 2}, nullptr, 1, {1, 1, 3, 3},
       {7.f, 9.f, 10.f, 12.f, 14.f, 15.f, 17.f, 19.f, 20.f},
       {3.5f, 4.5f, 1.6666666269302368f, 12.f, 14.f, 5.f, 17.f, 19.f, 6.666666507720947f}},
  }, 19);
}

TEST_CASE("AveragePool before opset 19 gives the same numbers without dilations") {
  // test_averagepool_2d_ceil's case, at opsets 10, 11 and 19: x = 1..16 (4x4), kernel 3, stride 2, ceil:
  // windows [0,3) and [2,4) (overhang) per axis: means 6, 7.5, 12, 13.5.
  for (int opset : {10, 11, 19}) {
    CAPTURE(opset);
    Tensor y = run_op("AveragePool", window_attrs({3, 3}, {2, 2}, {}, {}, nullptr, 1), {counting({1, 1, 4, 4})}, opset)[0];
    CHECK(y.shape() == Shape{1, 1, 2, 2});
    CHECK(within_tolerance("AveragePool", opset, y, {6, 7.5, 12, 13.5}) == "");
  }
  // opset 1: no count_include_pad, no ceil_mode: pads are excluded from the divisor.
  Tensor y1 = run_op("AveragePool", window_attrs({2}, {}, {}, {1, 0}, nullptr, 0), {counting({1, 1, 3})}, 1)[0];
  CHECK(within_tolerance("AveragePool", 1, y1, {1, 1.5, 2.5}) == "");
}

TEST_CASE("AveragePool sums in double and rounds once") {
  // float32 accumulation would give ((1e8 + 1) - 1e8 + 1) / 4 = 0.25 (1e8 + 1 rounds to 1e8); the exact mean is 0.5.
  Tensor x = make_tensor({1, 1, 4}, {1e8f, 1.f, -1e8f, 1.f});
  CHECK(run_op("AveragePool", window_attrs({4}, {}, {}, {}, nullptr, 0), {x})[0].data<float>()[0] == 0.5f);
  CHECK(run_op("GlobalAveragePool", {}, {x})[0].data<float>()[0] == 0.5f);
}

TEST_CASE("MaxPool: padding never wins, indices over the whole tensor in both storage orders") {
  // N = 2, C = 2, 4x5 planes; plane 3 (n 1, c 1) is 1..20, plane 2 all zeros (ties: first cell in row-major window
  // order), plane 1 all negative (padding must not be taken as 0).
  const std::vector<float> planes = {
      3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4,
      -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -2, -1, -2, -1, -2, -5, -5, -5, -5, -5,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
  const Tensor x = make_tensor({2, 2, 4, 5}, planes);
  struct Case {
    const char* name;
    std::vector<int64_t> kernel, strides, dilations, pads;
    int ceil_mode, storage_order;
    Shape y_shape;
    std::vector<float> y;
    std::vector<int64_t> indices;
  };
  // Indices are (n * C + c) * 20 + spatial index; storage_order 1 numbers the spatial cells column-major
  // (h + w * 4), as test_maxpool_with_argmax_2d_precomputed_strides does.
  const std::vector<float> y_ceil = {3, 4, 5, 9, 9, 9, 3, 3, 8, -1, -2, -4, -2, -1, -1, -5, -5, -5,
                                     0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 5, 11, 13, 15, 16, 18, 20};
  const std::vector<float> y_dil = {9, 6, 9, 9, 9, 8, -6, -8, -1, -1, -5, -5, 0, 0, 0, 0, 0, 0, 8, 10, 13, 15, 18, 20};
  const Case cases[] = {
      {"kernel 2x2, stride 2, pads 1, ceil (torch-checked, indices too)", {2, 2}, {2, 2}, {}, {1, 1, 1, 1}, 1, 0,
       {2, 2, 3, 3}, y_ceil,
       {0, 2, 4, 5, 12, 14, 15, 17, 18, 20, 21, 23, 30, 31, 33, 35, 36, 38,
        40, 41, 43, 45, 46, 48, 55, 56, 58, 60, 62, 64, 70, 72, 74, 75, 77, 79}},
      {"same, storage_order 1", {2, 2}, {2, 2}, {}, {1, 1, 1, 1}, 1, 1, {2, 2, 3, 3}, y_ceil,
       {0, 8, 16, 1, 10, 18, 3, 11, 15, 20, 24, 32, 22, 26, 34, 23, 27, 35,
        40, 44, 52, 41, 45, 53, 43, 47, 55, 60, 68, 76, 62, 70, 78, 63, 71, 79}},
      {"kernel 2x3, strides (1,2), dilations (2,1), asymmetric pads", {2, 3}, {1, 2}, {2, 1}, {1, 0, 0, 1}, 0, 0,
       {2, 2, 3, 2}, y_dil, {5, 7, 12, 12, 5, 18, 25, 27, 20, 33, 35, 37, 45, 47, 40, 42, 45, 47, 67, 69, 72, 74, 77, 79}},
      {"same, storage_order 1", {2, 3}, {1, 2}, {2, 1}, {1, 0, 0, 1}, 0, 1, {2, 2, 3, 2}, y_dil,
       {1, 9, 10, 10, 1, 15, 21, 29, 20, 34, 23, 31, 41, 49, 40, 48, 41, 49, 69, 77, 70, 78, 71, 79}},
  };
  for (const Case& c : cases) {
    std::string params = std::string(c.name) + ": kernel " + str(c.kernel) + " strides " + str(c.strides) +
                         " dilations " + str(c.dilations) + " pads " + str(c.pads) + " ceil_mode " +
                         std::to_string(c.ceil_mode) + " storage_order " + std::to_string(c.storage_order);
    CAPTURE(params);
    Attributes a = window_attrs(c.kernel, c.strides, c.dilations, c.pads, nullptr, c.ceil_mode);
    a.set("storage_order", int_attr(c.storage_order));
    std::vector<Tensor> out = run_op("MaxPool", a, {x}, 12, 2);
    REQUIRE(out[0].shape() == c.y_shape);
    REQUIRE(out[1].shape() == c.y_shape);
    CHECK(out[1].dtype() == DType::i64);
    CHECK(floats_of(out[0]) == c.y);
    CHECK(ints_of(out[1]) == c.indices);
    // Without the Indices output the values are the same.
    CHECK(floats_of(run_op("MaxPool", a, {x}, 12, 1)[0]) == c.y);
  }
}

TEST_CASE("MaxPool 1D with dilation and ceil_mode, and 3D") {
  // x = 7, 6, ..., 1; kernel 3, dilation 2, stride 2, pads 1, ceil (torch-checked): windows tap {-1, 1, 3},
  // {1, 3, 5}, {3, 5, 7}: maxima x[1] = 6, x[1] = 6, x[3] = 4.
  Tensor x = make_tensor({1, 1, 7}, {7, 6, 5, 4, 3, 2, 1});
  std::vector<Tensor> out = run_op("MaxPool", window_attrs({3}, {2}, {2}, {1, 1}, nullptr, 1), {x}, 12, 2);
  CHECK(floats_of(out[0]) == std::vector<float>{6, 6, 4});
  CHECK(ints_of(out[1]) == std::vector<int64_t>{1, 1, 3});
  // 3D, x = 1..27 (3x3x3), kernel 2, stride 2, ceil: the max of each window is its last input cell.
  std::vector<Tensor> out3 = run_op("MaxPool", window_attrs({2, 2, 2}, {2, 2, 2}, {}, {}, nullptr, 1), {counting({1, 1, 3, 3, 3})}, 12, 2);
  CHECK(out3[0].shape() == Shape{1, 1, 2, 2, 2});
  CHECK(floats_of(out3[0]) == std::vector<float>{14, 15, 17, 18, 23, 24, 26, 27});
  CHECK(ints_of(out3[1]) == std::vector<int64_t>{13, 14, 16, 17, 22, 23, 25, 26});
}

TEST_CASE("MaxPool and GlobalMaxPool: NaN wins, the first NaN's index is reported") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor x = make_tensor({1, 1, 6}, {1, nan, 5, nan, 2, 3});
  std::vector<Tensor> out = run_op("MaxPool", window_attrs({3}, {3}, {}, {}, nullptr, 0), {x}, 12, 2);
  CHECK(std::isnan(out[0].data<float>()[0]));
  CHECK(std::isnan(out[0].data<float>()[1]));
  CHECK(ints_of(out[1]) == std::vector<int64_t>{1, 3});
  CHECK(std::isnan(run_op("GlobalMaxPool", {}, {make_tensor({1, 1, 3}, {1, nan, 2})})[0].data<float>()[0]));
}

TEST_CASE("GlobalAveragePool and GlobalMaxPool reduce every spatial dim") {
  struct Case { Shape x_shape; Shape y_shape; std::vector<double> mean; std::vector<float> max; };
  // x = 1..n. Plane p of size S holds p*S + 1 .. p*S + S: mean p*S + (S + 1) / 2, max p*S + S.
  const Case cases[] = {
      {{1, 2, 3}, {1, 2, 1}, {2, 5}, {3, 6}},
      {{2, 1, 2, 3}, {2, 1, 1, 1}, {3.5f, 9.5f}, {6, 12}},
      {{1, 2, 2, 1, 2}, {1, 2, 1, 1, 1}, {2.5f, 6.5f}, {4, 8}},
  };
  for (const Case& c : cases) {
    CAPTURE(str(c.x_shape));
    Tensor mean = run_op("GlobalAveragePool", {}, {counting(c.x_shape)})[0];
    Tensor max = run_op("GlobalMaxPool", {}, {counting(c.x_shape)})[0];
    CHECK(mean.shape() == c.y_shape);
    CHECK(max.shape() == c.y_shape);
    CHECK(within_tolerance("GlobalAveragePool", 1, mean, c.mean) == "");
    CHECK(floats_of(max) == c.max);
  }
  CHECK_THROWS_AS(run_op("GlobalAveragePool", {}, {make_tensor({2, 3})}), Error);       // no spatial dim
  CHECK_THROWS_AS(run_op("GlobalMaxPool", {}, {make_tensor({1, 2, 0, 3})}), Error);     // empty spatial dim
  Attributes a;
  a.set("kernel_shape", ints({2}));
  CHECK_THROWS_AS(run_op("GlobalAveragePool", a, {make_tensor({1, 1, 3})}), Error);    // no attributes
}

TEST_CASE("resolve_pool_geometry: output sizes and explicit pads") {
  struct Case {
    const char* name;
    int64_t in, kernel, stride, dilation, pad_begin, pad_end;
    PoolAutoPad auto_pad;
    bool ceil_mode;
    int64_t out, resolved_begin, resolved_end;
    bool overhangs;
  };
  const PoolAutoPad N = PoolAutoPad::notset, U = PoolAutoPad::same_upper, L = PoolAutoPad::same_lower,
                    V = PoolAutoPad::valid;
  const Case cases[] = {
      // floor((in + pads - extent) / stride) + 1
      {"floor", 5, 2, 2, 1, 0, 0, N, false, 2, 0, 0, false},
      {"ceil adds the partial window", 5, 2, 2, 1, 0, 0, N, true, 3, 0, 0, true},
      {"ceil, window starting in right pad dropped", 4, 2, 2, 1, 0, 1, N, true, 2, 0, 1, false},
      {"ceil, window starting at last cell kept", 5, 2, 2, 1, 0, 1, N, true, 3, 0, 1, false},
      {"ceil, exact fit adds nothing", 7, 3, 2, 1, 0, 0, N, true, 3, 0, 0, false},
      {"ceil, kernel larger than padded input gives one window", 2, 3, 3, 1, 0, 0, N, true, 1, 0, 0, true},
      {"dilation widens the window", 7, 3, 1, 2, 0, 0, N, false, 3, 0, 0, false},
      {"dilation beyond a short input, pads reach it", 2, 2, 1, 4, 3, 0, N, false, 1, 3, 0, false},
      {"VALID ignores ceil_mode", 5, 2, 2, 1, 0, 0, V, true, 2, 0, 0, false},
      {"SAME_UPPER odd total pad", 6, 3, 2, 1, 0, 0, U, false, 3, 0, 1, false},
      {"SAME_LOWER odd total pad", 6, 3, 2, 1, 0, 0, L, false, 3, 1, 0, false},
      {"SAME_UPPER with dilation", 5, 2, 1, 3, 0, 0, U, false, 5, 1, 2, false},
      {"SAME clamps a negative total pad", 8, 1, 3, 1, 0, 0, U, false, 3, 0, 0, false},
      {"SAME ignores ceil_mode", 5, 3, 2, 1, 0, 0, L, true, 3, 1, 1, false},
  };
  for (const Case& c : cases) {
    std::string params = std::string(c.name) + ": in " + std::to_string(c.in) + " kernel " + std::to_string(c.kernel) +
                         " stride " + std::to_string(c.stride) + " dilation " + std::to_string(c.dilation) + " pads " +
                         std::to_string(c.pad_begin) + "," + std::to_string(c.pad_end) + " ceil " +
                         std::to_string(c.ceil_mode);
    CAPTURE(params);
    PoolWindow w;
    w.kernel = {c.kernel};
    w.strides = {c.stride};
    w.dilations = {c.dilation};
    w.pads = {c.pad_begin, c.pad_end};
    w.auto_pad = c.auto_pad;
    w.ceil_mode = c.ceil_mode;
    PoolGeometry g = resolve_pool_geometry(w, {c.in});
    REQUIRE(g.axes.size() == 1);
    CHECK(g.axes[0].out == c.out);
    CHECK(g.axes[0].pad_begin == c.resolved_begin);
    CHECK(g.axes[0].pad_end == c.resolved_end);
    CHECK(g.axes[0].last_window_overhangs() == c.overhangs);
    // Unknown input size: unknown output, whatever the rest.
    CHECK(resolve_pool_geometry(w, {kUnknownDim}).axes[0].out == kUnknownDim);
  }
}

TEST_CASE("PoolGeometry divisors and tap ranges of an overhanging window") {
  // in 6, kernel 3, stride 2, pads 1+1, ceil: windows start at -1, 1, 3, 5.
  PoolWindow w;
  w.kernel = {3};
  w.strides = {2};
  w.dilations = {1};
  w.pads = {1, 1};
  w.ceil_mode = true;
  const PoolAxis a = resolve_pool_geometry(w, {6}).axes[0];
  REQUIRE(a.out == 4);
  const int64_t begin[] = {1, 0, 0, 0}, end[] = {3, 3, 3, 1}, padded[] = {3, 3, 3, 2};
  for (int64_t o = 0; o < 4; ++o) {
    CAPTURE(o);
    CHECK(a.start(o) == 2 * o - 1);
    CHECK(a.tap_begin(o) == begin[o]);
    CHECK(a.tap_end(o) == end[o]);
    CHECK(a.taps_in_padded(o) == padded[o]);
  }
  PoolGeometry g;
  g.axes = {a, a};
  CHECK(g.divisor({3, 0}, false) == 1 * 2);
  CHECK(g.divisor({3, 3}, true) == 2 * 2);
  CHECK(g.divisor({1, 2}, true) == 9);
}

TEST_CASE("pooling infers shapes with unknown dims") {
  Attributes a = window_attrs({3, 3}, {2, 2}, {}, {1, 1, 1, 1}, nullptr, 1);
  for (std::string op : {"AveragePool", "MaxPool"}) {
    CAPTURE(op);
    Node n = make_node(op, a, 1, 1, 19);
    std::vector<ValueInfo> out = n.def->infer(*n.params, {ValueInfo::of(DType::f32, {kUnknownDim, 3, kUnknownDim, 8})});
    CHECK(out[0].shape == Shape{kUnknownDim, 3, kUnknownDim, 5});  // W: ceil((8 + 2 - 3) / 2) + 1
  }
  Node g = make_node("GlobalAveragePool", {}, 1, 1, 19);
  CHECK(g.def->infer(*g.params, {ValueInfo::of(DType::f32, {2, kUnknownDim, kUnknownDim, 7})})[0].shape ==
        Shape{2, kUnknownDim, 1, 1});
}

TEST_CASE("pooling refuses bad attributes, shapes and attributes of newer opsets") {
  struct Case {
    const char* name;
    const char* op;
    int opset;
    Attributes attrs;
    Shape x_shape;
    size_t outputs;
  };
  auto with = [](Attributes a, const char* name, Attribute v) { a.set(name, std::move(v)); return a; };
  const Attributes k2 = window_attrs({2, 2}, {}, {}, {}, nullptr, 0);
  const Shape x = {1, 1, 4, 4};
  const Case cases[] = {
      {"kernel_shape missing", "AveragePool", 19, {}, x, 1},
      {"kernel_shape empty", "AveragePool", 19, with({}, "kernel_shape", ints({})), x, 1},
      {"kernel_shape zero", "MaxPool", 12, window_attrs({0, 2}, {}, {}, {}, nullptr, 0), x, 1},
      {"kernel_shape negative", "AveragePool", 19, window_attrs({2, -1}, {}, {}, {}, nullptr, 0), x, 1},
      {"stride zero", "AveragePool", 19, with(k2, "strides", ints({1, 0})), x, 1},
      {"strides length", "MaxPool", 12, with(k2, "strides", ints({1})), x, 1},
      {"dilation zero", "MaxPool", 12, with(k2, "dilations", ints({0, 1})), x, 1},
      {"pads negative", "AveragePool", 19, with(k2, "pads", ints({0, -1, 0, 0})), x, 1},
      {"pads length", "MaxPool", 12, with(k2, "pads", ints({1, 1})), x, 1},
      {"pads with auto_pad", "AveragePool", 19, with(with(k2, "pads", ints({1, 1, 1, 1})), "auto_pad", string_attr("SAME_UPPER")), x, 1},
      {"auto_pad unknown", "AveragePool", 19, with(k2, "auto_pad", string_attr("SAME")), x, 1},
      {"ceil_mode 2", "AveragePool", 19, with(k2, "ceil_mode", int_attr(2)), x, 1},
      {"count_include_pad -1", "AveragePool", 19, with(k2, "count_include_pad", int_attr(-1)), x, 1},
      {"storage_order 2", "MaxPool", 12, with(k2, "storage_order", int_attr(2)), x, 1},
      {"unknown attribute", "MaxPool", 12, with(k2, "count_include_pad", int_attr(1)), x, 1},
      {"kernel larger than padded input", "AveragePool", 19, window_attrs({6, 2}, {}, {}, {1, 0, 0, 0}, nullptr, 0), x, 1},
      {"kernel larger than input (VALID)", "MaxPool", 12, with(window_attrs({5, 2}, {}, {}, {}, nullptr, 0), "auto_pad", string_attr("VALID")), x, 1},
      {"dilated window larger than input", "MaxPool", 12, window_attrs({3, 2}, {}, {2, 1}, {}, nullptr, 0), x, 1},
      {"window of left padding only", "AveragePool", 19, window_attrs({2, 2}, {}, {}, {2, 0, 0, 0}, nullptr, 0), x, 1},
      {"window of right padding only", "MaxPool", 12, window_attrs({2, 2}, {}, {}, {0, 0, 2, 0}, nullptr, 0), x, 1},
      {"dilation steps over a short input", "MaxPool", 12, window_attrs({2, 1}, {}, {3, 1}, {2, 0, 1, 0}, nullptr, 0), {1, 1, 2, 4}, 1},
      {"input rank too small", "AveragePool", 19, k2, {1, 4, 4}, 1},
      {"input rank too large", "MaxPool", 12, k2, {1, 1, 4, 4, 4}, 1},
      {"int64 input", "AveragePool", 19, k2, {}, 1},
      {"dilations before AveragePool-19", "AveragePool", 18, with(k2, "dilations", ints({1, 1})), x, 1},
      {"ceil_mode before AveragePool-10", "AveragePool", 9, with(k2, "ceil_mode", int_attr(0)), x, 1},
      {"count_include_pad before AveragePool-7", "AveragePool", 6, with(k2, "count_include_pad", int_attr(0)), x, 1},
      {"dilations before MaxPool-10", "MaxPool", 9, with(k2, "dilations", ints({1, 1})), x, 1},
      {"ceil_mode before MaxPool-10", "MaxPool", 8, with(k2, "ceil_mode", int_attr(1)), x, 1},
      {"storage_order before MaxPool-8", "MaxPool", 7, with(k2, "storage_order", int_attr(0)), x, 1},
      {"Indices before MaxPool-8", "MaxPool", 7, k2, x, 2},
      {"AveragePool has one output", "AveragePool", 19, k2, x, 2},
  };
  for (const Case& c : cases) {
    CAPTURE(std::string(c.name));
    CAPTURE(std::string(c.op));
    CAPTURE(c.opset);
    Tensor input = c.x_shape.empty() ? make_int_tensor({1, 1, 2, 2}, {1, 2, 3, 4}) : make_tensor(c.x_shape);
    CHECK_THROWS_AS(run_op(c.op, c.attrs, {input}, c.opset, c.outputs, "ref", {false}), Error);
  }
  // The message names what is wrong.
  try {
    run_op("AveragePool", with(k2, "dilations", ints({2, 2})), {make_tensor(x)}, 11);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("'dilations' needs opset 19") != std::string::npos);
  }
  try {
    run_op("MaxPool", with(k2, "strides", ints({1, 0})), {make_tensor(x)}, 12);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("'strides'") != std::string::npos);
  }
}
