#include "ops/resize/resize.h"

#include <cmath>
#include <utility>

#include "ops/resize/resize_geometry.h"

namespace cnnx {

namespace {

// The enum named by attribute `name` (default `fallback`), from its (name, value) table; refuses others.
template <class E>
E string_choice(const Node& node, const char* name, const char* fallback,
                const std::vector<std::pair<const char*, E>>& choices) {
  const std::string got = node.attrs.get_string(name, fallback);
  std::string names;
  for (const auto& [text, value] : choices) {
    if (got == text) return value;
    names += (names.empty() ? "" : ", ") + std::string(text);
  }
  fail("attribute '", name, "' is '", got, "'; opset ", node.opset, " has ", names);
}

ResizeMode parse_mode(const Node& node, const char* linear_name, bool has_cubic) {
  if (has_cubic)
    return string_choice<ResizeMode>(node, "mode", "nearest",
                                     {{"nearest", ResizeMode::nearest}, {"linear", ResizeMode::linear},
                                      {"cubic", ResizeMode::cubic}});
  return string_choice<ResizeMode>(node, "mode", "nearest",
                                   {{"nearest", ResizeMode::nearest}, {linear_name, ResizeMode::linear}});
}

ResizeCoordinates parse_coordinates(const Node& node) {
  using C = ResizeCoordinates;
  std::vector<std::pair<const char*, C>> choices = {
      {"half_pixel", C::half_pixel},       {"pytorch_half_pixel", C::pytorch_half_pixel},
      {"align_corners", C::align_corners}, {"asymmetric", C::asymmetric},
      {"tf_crop_and_resize", C::tf_crop_and_resize}};
  if (node.opset < 13) choices.push_back({"tf_half_pixel_for_nn", C::tf_half_pixel_for_nn});
  if (node.opset >= 19) choices.push_back({"half_pixel_symmetric", C::half_pixel_symmetric});
  return string_choice(node, "coordinate_transformation_mode", "half_pixel", choices);
}

}  // namespace

ResizeParams parse_resize(const Node& node) {
  ResizeParams p;
  require_outputs(node, 1, 1);
  if (node.opset < 11) {  // Resize-10: X, scales; asymmetric coordinates
    require_inputs(node, 2, 2);
    node.attrs.allow_only({"mode"});
    p.mode = parse_mode(node, "linear", false);
    p.coordinates = ResizeCoordinates::asymmetric;
    p.rounding = NearestRounding::floor;
    p.scales_input = 1;
    return p;
  }
  require_inputs(node, 1, 4);
  if (node.opset < 13) require(has_input(node, 1), "input 1 (roi) is required before opset 13");
  if (node.opset < 18)
    node.attrs.allow_only({"coordinate_transformation_mode", "cubic_coeff_a", "exclude_outside", "extrapolation_value",
                           "mode", "nearest_mode"});
  else
    node.attrs.allow_only({"antialias", "axes", "coordinate_transformation_mode", "cubic_coeff_a", "exclude_outside",
                           "extrapolation_value", "keep_aspect_ratio_policy", "mode", "nearest_mode"});
  p.mode = parse_mode(node, "linear", true);
  p.coordinates = parse_coordinates(node);
  p.rounding = string_choice<NearestRounding>(
      node, "nearest_mode", "round_prefer_floor",
      {{"round_prefer_floor", NearestRounding::round_prefer_floor},
       {"round_prefer_ceil", NearestRounding::round_prefer_ceil},
       {"floor", NearestRounding::floor},
       {"ceil", NearestRounding::ceil}});
  p.cubic_coeff_a = node.attrs.get_float("cubic_coeff_a", -0.75f);
  p.exclude_outside = node.attrs.get_flag("exclude_outside", false);
  p.extrapolation_value = node.attrs.get_float("extrapolation_value", 0.f);
  require(std::isfinite(p.cubic_coeff_a), "attribute 'cubic_coeff_a' must be finite, got ", p.cubic_coeff_a);
  p.antialias = node.attrs.get_flag("antialias", false);
  require(!p.antialias || p.mode != ResizeMode::nearest,
          "attribute 'antialias' = 1 with mode 'nearest' (antialiasing filters linear and cubic only)");
  p.axes = node.attrs.get_ints("axes", {});
  p.aspect = string_choice<AspectPolicy>(node, "keep_aspect_ratio_policy", "stretch",
                                         {{"stretch", AspectPolicy::stretch},
                                          {"not_larger", AspectPolicy::not_larger},
                                          {"not_smaller", AspectPolicy::not_smaller}});
  p.roi_input = 1;
  p.scales_input = 2;
  p.sizes_input = 3;
  return p;
}

ResizeParams parse_upsample(const Node& node) {
  ResizeParams p;
  require(node.opset < 10, "Upsample is deprecated from opset 10 (the model imports opset ", node.opset,
          "); Resize replaces it");
  require_outputs(node, 1, 1);
  p.coordinates = ResizeCoordinates::asymmetric;
  p.rounding = NearestRounding::floor;
  p.scales_at_least_one = true;
  if (node.opset < 7) {
    require_inputs(node, 1, 1);
    node.attrs.allow_only({"height_scale", "mode", "width_scale"});
    p.mode = parse_mode(node, "bilinear", false);
    const float h = node.attrs.get_float("height_scale", 1.f), w = node.attrs.get_float("width_scale", 1.f);
    require(node.attrs.has("height_scale") && node.attrs.has("width_scale"),
            "attributes 'height_scale' and 'width_scale' are required");
    p.scale_attribute = {1.f, 1.f, h, w};
  } else if (node.opset < 9) {
    require_inputs(node, 1, 1);
    node.attrs.allow_only({"mode", "scales"});
    p.mode = parse_mode(node, "linear", false);
    require(node.attrs.has("scales"), "attribute 'scales' is required");
    p.scale_attribute = node.attrs.get_floats("scales");
  } else {
    require_inputs(node, 2, 2);
    node.attrs.allow_only({"mode"});
    p.mode = parse_mode(node, "linear", false);
    p.scales_input = 1;
  }
  return p;
}

std::vector<ValueInfo> infer_resize(const ResizeParams& p, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32, DType::f64});
  const ValueInfo& x = in[0];
  ResizeGeometry g;
  if (!x.concrete() || !resolve_resize(p, in, g)) return {ValueInfo::of(x.dtype, Shape(x.shape.size(), kUnknownDim))};
  return {ValueInfo::of(x.dtype, g.output())};
}

}  // namespace cnnx
