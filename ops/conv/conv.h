// Conv (ONNX opset 1..19): X [N, C, D1..Dk] * W [M, C/group, K1..Kk] (+ B [M]) -> Y [N, M, O1..Ok], k = 1..3.
//
// parse_conv validates the attributes on their own (positive strides/dilations/kernel_shape, non-negative
// pads, group >= 1, consistent lengths). resolve_conv_geometry validates them against the input shapes and
// resolves auto_pad into explicit pads and output sizes; infer and every kernel call it, so the geometry is
// derived in exactly one place. At load time dims may be kUnknownDim; what depends on them is kUnknownDim too.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/op.h"
#include "ops/common/sum_of_products.h"

namespace cnnx {

enum class AutoPad { notset, same_upper, same_lower, valid };

// The window attributes Conv and ConvTranspose share, as given; an empty vector means "not given" (defaults
// need the rank, known at infer).
struct ConvWindow {
  AutoPad auto_pad = AutoPad::notset;
  int64_t group = 1;
  std::vector<int64_t> kernel_shape;  // must agree with W's spatial dims when given
  std::vector<int64_t> strides;       // default 1
  std::vector<int64_t> dilations;     // default 1
  std::vector<int64_t> pads;          // [begin_1..begin_k, end_1..end_k], default 0; only with auto_pad NOTSET
};

struct ConvParams : OpParams, ConvWindow {};

// Reads and validates the window attributes: positive kernel_shape, strides and dilations, non-negative pads
// (two per axis, none with auto_pad), group >= 1, and every per-axis attribute (with `more_axes`: other
// attributes' names and axis counts) describing one number of spatial axes.
ConvWindow parse_conv_window(const Node& node, std::vector<std::pair<const char*, size_t>> more_axes = {});
// Per spatial axis of X [N, C, D1..Dk] (k = 1..3): its size, the kernel (W's dims 2.., which kernel_shape must
// agree with), stride and dilation (default 1). Checks W has X's rank and the attributes' lengths; dims may be
// kUnknownDim.
struct WindowAxes {
  std::vector<int64_t> in, kernel, stride, dilation;
};
WindowAxes window_axes(const ConvWindow& p, const Shape& x, const Shape& w);

// Everything a kernel needs, per spatial dim i (0..k-1). Pads are explicit whatever auto_pad said:
// output position o reads input positions o * stride - pad_begin + j * dilation, j = 0..kernel-1; positions
// outside [0, in) are zeros.
struct ConvGeometry {
  int64_t N = 0, C = 0, M = 0, group = 1;
  int64_t C_per_group = 0, M_per_group = 0;  // kUnknownDim while C / M are unknown
  bool has_bias = false;
  std::vector<int64_t> in, kernel, stride, dilation, pad_begin, pad_end, out;

  size_t spatial_rank() const { return in.size(); }
  Shape input_shape() const;   // [N, C, in...]
  Shape output_shape() const;  // [N, M, out...]
  // 2 flops (one multiply-add) for every cell of `sweep` (out for Conv, in for ConvTranspose) times every tap
  // of every (input, output) channel pair of its group: 2 * N * prod(sweep) * C * M / group * prod(kernel).
  double flops(const std::vector<int64_t>& sweep) const;
};

ConvParams parse_conv(const Node& node);
// in = {X, W[, B]}. Throws cnnx::Error naming the attribute or input when the shapes and attributes disagree.
ConvGeometry resolve_conv_geometry(const ConvParams& p, const std::vector<ValueInfo>& in);
// The step Conv's and ConvTranspose's geometries share, after g.M is set: checks the bias B (in[2], if present)
// against M (the message says "bias B has b values; " m_is M m_channels) and takes the window axes, pads 0.
void take_bias_and_window(ConvGeometry& g, const std::vector<ValueInfo>& in, WindowAxes&& axes, const char* m_is,
                          const char* m_channels);
std::vector<ValueInfo> infer_conv(const ConvParams& p, const std::vector<ValueInfo>& in);
// OpHints::flops: 2 * N * M * prod(out) * C/group * prod(kernel), taps that fall in the padding included.
double conv_flops(const ConvParams& p, const std::vector<ValueInfo>& in);

// The reference kernel: direct loops over NCHW, sums in double, one rounding per output.
Kernel<ConvParams> conv_ref_kernel();
// The same for FusedConv's reference (in = {X, W[, B]}).
std::unique_ptr<CompiledKernel> conv_ref(const ConvParams& p, const std::vector<ValueInfo>& in);
// oneDNN convolution_forward on the same geometry; declines non-float32 inputs and cases oneDNN refuses.
Kernel<ConvParams> conv_dnnl_kernel();

// Each output is a dot product of K = C/group * prod(kernel) float32 terms (plus the bias). The reference
// sums in double and rounds once (<= 0.5 ulp). An engine summing in float32 is off by an amount that scales
// with sqrt(K) and the terms' magnitude sum |w x| + |b|, not with |result|: terms_rel (ops/common/sum_of_products.h
// has the derivation), also where a bias (a folded BatchNorm's mean) cancels the dot product to a result far
// smaller than its terms; abs and rel cover the final roundings, results near 0 and FusedConv's activation.
constexpr Tolerance kConvTolerance{1e-5, 2e-5, kSumOfProductsTermsRel};

}  // namespace cnnx
