// The exact integer convolution behind ConvInteger and QLinearConv: Conv's geometry (ops/conv/conv.h:
// resolve_conv_geometry, 1- to 3-D, groups, pads, strides, dilations, auto_pad) over X and W (int8/uint8)
// after subtracting zero points,
//
//   acc[n, m, o..] = sum_{c, taps inside X} (X[n, c, i..] - x_zp) * (W[m, c, k..] - w_zp[m])
//
// summed in int64 (exact). Taps in the padding add nothing: padding is the real value 0, the zero point in
// the quantized domain (as ONNX Runtime pads with x_zero_point). w_zp holds one value or one per output
// channel m.
#pragma once

#include <vector>

#include "engine/tensor.h"
#include "ops/conv/conv.h"

namespace cnnx {

// The sums in the output's row-major order (g.output_shape()).
std::vector<int64_t> integer_conv(const Tensor& X, const Tensor& W, const ConvGeometry& g, int64_t x_zp,
                                  const std::vector<int64_t>& w_zp);

}  // namespace cnnx
