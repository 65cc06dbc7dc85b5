// Resize (opsets 10, 11, 13, 18, 19) and Upsample (opsets 1, 7, 9): X of any rank -> Y, each output cell an
// interpolation of X's cells along every axis (separable: the weight of a tap is the product of its per-axis
// weights). float32 and float64.
//
// Where the arguments are, per version (an input that is omitted, or present with no elements, is absent):
//   Upsample-1    attributes height_scale, width_scale (a 4-D X: scales [1, 1, height, width]), mode
//                 nearest | bilinear
//   Upsample-7    attribute scales (one per axis), mode nearest | linear
//   Upsample-9    input 1 scales
//   Resize-10     input 1 scales, attribute mode nearest | linear
//   Resize-11+    inputs 1 roi, 2 scales, 3 sizes (exactly one of scales and sizes), the attributes below
// Upsample's scales are >= 1 (its spec). Upsample and Resize-10 map coordinates `asymmetric` and pick the
// nearest cell with `floor` (integer factors repeat each cell; that is PyTorch's nearest, the exporter that
// writes these ops).
//
// Resize-11+ attributes: mode nearest | linear | cubic; coordinate_transformation_mode (below); nearest_mode
// round_prefer_floor | round_prefer_ceil | floor | ceil; cubic_coeff_a (-0.75); exclude_outside;
// extrapolation_value (tf_crop_and_resize). 18+: antialias (linear and cubic only), axes (the axes scales,
// sizes and roi list; others keep their size), keep_aspect_ratio_policy stretch | not_larger | not_smaller
// (with sizes). Modes of other opsets are refused by name (tf_half_pixel_for_nn is 11 only, half_pixel_symmetric
// 19+).
//
// Output size per axis: floor(in * scale) for scales (with tf_crop_and_resize times roi_end - roi_start; the
// product rounded to float32 first, as onnxruntime does, so a scale written as size / in gives that size), or
// sizes; with a keep_aspect_ratio_policy the one scale
// min (not_larger) or max (not_smaller) of sizes / in over the listed axes, and out = round_half_up(in * scale).
// Given sizes, scale = out / in. The arguments must be known when the plan is made (initializers, constants,
// or graph inputs, whose data the plan then carries); the output must fit the tensor limit before anything is
// allocated. Errors name the argument: scales that are not finite and > 0, sizes < 0, an output axis > 0
// from an empty input axis, both or neither of scales and sizes, wrong lengths, unknown mode strings.
//
// Coordinates and weights: ops/resize/resize_geometry.h.
#pragma once

#include "engine/op.h"

namespace cnnx {

enum class ResizeMode { nearest, linear, cubic };
enum class ResizeCoordinates {
  half_pixel,
  half_pixel_symmetric,
  pytorch_half_pixel,
  align_corners,
  asymmetric,
  tf_half_pixel_for_nn,
  tf_crop_and_resize
};
enum class NearestRounding { round_prefer_floor, round_prefer_ceil, floor, ceil };
enum class AspectPolicy { stretch, not_larger, not_smaller };

struct ResizeParams : OpParams {
  ResizeMode mode = ResizeMode::nearest;
  ResizeCoordinates coordinates = ResizeCoordinates::half_pixel;
  NearestRounding rounding = NearestRounding::round_prefer_floor;
  double cubic_coeff_a = -0.75;
  bool exclude_outside = false;
  double extrapolation_value = 0;
  bool antialias = false;
  AspectPolicy aspect = AspectPolicy::stretch;
  std::vector<int64_t> axes;  // as given (18+); empty: every axis
  // Where the arguments come from: input indices (-1: none), or scales from attributes (Upsample-1/7).
  int roi_input = -1, scales_input = -1, sizes_input = -1;
  std::vector<float> scale_attribute;
  bool scales_at_least_one = false;  // Upsample
};

ResizeParams parse_resize(const Node& node);
ResizeParams parse_upsample(const Node& node);
// X's type; the output shape once the arguments are known (every dim unknown before).
std::vector<ValueInfo> infer_resize(const ResizeParams& p, const std::vector<ValueInfo>& in);

// Tolerance. Nearest selects a cell (exact). Linear and cubic outputs are weighted sums of 2 (linear) or 4
// (cubic) taps per axis; the reference computes coordinates, weights and the sum in double and rounds once.
// Another engine works in float32: its source coordinate is off by a few ulp of the coordinate (2 ulp at 64
// input cells is 2 * 64 * 2^-24 ~ 8e-6 of a cell), which moves the output by that fraction of the difference
// between neighbouring cells (~1 for activations of O(1): the absolute term), and its sum of up to 16 (2-D
// cubic) float32 products with weights of |sum| <= ~1.6 rounds to ~16 * 1.6 * 2^-24 ~ 1.5e-6 of the largest
// tap (the relative term covers it with margin where the output is not far below its taps).
constexpr Tolerance kResizeTolerance{2e-5, 1e-5};

// "ref" (ops/resize/resize_ref.cc): every case, double arithmetic, any rank.
Kernel<ResizeParams> resize_ref_kernel();
// "dnnl" (ops/resize/resize_dnnl.cc): oneDNN resampling_forward where it computes what ONNX asks; the file
// says where that is and why it declines elsewhere.
Kernel<ResizeParams> resize_dnnl_kernel();
// "native" (ops/resize/resize_native.cc): every case of the reference, float32 and float64, plain or (N and C
// kept, C in whole blocks) channel-blocked as input 0 arrives, with the reference's terms summed in its order
// (its bits where at most one axis before the last interpolates), vectorized and parallel over output rows.
Kernel<ResizeParams> resize_native_kernel();

}  // namespace cnnx
