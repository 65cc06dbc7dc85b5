// Unit tests of Resize and Upsample (ops/resize/resize.h) for what the onnx 1.12 node tests do not reach:
// opset 18/19 attributes (antialias, axes, keep_aspect_ratio_policy, half_pixel_symmetric), weights that must
// sum to 1, selection over inf, the legacy forms and refused nodes. kernel_cases_resize_test.cc runs oneDNN against the
// reference; tests/resize/resize_vs_torch.py compares real exports with PyTorch.
//
// Expected values, worked by hand from the formulas in ops/resize/resize_geometry.h:
//   antialias linear 4 -> 2 (scale 0.5, half_pixel): x = 2o + 0.5, the filter stretched to 4 taps at distances
//   0.75, 0.25, 0.25, 0.75 cells * 0.5, weights 0.25 0.75 0.75 0.25 / 2 on cells 2o-1 .. 2o+2 (edge-clamped):
//   [1,2,3,4] -> 0.125*1 + 0.375*1 + 0.375*2 + 0.125*3 = 1.625 and 0.125*2 + 0.375*3 + 0.375*4 + 0.125*4 = 3.375.
//   half_pixel_symmetric [[1,2],[3,4]] scales 2.3 x 2.94 -> 4 x 5: offsets 1 - 4/4.6 and 1 - 5/5.88, e.g. row 1
//   x = 0.1304348 + 1.5/2.3 - 0.5 = 0.2826087 -> 1 + 2 * 0.2826087 = 1.5652174.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "ops/builtin_ops.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

Tensor scales_of(std::vector<float> v) { return make_tensor({int64_t(v.size())}, v); }
Tensor sizes_of(std::vector<int64_t> v) { return make_int_tensor({int64_t(v.size())}, v); }

// Resize with scales (roi omitted), the arguments constant.
Tensor resize_scales(const Attributes& a, const Tensor& x, std::vector<float> scales, int opset = 19) {
  return run_op("Resize", a, {x, Tensor(), scales_of(scales)}, opset, 1, "ref", {false, false, true})[0];
}
Tensor resize_sizes(const Attributes& a, const Tensor& x, std::vector<int64_t> sizes, int opset = 19) {
  return run_op("Resize", a, {x, Tensor(), Tensor(), sizes_of(sizes)}, opset, 1, "ref", {false, false, false, true})[0];
}

Attributes attrs(std::initializer_list<std::pair<const char*, Attribute>> list) {
  Attributes a;
  for (const auto& [name, value] : list) a.set(name, value);
  return a;
}

}  // namespace

TEST_CASE("Resize-18 antialias widens the linear filter when shrinking") {
  const Tensor y = resize_sizes(attrs({{"mode", string_attr("linear")}, {"antialias", int_attr(1)}}),
                                make_tensor({1, 1, 4}, {1, 2, 3, 4}), {1, 1, 2}, 18);
  CHECK(y.shape() == Shape{1, 1, 2});
  CHECK(within_tolerance("Resize", 18, y, std::vector<double>{1.625, 3.375}) == "");
}

TEST_CASE("Resize-19 half_pixel_symmetric centres the output on the input") {
  const Tensor y = resize_scales(attrs({{"mode", string_attr("linear")},
                                        {"coordinate_transformation_mode", string_attr("half_pixel_symmetric")}}),
                                 make_tensor({1, 1, 2, 2}, {1, 2, 3, 4}), {1, 1, 2.3f, 2.94f});
  CHECK(y.shape() == Shape{1, 1, 4, 5});
  const std::vector<double> want = {1,          1.15986395, 1.5,        1.84013605, 2,
                                    1.56521738, 1.72508133, 2.06521738, 2.40535343, 2.56521738,
                                    2.43478262, 2.59464657, 2.93478262, 3.27491867, 3.43478262,
                                    3,          3.15986395, 3.5,        3.84013605, 4};
  CHECK(within_tolerance("Resize", 19, y, want) == "");
}

TEST_CASE("Resize-18 axes and keep_aspect_ratio_policy") {
  const Tensor x = make_tensor({1, 1, 2, 2}, {1, 2, 3, 4});
  struct Case {
    const char* policy;
    Shape y;
  };
  // sizes 7 x 8 on 2 x 2: ratios 3.5 and 4; not_larger keeps 3.5 (7 x 7), not_smaller 4 (8 x 8).
  for (const Case& c : {Case{"stretch", {1, 1, 7, 8}}, Case{"not_larger", {1, 1, 7, 7}}, Case{"not_smaller", {1, 1, 8, 8}}}) {
    CAPTURE(c.policy);
    const Tensor y = resize_sizes(attrs({{"axes", ints({2, 3})}, {"keep_aspect_ratio_policy", string_attr(c.policy)}}),
                                  x, {7, 8}, 18);
    CHECK(y.shape() == c.y);
  }
  // scales for the last axis only: H keeps its size.
  const Tensor y = resize_scales(attrs({{"axes", ints({-1})}}), x, {2}, 18);
  CHECK(y.shape() == Shape{1, 1, 2, 4});
  CHECK(within_tolerance("Resize", 18, y, std::vector<double>{1, 1, 2, 2, 3, 3, 4, 4}) == "");
}

TEST_CASE("Resize weights sum to 1: a constant input stays constant in every mode") {
  const Tensor x = make_tensor({1, 2, 5, 6}, std::vector<float>(60, 2.5f));
  const std::vector<Attributes> settings = {
      attrs({{"mode", string_attr("linear")}}),
      attrs({{"mode", string_attr("cubic")}}),
      attrs({{"mode", string_attr("cubic")}, {"exclude_outside", int_attr(1)}, {"cubic_coeff_a", float_attr(-0.5f)}}),
      attrs({{"mode", string_attr("cubic")}, {"antialias", int_attr(1)}}),
      attrs({{"mode", string_attr("linear")}, {"antialias", int_attr(1)}, {"exclude_outside", int_attr(1)}}),
      attrs({{"mode", string_attr("cubic")}, {"coordinate_transformation_mode", string_attr("align_corners")}}),
  };
  for (const std::vector<float>& scales : {std::vector<float>{1, 1, 0.4f, 0.3f}, std::vector<float>{1, 1, 1.7f, 2.5f}})
    for (const Attributes& a : settings) {
      const Tensor y = resize_scales(a, x, scales, 18);
      CAPTURE(y.shape());
      CHECK(within_tolerance("Resize", 18, y, std::vector<double>(size_t(y.numel()), 2.5)) == "");
    }
}

TEST_CASE("Resize nearest selects: inf and NaN cells are copied, never weighted") {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const Tensor x = make_tensor({1, 1, 1, 3}, {kInf, 1, std::numeric_limits<float>::quiet_NaN()});
  const Tensor y = resize_scales({}, x, {1, 1, 1, 2});
  CHECK(y.shape() == Shape{1, 1, 1, 6});
  const float* v = y.data<float>();
  CHECK(v[0] == kInf);
  CHECK(v[1] == kInf);
  CHECK(v[2] == 1);
  CHECK(v[3] == 1);
  CHECK(std::isnan(v[4]));
  // Linear at integer coordinates (scale 1) is the identity too.
  const Tensor same = resize_scales(attrs({{"mode", string_attr("linear")}}), x, {1, 1, 1, 1});
  CHECK(same.data<float>()[0] == kInf);
  CHECK(same.data<float>()[1] == 1);
}

TEST_CASE("tf_crop_and_resize: a box outside the input gives extrapolation_value") {
  const Tensor x = make_tensor({1, 1, 2, 2}, {1, 2, 3, 4});
  const Tensor roi = make_tensor({8}, {0, 0, 1.5f, 1.5f, 1, 1, 2, 2});
  const Tensor y = run_op("Resize", attrs({{"coordinate_transformation_mode", string_attr("tf_crop_and_resize")},
                                           {"mode", string_attr("linear")}, {"extrapolation_value", float_attr(-7)}}),
                          {x, roi, Tensor(), sizes_of({1, 1, 2, 2})}, 13, 1, "ref", {false, true, false, true})[0];
  CHECK(within_tolerance("Resize", 13, y, std::vector<double>{-7, -7, -7, -7}) == "");
}

TEST_CASE("Upsample: attribute scales (opset 7), height_scale / width_scale (opset 1), input scales (opset 9)") {
  const Tensor x = make_tensor({1, 1, 2, 2}, {1, 2, 3, 4});
  const std::vector<double> want = {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4};
  Tensor y = run_op("Upsample", attrs({{"scales", floats({1, 1, 2, 3})}}), {x}, 7)[0];
  CHECK(y.shape() == Shape{1, 1, 4, 6});
  CHECK(within_tolerance("Upsample", 7, y, want) == "");
  y = run_op("Upsample", attrs({{"height_scale", float_attr(2)}, {"width_scale", float_attr(3)}}), {x}, 1)[0];
  CHECK(within_tolerance("Upsample", 1, y, want) == "");
  y = run_op("Upsample", {}, {x, scales_of({1, 1, 2, 3})}, 9, 1, "ref", {false, true})[0];
  CHECK(within_tolerance("Upsample", 9, y, want) == "");
}

TEST_CASE("Resize and Upsample refuse bad nodes by name") {
  const Tensor x = make_tensor({1, 1, 2, 2}, {1, 2, 3, 4});
  CHECK_THROWS_WITH(resize_scales(attrs({{"coordinate_transformation_mode", string_attr("half_pixel_symmetric")}}), x,
                                  {1, 1, 2, 2}, 18),
                    doctest::Contains("'half_pixel_symmetric'; opset 18 has"));
  CHECK_THROWS_WITH(resize_scales(attrs({{"antialias", int_attr(1)}}), x, {1, 1, 0.5f, 0.5f}, 18),
                    doctest::Contains("antialias"));
  CHECK_THROWS_WITH(resize_scales(attrs({{"axes", ints({2})}}), x, {2, 2}, 18),
                    doctest::Contains("scales has 2 values; expected 1 (one per entry of 'axes')"));
  CHECK_THROWS_WITH(resize_scales(attrs({{"antialias", int_attr(1)}}), x, {1, 1, 2, 2}, 13),
                    doctest::Contains("unknown attribute 'antialias'"));
  CHECK_THROWS_WITH(run_op("Upsample", {}, {x, scales_of({1, 1, 0.5f, 2})}, 9, 1, "ref", {false, true}),
                    doctest::Contains("must be >= 1 for Upsample"));
}
