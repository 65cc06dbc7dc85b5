// ConvTranspose (ONNX opset 1..19): X [N, C, D1..Dk] with W [C, M/group, K1..Kk] (+ B [M]) -> Y [N, M, O1..Ok],
// k = 1..3. Each input cell scatters into the output: input position i, tap j lands on output position
// o = i * stride - pad_begin + j * dilation, and only o in [0, out) are kept.
//
// parse_conv_transpose validates the attributes on their own; resolve_conv_transpose_geometry resolves
// auto_pad, output_shape and output_padding into explicit pad_begin and output sizes against the input
// shapes. infer and both kernels call it, so the geometry is derived in exactly one place.
//   out = stride * (in - 1) + output_padding + (kernel - 1) * dilation + 1 - pad_begin - pad_end
// With output_shape the output sizes are given and the total padding follows from the formula (pads are
// ignored): SAME_UPPER puts the larger half at the end, NOTSET and SAME_LOWER at the beginning. With auto_pad
// SAME_* and no output_shape the total padding is max(0, dilated kernel - stride) (out = in * stride +
// output_padding), split the same way as Conv's SAME_*: SAME_UPPER the smaller half first, as ONNX's shape
// inference and onnxruntime do.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/op.h"
#include "ops/conv/conv.h"

namespace cnnx {

struct ConvTransposeParams : OpParams, ConvWindow {
  std::vector<int64_t> output_padding;                          // default 0, each < its stride or dilation
  std::vector<int64_t> output_shape;                            // spatial sizes (k values, or N, C and k)
};

// ConvTranspose's geometry has Conv's fields (in: X's spatial sizes, out: Y's). pad_end is what the formula
// above gives: it may be negative (output_padding, or an output_shape larger than the natural size, adds cells at
// the end that only the bias reaches).
using ConvTransposeGeometry = ConvGeometry;

ConvTransposeParams parse_conv_transpose(const Node& node);
ConvTransposeGeometry resolve_conv_transpose_geometry(const ConvTransposeParams& p, const std::vector<ValueInfo>& in);
std::vector<ValueInfo> infer_conv_transpose(const ConvTransposeParams& p, const std::vector<ValueInfo>& in);
// OpHints::flops: 2 * N * C * prod(in) * M/group * prod(kernel), every input cell times every tap (those that
// land outside the output included).
double conv_transpose_flops(const ConvTransposeParams& p, const std::vector<ValueInfo>& in);

// Scatter loops over NCHW, sums in double, one rounding per output.
Kernel<ConvTransposeParams> conv_transpose_ref_kernel();
// oneDNN deconvolution_forward on the same geometry (ops/conv/conv_transpose_dnnl.cc).
Kernel<ConvTransposeParams> conv_transpose_dnnl_kernel();

// Each output is a sum of at most C/group * prod(kernel) products (plus the bias): the same arithmetic as
// Conv's, so Conv's tolerance and its derivation (ops/conv/conv.h).
constexpr Tolerance kConvTransposeTolerance = kConvTolerance;

}  // namespace cnnx
