// Kernel cases of the resize family (ops/resize): Resize, Upsample. Each case runs every kernel of its op against
// the op's reference kernel; tests/unit/kernel_cases.h says how, and how a table is registered.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "ops/resize/resize_geometry.h"
#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

// ---- Resize and Upsample (ops/resize/resize_dnnl.cc says where oneDNN runs; the native kernel runs every case) ----

// Resize-13 with scales (roi omitted).
KernelCase resize_scales(const std::string& what, Shape x, std::vector<float> scales, int opset = 13) {
  return KernelCase("Resize", opset, what).in(random_in(std::move(x))).in(omitted()).in(floats_in(std::move(scales)));
}
// Resize-13 with sizes (roi and scales omitted).
KernelCase resize_sizes(const std::string& what, Shape x, std::vector<int64_t> sizes, int opset = 13) {
  return KernelCase("Resize", opset, what).in(random_in(std::move(x))).in(omitted()).in(omitted())
      .in(ints_in(std::move(sizes)));
}

const char* const kCoordinates[] = {"half_pixel",   "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
                                    "asymmetric",   "tf_half_pixel_for_nn", "tf_crop_and_resize"};

// A Resize of x by scales or sizes (whichever is given) with coordinate mode `coords` at the opset that has it
// (tf_half_pixel_for_nn: 11; others 19), a crop box when it is tf_crop_and_resize.
KernelCase resize_any(const std::string& what, const std::string& coords, Shape x, std::vector<float> scales,
                      std::vector<int64_t> sizes = {}) {
  const bool tf11 = coords == "tf_half_pixel_for_nn", crop = coords == "tf_crop_and_resize";
  KernelCase c("Resize", tf11 ? 11 : 19, what + ", " + coords);
  c.attr("coordinate_transformation_mode", string_attr(coords)).in(random_in(x));
  if (crop) {  // a box reaching outside the input: cells out there take the extrapolation value
    std::vector<float> roi;
    for (size_t a = 0; a < x.size(); ++a) roi.push_back(a < 2 ? 0.f : a == 2 ? 0.1f : -0.2f);
    for (size_t a = 0; a < x.size(); ++a) roi.push_back(a < 2 ? 1.f : a == 2 ? 0.85f : 1.15f);
    c.in(floats_in(roi)).attr("extrapolation_value", float_attr(-7.5f));
  } else {
    c.in(tf11 ? floats_in({}) : omitted());
  }
  if (sizes.empty()) c.in(floats_in(std::move(scales)));
  else c.in(tf11 ? floats_in({}) : omitted()).in(ints_in(std::move(sizes)));
  return c;
}

// Every mode with every coordinate mode, up and down by non-integer factors, by scales and by sizes, on odd
// shapes: the native kernel runs each; oneDNN declines each (the reason given per case).
std::vector<KernelCase> resize_mode_grid() {
  std::vector<KernelCase> cases;
  const char* const nearest_modes[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
  for (const char* coords : kCoordinates) {
    const std::string cm = coords;
    const bool crop = cm == "tf_crop_and_resize";
    const bool half = cm == "half_pixel" || cm == "half_pixel_symmetric" || cm == "pytorch_half_pixel";
    // oneDNN's reason on an N x C x H x W resize of H and W by factors that are not size ratios.
    const std::string linear_why = crop ? "asks for tf_crop_and_resize" : half ? "not the size ratio"
                                                                                : "uses half-pixel centres";
    for (const char* nm : nearest_modes) {
      // C resized too: oneDNN declines before comparing cells; the native kernel's rows have taps along C and H.
      cases.push_back(resize_any(std::string("nearest ") + nm + " C x1.5, 7x5 x1.7 x0.6", cm, {1, 2, 7, 5},
                                 {1, 1.5f, 1.7f, 0.6f})
                          .attr("nearest_mode", string_attr(nm)).declines("dnnl", "N or C is resized"));
      cases.push_back(resize_any(std::string("nearest ") + nm + " 1x3x9x11 by sizes to 4x17, C halved", cm,
                                 {1, 3, 9, 11}, {}, {1, 2, 4, 17})
                          .attr("nearest_mode", string_attr(nm)).declines("dnnl", "N or C is resized"));
    }
    for (const char* mode : {"linear", "cubic"}) {
      const std::string m = mode;
      const std::string why = m == "cubic" ? "no cubic" : linear_why;
      cases.push_back(resize_any(m + " 2x3x7x5 x1.7 x2.3", cm, {2, 3, 7, 5}, {1, 1, 1.7f, 2.3f})
                          .attr("mode", string_attr(mode)).declines("dnnl", why));
      cases.push_back(resize_any(m + " 1x2x13x11 x0.6 x0.45", cm, {1, 2, 13, 11}, {1, 1, 0.6f, 0.45f})
                          .attr("mode", string_attr(mode)).declines("dnnl", why));
      cases.push_back(resize_any(m + " C x1.5, H x1.3, W x0.7", cm, {1, 2, 6, 9}, {1, 1.5f, 1.3f, 0.7f})
                          .attr("mode", string_attr(mode)).declines("dnnl", m == "cubic" ? "no cubic" : "N or C is resized"));
      KernelCase one = resize_any(m + " 3 -> 1 cell, 1 -> 4 cells", cm, {2, 1, 3, 1}, {}, {2, 1, 1, 4})
                           .attr("mode", string_attr(mode));
      if (m == "cubic" || crop || cm == "pytorch_half_pixel" || !half)  // half-pixel linear by sizes: oneDNN runs it
        one.declines("dnnl", m == "cubic" ? "no cubic" : crop ? "tf_crop_and_resize"
                                       : cm == "pytorch_half_pixel" ? "one-cell output" : "half-pixel centres");
      cases.push_back(one);
      KernelCase sized = resize_any(m + " 1x3x10x7 by sizes to 17x3", cm, {1, 3, 10, 7}, {}, {1, 3, 17, 3})
                             .attr("mode", string_attr(mode));
      if (m == "cubic" || !half) sized.declines("dnnl", why);  // half-pixel linear by sizes: oneDNN runs it
      cases.push_back(sized);
      cases.push_back(resize_any(m + " exclude_outside, A -0.5, x0.7 x1.6", cm, {1, 2, 9, 8}, {1, 1, 0.7f, 1.6f})
                          .attr("mode", string_attr(mode)).attr("exclude_outside", int_attr(1))
                          .attr("cubic_coeff_a", float_attr(-0.5f)).declines("dnnl", why));
      if (cm != "tf_half_pixel_for_nn") {  // antialias is 18+
        cases.push_back(resize_any(m + " antialias x0.45 x0.3", cm, {1, 2, 17, 23}, {1, 1, 0.45f, 0.3f})
                            .attr("mode", string_attr(mode)).attr("antialias", int_attr(1))
                            .declines("dnnl", m == "cubic" ? "no cubic" : crop ? "tf_crop_and_resize"
                                                                        : half ? "not the size ratio" : "half-pixel centres"));
        cases.push_back(resize_any(m + " antialias, rank 5, x0.5 x1.5 x0.3", cm, {1, 2, 6, 4, 10}, {1, 1, 0.5f, 1.5f, 0.3f})
                            .attr("mode", string_attr(mode)).attr("antialias", int_attr(1))
                            .declines("dnnl", m == "cubic" ? "no cubic" : crop ? "tf_crop_and_resize"
                                                                        : half ? "antialias on shrinking" : "half-pixel centres"));
      }
    }
  }
  return cases;
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
  cases.push_back(resize_scales("linear x2, input channel-blocked", {1, 32, 5, 6}, {1, 1, 2, 2}).attr("mode", linear)
                      .runs("native", Takes::offered_through));
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
  cases.push_back(KernelCase("Resize", 13, "float64 cubic").attr("mode", cubic).in(given(f64)).in(omitted())
                      .in(floats_in({1, 1, 1.5f, 0.7f})).declines("dnnl", "float32"));
  // The native kernel's paths: H only (columns kept: nothing gathered), W only (one row tap), every row a
  // repeat (nearest x3: copies the row just made), wide rows, an empty output.
  cases.push_back(resize_scales("linear H only x1.7", {1, 3, 6, 70}, {1, 1, 1.7f, 1}).attr("mode", linear)
                      .declines("dnnl", "not the size ratio"));
  cases.push_back(resize_scales("cubic W only x0.8", {2, 2, 3, 10}, {1, 1, 1, 0.8f}).attr("mode", cubic)
                      .declines("dnnl", "no cubic"));
  cases.push_back(resize_scales("nearest x3 asymmetric floor", {1, 2, 5, 4}, {1, 1, 3, 3})
                      .attr("coordinate_transformation_mode", string_attr("asymmetric"))
                      .attr("nearest_mode", string_attr("floor")));
  cases.push_back(resize_sizes("linear 1x8x40x300 -> 61x517 (parallel rows)", {1, 8, 40, 300}, {1, 8, 61, 517})
                      .attr("mode", linear).declines("dnnl", "more than 64 input cells"));
  cases.push_back(resize_sizes("linear to an empty output", {1, 2, 4, 4}, {1, 2, 0, 3}).attr("mode", linear)
                      .declines("dnnl", "the output is empty"));
  // Channel-blocked inputs: the native kernel keeps the block through (C a multiple of it), else reads plain.
  auto blocked = [](KernelCase c) {
    c.inputs[0] = c.inputs[0].blocked();
    return c;
  };
  cases.push_back(blocked(resize_scales("cubic x1.7 x0.6, blocked", {2, 32, 7, 9}, {1, 1, 1.7f, 0.6f}).attr("mode", cubic)
                              .declines("dnnl", "no cubic").runs("native", Takes::offered_through)));
  cases.push_back(blocked(resize_scales("nearest x3 floor, blocked", {1, 16, 3, 5}, {1, 1, 3, 3})
                              .attr("nearest_mode", string_attr("floor")).declines("dnnl", "nearest_mode pick cell")
                              .runs("native", Takes::offered_through)));
  cases.push_back(blocked(KernelCase("Resize", 13, "tf_crop_and_resize, extrapolation, blocked").attr("mode", linear)
                              .attr("coordinate_transformation_mode", string_attr("tf_crop_and_resize"))
                              .attr("extrapolation_value", float_attr(3.f)).in(random_in({1, 32, 6, 6}))
                              .in(floats_in({0, 0, -0.2f, 0.3f, 1, 1, 0.9f, 1.4f})).in(omitted()).in(ints_in({1, 32, 5, 7}))
                              .declines("dnnl", "asks for tf_crop_and_resize").runs("native", Takes::offered_through)));
  cases.push_back(blocked(resize_scales("linear 3-D x1.5 x0.7 x2.2 align_corners, blocked", {1, 16, 3, 4, 5},
                                        {1, 1, 1.5f, 0.7f, 2.2f})
                              .attr("mode", linear).attr("coordinate_transformation_mode", string_attr("align_corners"))
                              .declines("dnnl", "align_corners").runs("native", Takes::offered_through)));
  cases.push_back(blocked(resize_scales("linear 1-D asymmetric, blocked", {2, 16, 9}, {1, 1, 1.6f}).attr("mode", linear)
                              .attr("coordinate_transformation_mode", string_attr("asymmetric"))
                              .declines("dnnl", "asymmetric").runs("native", Takes::offered_through)));
  cases.push_back(blocked(resize_scales("cubic, 20 channels blocked (padded): read plain", {1, 20, 4, 5}, {1, 1, 1.5f, 1.5f})
                              .attr("mode", cubic).declines("dnnl", "no cubic").runs("native", Takes::plain)));
  cases.push_back(blocked(resize_scales("cubic, C resized, blocked: read plain", {1, 16, 4, 5}, {1, 2, 1.5f, 1})
                              .attr("mode", cubic).declines("dnnl", "no cubic").runs("native", Takes::plain)));
  for (KernelCase& c : resize_mode_grid()) cases.push_back(std::move(c));
  return cases;
}

// ---- GridSample: reference only; every mode and padding on a grid reaching past the edges ----

std::vector<KernelCase> grid_sample_cases() {
  std::vector<KernelCase> cases;
  for (const char* mode : {"bilinear", "nearest", "bicubic"})
    for (const char* padding : {"zeros", "border", "reflection"})
      cases.push_back(KernelCase("GridSample", 16, std::string(mode) + ", " + padding)
                          .attr("mode", string_attr(mode)).attr("padding_mode", string_attr(padding))
                          .attr("align_corners", int_attr(std::string(padding) == "border"))
                          .in(random_in({1, 2, 4, 5})).in(random_in({1, 3, 2, 2}, -1.4f, 1.4f)));
  return cases;
}

}  // namespace

KERNEL_CASES("Resize, Upsample", resize_cases)

// The native kernel sums the reference's terms in its order (ops/resize/resize_native.cc): its outputs are the
// reference's bits wherever at most one axis before the last is resized, special values planted or not.
TEST_CASE("Resize native: the reference's bits") {
  int exact = 0;
  for (const KernelCase& c : resize_cases()) {
    for (bool special : {false, true}) {
      const std::string params = describe(c) + (special ? "\n  with special values planted" : "");
      CAPTURE(params);
      PreparedCase p = prepare_case(c);
      if (special && !plant_special_values(c, p)) continue;
      const auto& rp = static_cast<const ResizeParams&>(*p.node.params);
      ResizeGeometry g;
      REQUIRE(resolve_resize(rp, p.in, g));
      int resized = 0;  // axes before the last that are not kept as they are
      for (size_t a = 0; a + 1 < g.axes.size(); ++a) resized += !g.axes[a].identity();
      if (resized > 1) continue;
      std::vector<Tensor> want = case_outputs(p, false), got = case_outputs(p, true);
      run_compiled(*compile_reference(*p.node.def, p.node.params, p.in, p.out), p.inputs, want);
      const KernelDef* native = nullptr;
      for (const KernelDef& k : p.node.def->kernels) native = k.name == "native" ? &k : native;
      REQUIRE(native);
      Compiled compiled = native->compile(p.node.params, {p.in, p.out, p.offered});
      REQUIRE_MESSAGE(compiled, compiled.reason());
      run_compiled(*compiled.take(), p.inputs, got);
      const Tensor& y = got[0];
      const Tensor& r = want[0];
      int64_t differ = 0, first = -1;
      for (int64_t i = 0; i < r.numel(); ++i) {
        const double a = y.double_at(i), b = r.double_at(i);
        const bool same = (std::isnan(a) && std::isnan(b)) ||
                          (a == b && std::signbit(a) == std::signbit(b));
        if (!same && differ++ == 0) first = i;
      }
      CHECK_MESSAGE(differ == 0, differ, " of ", r.numel(), " outputs differ; the first, ", first, ": native ",
                    first >= 0 ? y.double_at(first) : 0.0, ", ref ", first >= 0 ? r.double_at(first) : 0.0);
      ++exact;
    }
  }
  CHECK(exact > 100);
}
KERNEL_CASES("GridSample", grid_sample_cases)
