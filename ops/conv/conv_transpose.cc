#include "ops/conv/conv_transpose.h"

#include <algorithm>
#include <string>

namespace cnnx {

namespace {

bool known(int64_t d) { return d >= 0; }

}  // namespace

ConvTransposeParams parse_conv_transpose(const Node& node) {
  require_inputs(node, 2, 3);
  require_outputs(node, 1, 1);
  node.attrs.allow_only(
      {"auto_pad", "dilations", "group", "kernel_shape", "output_padding", "output_shape", "pads", "strides"});
  ConvTransposeParams p;
  p.output_padding = node.attrs.get_ints("output_padding");
  p.output_shape = node.attrs.get_ints("output_shape");
  static_cast<ConvWindow&>(p) = parse_conv_window(node, {{"output_padding", p.output_padding.size()}});
  for (int64_t x : p.output_padding)
    require(x >= 0, "attribute output_padding must not be negative, got ", list_string(p.output_padding));
  for (int64_t x : p.output_shape)
    require(x >= 0, "attribute output_shape must not be negative, got ", list_string(p.output_shape));
  return p;
}

ConvTransposeGeometry resolve_conv_transpose_geometry(const ConvTransposeParams& p, const std::vector<ValueInfo>& in) {
  const Shape& x = input(in, 0).shape;
  const Shape& w = input(in, 1).shape;
  WindowAxes axes = window_axes(p, x, w);
  const size_t k = axes.in.size();
  require(p.output_padding.empty() || p.output_padding.size() == k, "attribute output_padding has ",
          p.output_padding.size(), " values; X has ", k, " spatial axes, so it needs ", k);
  // output_shape: the spatial sizes, or (as some exporters write) the whole [N, M, spatial...] shape.
  require(p.output_shape.empty() || p.output_shape.size() == k || p.output_shape.size() == k + 2,
          "attribute output_shape has ", p.output_shape.size(), " values; X has ", k, " spatial axes, so it needs ", k);
  const size_t shape_skip = p.output_shape.size() == k + 2 ? 2 : 0;

  ConvTransposeGeometry g;
  g.N = x[0];
  g.C = x[1];
  g.group = p.group;
  require(!known(w[0]) || !known(g.C) || w[0] == g.C, "weight W has ", w[0], " input channels (dim 0); X has ", g.C);
  if (known(g.C)) {
    require(g.C % g.group == 0, "group ", g.group, " does not divide the ", g.C, " input channels of X");
    g.C_per_group = g.C / g.group;
  } else {
    g.C_per_group = kUnknownDim;
  }
  g.M_per_group = w[1];
  g.M = known(w[1]) ? checked_mul(w[1], g.group, "output channels") : kUnknownDim;

  take_bias_and_window(g, in, std::move(axes), "the output has ", " channels (W dim 1 * group)");
  g.out.assign(k, kUnknownDim);
  for (size_t i = 0; i < k; ++i) {
    const int64_t out_pad = p.output_padding.empty() ? 0 : p.output_padding[i];
    require(out_pad < g.stride[i] || out_pad < g.dilation[i], "attribute output_padding ",
            list_string(p.output_padding), " must be less than the stride or the dilation of its axis");
    if (!known(g.in[i]) || !known(g.kernel[i])) {
      if (!p.output_shape.empty()) g.out[i] = p.output_shape[shape_skip + i];
      g.pad_begin[i] = g.pad_end[i] = kUnknownDim;
      continue;
    }
    require(g.in[i] >= 1, "spatial axis ", i, " of X is empty: shape ", to_string(x));
    const int64_t dilated = checked_add(checked_mul(g.kernel[i] - 1, g.dilation[i], "dilated kernel size"), 1,
                                        "dilated kernel size");
    // The full (unpadded, uncropped) output size.
    const int64_t full = checked_add(checked_add(checked_mul(g.stride[i], g.in[i] - 1, "output size"), out_pad,
                                                 "output size"),
                                     dilated, "output size");
    auto split = [&](int64_t total, bool upper) {
      // Upper: the larger half at the end. Halves round down (floor), so a negative total (an output_shape
      // larger than the full output) adds its cells at the end, as ONNX's reference does.
      const int64_t half = floor_div(total, 2);
      g.pad_begin[i] = upper ? half : total - half;
      g.pad_end[i] = total - g.pad_begin[i];
    };
    if (!p.output_shape.empty()) {
      g.out[i] = p.output_shape[shape_skip + i];
      split(full - g.out[i], p.auto_pad == AutoPad::same_upper);
    } else if (p.auto_pad == AutoPad::same_upper || p.auto_pad == AutoPad::same_lower) {
      split(std::max<int64_t>(0, dilated - g.stride[i]), p.auto_pad == AutoPad::same_upper);
      g.out[i] = full - g.pad_begin[i] - g.pad_end[i];
    } else {
      if (!p.pads.empty() && p.auto_pad == AutoPad::notset) {
        g.pad_begin[i] = p.pads[i];
        g.pad_end[i] = p.pads[k + i];
      }
      g.out[i] = full - g.pad_begin[i] - g.pad_end[i];
      require(g.out[i] >= 0, "spatial axis ", i, ": pads ", g.pad_begin[i], " + ", g.pad_end[i],
              " remove more than the ", full, " output cells");
    }
  }
  return g;
}

double conv_transpose_flops(const ConvTransposeParams& p, const std::vector<ValueInfo>& in) {
  const ConvTransposeGeometry g = resolve_conv_transpose_geometry(p, in);
  return g.flops(g.in);
}

std::vector<ValueInfo> infer_conv_transpose(const ConvTransposeParams& p, const std::vector<ValueInfo>& in) {
  require_float32(in);
  return {ValueInfo::of(DType::f32, resolve_conv_transpose_geometry(p, in).output_shape())};
}

}  // namespace cnnx
