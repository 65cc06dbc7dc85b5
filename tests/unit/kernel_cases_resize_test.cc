// Kernel cases of the resize family (ops/resize): Resize, Upsample. Each case runs every kernel of its op against
// the op's reference kernel; tests/unit/kernel_cases.h says how, and how a table is registered.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

// ---- Resize and Upsample (ops/resize/resize_dnnl.cc says where oneDNN runs) ----

// Resize-13 with scales (roi omitted).
KernelCase resize_scales(const std::string& what, Shape x, std::vector<float> scales, int opset = 13) {
  return KernelCase("Resize", opset, what).in(random_in(std::move(x))).in(omitted()).in(floats_in(std::move(scales)));
}
// Resize-13 with sizes (roi and scales omitted).
KernelCase resize_sizes(const std::string& what, Shape x, std::vector<int64_t> sizes, int opset = 13) {
  return KernelCase("Resize", opset, what).in(random_in(std::move(x))).in(omitted()).in(omitted())
      .in(ints_in(std::move(sizes)));
}

std::vector<KernelCase> resize_cases() {
  const Attribute linear = string_attr("linear"), cubic = string_attr("cubic");
  std::vector<KernelCase> cases;
  // nearest: oneDNN rounds the half-pixel coordinate half up; the kernel compares every cell's choice.
  cases.push_back(resize_scales("nearest x2, round_prefer_floor never ties", {1, 3, 5, 6}, {1, 1, 2, 2}));
  cases.push_back(resize_scales("nearest x2 round_prefer_ceil", {2, 3, 5, 6}, {1, 1, 2, 2})
                      .attr("nearest_mode", string_attr("round_prefer_ceil")));
  cases.push_back(resize_scales("nearest /2: round_prefer_floor ties at every cell", {1, 2, 8, 8}, {1, 1, 0.5f, 0.5f})
                      .declines("dnnl", "rounds the half-pixel coordinate half up"));
  cases.push_back(resize_scales("nearest /2 round_prefer_ceil", {1, 2, 8, 8}, {1, 1, 0.5f, 0.5f})
                      .attr("nearest_mode", string_attr("round_prefer_ceil")));
  cases.push_back(resize_scales("nearest floor", {1, 2, 4, 4}, {1, 1, 2, 2}).attr("nearest_mode", string_attr("floor"))
                      .declines("dnnl", "nearest_mode pick cell"));
  cases.push_back(resize_scales("nearest ceil", {1, 2, 4, 4}, {1, 1, 3, 3}).attr("nearest_mode", string_attr("ceil"))
                      .declines("dnnl", "nearest_mode pick cell"));
  cases.push_back(resize_scales("nearest asymmetric floor (PyTorch) x2", {1, 2, 4, 4}, {1, 1, 2, 2})
                      .attr("coordinate_transformation_mode", string_attr("asymmetric"))
                      .attr("nearest_mode", string_attr("floor")));
  cases.push_back(resize_sizes("nearest asymmetric floor 3 -> 5", {1, 2, 3, 3}, {1, 2, 5, 3})
                      .attr("coordinate_transformation_mode", string_attr("asymmetric"))
                      .attr("nearest_mode", string_attr("floor")).declines("dnnl", "nearest_mode pick cell 1"));
  cases.push_back(KernelCase("Resize", 13, "nearest tf_crop_and_resize").attr("coordinate_transformation_mode",
                                                                              string_attr("tf_crop_and_resize"))
                      .in(random_in({1, 2, 4, 4})).in(floats_in({0, 0, 0, 0, 1, 1, 1, 1})).in(omitted())
                      .in(ints_in({1, 2, 4, 4})).declines("dnnl", "asks for tf_crop_and_resize"));
  for (int64_t in : {3, 5, 7, 13}) {
    for (int64_t out : {2, 4, 9, 11, 23, 31})
      cases.push_back(resize_sizes("nearest round_prefer_ceil " + std::to_string(in) + " -> " + std::to_string(out),
                                   {1, 2, in}, {1, 2, out})
                          .attr("nearest_mode", string_attr("round_prefer_ceil")));
  }
  // linear, half_pixel
  cases.push_back(resize_scales("linear x2", {2, 3, 5, 6}, {1, 1, 2, 2}).attr("mode", linear));
  cases.push_back(resize_scales("linear x2, input channel-blocked", {1, 32, 5, 6}, {1, 1, 2, 2}).attr("mode", linear));
  cases.back().inputs[0] = cases.back().inputs[0].blocked();
  cases.push_back(resize_sizes("linear 5x7 -> 9x4", {1, 3, 5, 7}, {1, 3, 9, 4}).attr("mode", linear));
  cases.push_back(resize_sizes("linear 56 -> 224 (float32 coordinates)", {1, 2, 56, 56}, {1, 2, 224, 224})
                      .attr("mode", linear));
  cases.push_back(resize_sizes("linear 64 -> 333", {1, 1, 64, 64}, {1, 1, 333, 7}).attr("mode", linear));
  cases.push_back(resize_sizes("linear 65 -> 130", {1, 1, 65, 8}, {1, 1, 130, 16}).attr("mode", linear)
                      .declines("dnnl", "more than 64 input cells"));
  cases.push_back(resize_sizes("linear 1-D", {2, 3, 9}, {2, 3, 4}).attr("mode", linear));
  cases.push_back(resize_scales("linear 3-D", {1, 2, 3, 4, 5}, {1, 1, 2, 1.5f, 0.6f}).attr("mode", linear)
                      .declines("dnnl", "not the size ratio"));
  cases.push_back(resize_scales("linear 3-D, exact ratios", {1, 2, 3, 4, 6}, {1, 1, 2, 1.5f, 0.5f}).attr("mode", linear));
  cases.push_back(resize_scales("linear scale 0.6 on 5 cells", {1, 1, 5, 5}, {1, 1, 0.6f, 0.6f}).attr("mode", linear)
                      .declines("dnnl", "not the size ratio"));
  cases.push_back(resize_scales("linear align_corners", {1, 2, 4, 4}, {1, 1, 2, 2}).attr("mode", linear)
                      .attr("coordinate_transformation_mode", string_attr("align_corners"))
                      .declines("dnnl", "uses half-pixel centres; this node asks for align_corners"));
  cases.push_back(resize_sizes("linear pytorch_half_pixel", {1, 2, 4, 4}, {1, 2, 7, 3}).attr("mode", linear)
                      .attr("coordinate_transformation_mode", string_attr("pytorch_half_pixel")));
  cases.push_back(resize_sizes("linear pytorch_half_pixel to 1 cell", {1, 2, 4, 4}, {1, 2, 3, 1}).attr("mode", linear)
                      .attr("coordinate_transformation_mode", string_attr("pytorch_half_pixel"))
                      .declines("dnnl", "one-cell output"));
  cases.push_back(resize_sizes("linear exclude_outside (no effect on 2 taps)", {1, 2, 4, 5}, {1, 2, 7, 3})
                      .attr("mode", linear).attr("exclude_outside", int_attr(1)));
  cases.push_back(resize_sizes("linear antialias /2", {1, 2, 8, 8}, {1, 2, 4, 4}, 18).attr("mode", linear)
                      .attr("antialias", int_attr(1)).declines("dnnl", "antialias on shrinking"));
  cases.push_back(resize_sizes("linear antialias x2 (no effect)", {1, 2, 4, 4}, {1, 2, 8, 8}, 18).attr("mode", linear)
                      .attr("antialias", int_attr(1)));
  cases.push_back(resize_scales("linear resizes C", {1, 2, 4, 4}, {1, 2, 1, 1}).attr("mode", linear)
                      .declines("dnnl", "spatial dims only"));
  cases.push_back(resize_scales("linear rank 2", {4, 4}, {2, 2}).attr("mode", linear).declines("dnnl", "rank 2"));
  cases.push_back(resize_scales("linear rank 6", {1, 1, 2, 2, 2, 2}, {1, 1, 2, 2, 2, 2}).attr("mode", linear)
                      .declines("dnnl", "rank 6"));
  // cubic: oneDNN has none
  cases.push_back(resize_scales("cubic x2", {1, 2, 4, 5}, {1, 1, 2, 2}).attr("mode", cubic).declines("dnnl", "no cubic"));
  cases.push_back(resize_scales("cubic A -0.5 exclude_outside /0.8", {1, 1, 6, 6}, {1, 1, 0.8f, 0.8f})
                      .attr("mode", cubic).attr("cubic_coeff_a", float_attr(-0.5f)).attr("exclude_outside", int_attr(1))
                      .declines("dnnl", "no cubic"));
  cases.push_back(resize_sizes("cubic antialias /3", {1, 1, 12, 9}, {1, 1, 4, 3}, 18).attr("mode", cubic)
                      .attr("antialias", int_attr(1)).declines("dnnl", "no cubic"));
  // tf_crop_and_resize, opset 18/19 attributes, the legacy forms
  cases.push_back(KernelCase("Resize", 13, "tf_crop_and_resize, extrapolation").attr("mode", linear)
                      .attr("coordinate_transformation_mode", string_attr("tf_crop_and_resize"))
                      .attr("extrapolation_value", float_attr(10.f)).in(random_in({1, 2, 4, 4}))
                      .in(floats_in({0, 0, 0.4f, 0.6f, 1, 1, 1.2f, 1.7f})).in(omitted()).in(ints_in({1, 2, 3, 3}))
                      .declines("dnnl", "asks for tf_crop_and_resize"));
  cases.push_back(resize_sizes("axes, keep_aspect_ratio_policy not_larger", {1, 2, 4, 6}, {8, 9}, 18).attr("mode", linear)
                      .attr("axes", ints({2, 3})).attr("keep_aspect_ratio_policy", string_attr("not_larger")));
  cases.push_back(resize_sizes("axes, keep_aspect_ratio_policy not_smaller", {1, 2, 4, 6}, {3, 3}, 18).attr("mode", linear)
                      .attr("axes", ints({-1, -2})).attr("keep_aspect_ratio_policy", string_attr("not_smaller"))
                      .declines("dnnl", "not the size ratio"));
  cases.push_back(resize_scales("half_pixel_symmetric, exact ratio", {1, 2, 4, 6}, {1, 1, 2, 0.5f}, 19)
                      .attr("mode", linear).attr("coordinate_transformation_mode", string_attr("half_pixel_symmetric")));
  cases.push_back(resize_scales("half_pixel_symmetric, scale 0.6", {1, 2, 5, 5}, {1, 1, 0.6f, 0.7f}, 19)
                      .attr("mode", linear).attr("coordinate_transformation_mode", string_attr("half_pixel_symmetric"))
                      .declines("dnnl", "not the size ratio"));
  cases.push_back(KernelCase("Resize", 11, "tf_half_pixel_for_nn").attr("coordinate_transformation_mode",
                                                                        string_attr("tf_half_pixel_for_nn"))
                      .in(random_in({1, 2, 4, 4})).in(floats_in({})).in(floats_in({1, 1, 1.5f, 2}))
                      .declines("dnnl", "tf_half_pixel_for_nn coordinates and nearest_mode pick cell"));
  cases.push_back(KernelCase("Resize", 10, "opset 10 linear").attr("mode", linear).in(random_in({1, 2, 3, 4}))
                      .in(floats_in({1, 1, 2, 2})).declines("dnnl", "asks for asymmetric"));
  cases.push_back(KernelCase("Upsample", 9, "nearest x2 x3").in(random_in({1, 2, 3, 4})).in(floats_in({1, 1, 2, 3})));
  cases.push_back(KernelCase("Upsample", 9, "nearest x1.5").in(random_in({1, 2, 4, 4})).in(floats_in({1, 1, 1.5f, 1}))
                      .declines("dnnl", "nearest_mode pick cell"));
  cases.push_back(KernelCase("Upsample", 7, "linear, scales attribute").attr("mode", linear)
                      .attr("scales", floats({1, 1, 2, 2})).in(random_in({1, 2, 3, 4}))
                      .declines("dnnl", "asks for asymmetric"));
  cases.push_back(KernelCase("Upsample", 1, "bilinear, height_scale and width_scale").attr("mode", string_attr("bilinear"))
                      .attr("height_scale", float_attr(2)).attr("width_scale", float_attr(3)).in(random_in({1, 2, 3, 4}))
                      .declines("dnnl", "asks for asymmetric"));
  Tensor f64(DType::f64, {1, 2, 3, 3});
  for (int64_t i = 0; i < f64.numel(); ++i) f64.data<double>()[i] = std::cos(double(i));
  cases.push_back(KernelCase("Resize", 13, "float64").attr("mode", linear).in(given(f64)).in(omitted())
                      .in(floats_in({1, 1, 2, 2})).declines("dnnl", "float32"));
  return cases;
}

}  // namespace

KERNEL_CASES("Resize, Upsample", resize_cases)
