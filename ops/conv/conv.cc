#include "ops/conv/conv.h"

#include <algorithm>
#include <string>
#include <tuple>

#include "ops/common/node_checks.h"

namespace cnnx {

namespace {

bool known(int64_t d) { return d >= 0; }

AutoPad parse_auto_pad(const std::string& s) {
  if (s == "NOTSET") return AutoPad::notset;
  if (s == "SAME_UPPER") return AutoPad::same_upper;
  if (s == "SAME_LOWER") return AutoPad::same_lower;
  if (s == "VALID") return AutoPad::valid;
  fail("attribute auto_pad must be NOTSET, SAME_UPPER, SAME_LOWER or VALID, got '", s, "'");
}

// Output size and pads along one spatial dim. `in` may be unknown; `kernel` may be unknown.
void resolve_dim(AutoPad auto_pad, int64_t in, int64_t kernel, int64_t stride, int64_t dilation, size_t axis,
                 int64_t& pad_begin, int64_t& pad_end, int64_t& out) {
  const int64_t dilated = known(kernel) ? checked_add(checked_mul(kernel - 1, dilation, "dilated kernel size"), 1,
                                                      "dilated kernel size")
                                        : kUnknownDim;
  out = kUnknownDim;
  switch (auto_pad) {
    case AutoPad::notset: {
      if (!known(in) || !known(dilated)) return;
      const int64_t padded = checked_add(checked_add(in, pad_begin, "padded input size"), pad_end, "padded input size");
      require(padded >= dilated, "spatial axis ", axis, ": the kernel (", kernel, " with dilation ", dilation,
              " spans ", dilated, ") is larger than the padded input (", in, " + pads ", pad_begin, " + ", pad_end,
              " = ", padded, ")");
      out = (padded - dilated) / stride + 1;
      return;
    }
    case AutoPad::valid:
      pad_begin = pad_end = 0;
      if (!known(in) || !known(dilated)) return;
      require(in >= dilated, "spatial axis ", axis, ": with auto_pad VALID the kernel (", kernel, " with dilation ",
              dilation, " spans ", dilated, ") is larger than the input (", in, ")");
      out = (in - dilated) / stride + 1;
      return;
    case AutoPad::same_upper:
    case AutoPad::same_lower: {
      pad_begin = pad_end = kUnknownDim;
      if (!known(in)) return;
      out = in == 0 ? 0 : (in - 1) / stride + 1;  // ceil(in / stride), without overflow for huge strides
      if (!known(dilated)) return;
      const int64_t total = out == 0 ? 0 : std::max<int64_t>(0, (out - 1) * stride + dilated - in);
      // SAME_UPPER puts the odd cell at the end, SAME_LOWER at the beginning.
      pad_begin = auto_pad == AutoPad::same_upper ? total / 2 : total - total / 2;
      pad_end = total - pad_begin;
      return;
    }
  }
}

}  // namespace

Shape ConvGeometry::input_shape() const {
  Shape s{N, C};
  s.insert(s.end(), in.begin(), in.end());
  return s;
}

Shape ConvGeometry::output_shape() const {
  Shape s{N, M};
  s.insert(s.end(), out.begin(), out.end());
  return s;
}

ConvWindow parse_conv_window(const Node& node, std::vector<std::pair<const char*, size_t>> more_axes) {
  ConvWindow p;
  p.auto_pad = parse_auto_pad(node.attrs.get_string("auto_pad", "NOTSET"));
  p.group = node.attrs.get_int("group", 1);
  p.kernel_shape = node.attrs.get_ints("kernel_shape");
  p.strides = node.attrs.get_ints("strides");
  p.dilations = node.attrs.get_ints("dilations");
  p.pads = node.attrs.get_ints("pads");

  require(p.group >= 1, "attribute group must be at least 1, got ", p.group);
  for (int64_t k : p.kernel_shape) require(k >= 1, "attribute kernel_shape must be positive, got ", list_string(p.kernel_shape));
  for (int64_t s : p.strides) require(s >= 1, "attribute strides must be positive, got ", list_string(p.strides));
  for (int64_t d : p.dilations) require(d >= 1, "attribute dilations must be positive, got ", list_string(p.dilations));
  for (int64_t x : p.pads) require(x >= 0, "attribute pads must not be negative, got ", list_string(p.pads));
  require(p.pads.size() % 2 == 0, "attribute pads must have 2 values per spatial axis (begins, then ends), got ",
          list_string(p.pads));
  if (p.auto_pad != AutoPad::notset)
    for (int64_t x : p.pads)
      require(x == 0, "attribute pads ", list_string(p.pads), " cannot be used together with auto_pad ",
              node.attrs.get_string("auto_pad", ""));

  // Every attribute given must agree on the number of spatial axes.
  size_t rank = 0;
  const char* rank_from = nullptr;
  more_axes.insert(more_axes.begin(), {{"kernel_shape", p.kernel_shape.size()},
                                       {"strides", p.strides.size()},
                                       {"dilations", p.dilations.size()},
                                       {"pads", p.pads.size() / 2}});
  for (const auto& [name, n] : more_axes) {
    if (n == 0) continue;
    if (!rank_from) {
      rank = n;
      rank_from = name;
    }
    require(n == rank, "attribute ", name, " describes ", n, " spatial axes but ", rank_from, " describes ", rank);
  }
  return p;
}

WindowAxes window_axes(const ConvWindow& p, const Shape& x, const Shape& w) {
  require(x.size() >= 3 && x.size() <= 5, "input X must be [N, C, D1..Dk] with 1 to 3 spatial axes, got shape ",
          to_string(x));
  require(w.size() == x.size(), "weight W must have the rank of X (", x.size(), "), got shape ", to_string(w));
  const size_t k = x.size() - 2;
  for (const auto& [name, v, per_axis] : {std::tuple<const char*, const std::vector<int64_t>&, size_t>{"kernel_shape", p.kernel_shape, 1},
                                          {"strides", p.strides, 1},
                                          {"dilations", p.dilations, 1},
                                          {"pads", p.pads, 2}})
    require(v.empty() || v.size() == k * per_axis, "attribute ", name, " has ", v.size(), " values; X has ", k,
            " spatial axes, so it needs ", k * per_axis);
  WindowAxes a;
  a.in.assign(x.begin() + 2, x.end());
  a.stride.assign(k, 1);
  a.dilation.assign(k, 1);
  for (size_t i = 0; i < k; ++i) {
    a.kernel.push_back(w[2 + i]);
    if (!p.kernel_shape.empty()) {
      require(!known(w[2 + i]) || w[2 + i] == p.kernel_shape[i], "attribute kernel_shape ", list_string(p.kernel_shape),
              " disagrees with the spatial dims of weight W ", to_string(w));
      a.kernel[i] = p.kernel_shape[i];
    }
    require(!known(a.kernel[i]) || a.kernel[i] >= 1, "weight W has an empty kernel: shape ", to_string(w));
    if (!p.strides.empty()) a.stride[i] = p.strides[i];
    if (!p.dilations.empty()) a.dilation[i] = p.dilations[i];
  }
  return a;
}

ConvParams parse_conv(const Node& node) {
  check_node(node, 2, 3, {"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"});
  ConvParams p;
  static_cast<ConvWindow&>(p) = parse_conv_window(node);
  return p;
}

void take_bias_and_window(ConvGeometry& g, const std::vector<ValueInfo>& in, WindowAxes&& axes, const char* m_is,
                          const char* m_channels) {
  g.has_bias = present(in, 2);
  if (g.has_bias) {
    const Shape& b = in[2].shape;
    require(b.size() == 1, "bias B must be 1-D [M], got shape ", to_string(b));
    require(!known(b[0]) || !known(g.M) || b[0] == g.M, "bias B has ", b[0], " values; ", m_is, g.M, m_channels);
  }
  g.in = std::move(axes.in);
  g.kernel = std::move(axes.kernel);
  g.stride = std::move(axes.stride);
  g.dilation = std::move(axes.dilation);
  g.pad_begin.assign(g.in.size(), 0);
  g.pad_end.assign(g.in.size(), 0);
}

ConvGeometry resolve_conv_geometry(const ConvParams& p, const std::vector<ValueInfo>& in) {
  const Shape& x = input(in, 0).shape;
  const Shape& w = input(in, 1).shape;
  WindowAxes axes = window_axes(p, x, w);
  const size_t k = axes.in.size();

  ConvGeometry g;
  g.N = x[0];
  g.C = x[1];
  g.M = w[0];
  g.group = p.group;
  if (known(g.C)) {
    require(g.C % g.group == 0, "group ", g.group, " does not divide the ", g.C, " input channels of X");
    g.C_per_group = g.C / g.group;
  } else {
    g.C_per_group = kUnknownDim;
  }
  if (known(g.M)) {
    require(g.M % g.group == 0, "group ", g.group, " does not divide the ", g.M, " output channels (W dim 0)");
    g.M_per_group = g.M / g.group;
  } else {
    g.M_per_group = kUnknownDim;
  }
  if (known(g.C_per_group) && known(w[1]))
    require(w[1] == g.C_per_group, "weight W has ", w[1], " input channels per group (dim 1); expected C / group = ",
            g.C, " / ", g.group, " = ", g.C_per_group);

  take_bias_and_window(g, in, std::move(axes), "W has ", " output channels");
  g.out.resize(k);
  for (size_t i = 0; i < k; ++i) {
    if (!p.pads.empty()) {
      g.pad_begin[i] = p.pads[i];
      g.pad_end[i] = p.pads[k + i];
    }
    resolve_dim(p.auto_pad, g.in[i], g.kernel[i], g.stride[i], g.dilation[i], i, g.pad_begin[i], g.pad_end[i],
                g.out[i]);
  }
  return g;
}

double ConvGeometry::flops(const std::vector<int64_t>& sweep) const {
  return 2.0 * double(N * numel_range(sweep, 0, sweep.size())) * double(C * M_per_group) *
         double(numel_range(kernel, 0, kernel.size()));
}

double conv_flops(const ConvParams& p, const std::vector<ValueInfo>& in) {
  const ConvGeometry g = resolve_conv_geometry(p, in);
  return g.flops(g.out);
}

std::vector<ValueInfo> infer_conv(const ConvParams& p, const std::vector<ValueInfo>& in) {
  require_float32(in);
  return {ValueInfo::of(DType::f32, resolve_conv_geometry(p, in).output_shape())};
}

}  // namespace cnnx
