// com.microsoft QLinearAveragePool (ONNX Runtime's contrib op): AveragePool on quantized tensors.
//
//   inputs  X, x_scale, x_zero_point, y_scale, y_zero_point                    (zero points optional)
//   Y[n, c, o..] = saturate(round_half_even(sum_window (X - x_zp) * (x_scale / y_scale / divisor)) + y_zp)
//
// AveragePool's attributes and geometry (ops/pool/pool_geometry.h: kernel_shape, strides, pads, auto_pad,
// ceil_mode, count_include_pad and its divisor), over X [N, C, D1..Dk] or, with channels_last = 1,
// X [N, D1..Dk, C] (Y in the same order). Padding cells count in the divisor (count_include_pad = 1) as the
// real value 0. X and Y share one type, int8 or uint8; scales and zero points one value each. The window sum is
// exact (int64) and the multiplier applied once in double: within one quantization step of an engine averaging
// in float32 (kOneQuantStep).
#pragma once

#include "engine/op.h"
#include "ops/pool/pool_geometry.h"

namespace cnnx {

struct QLinearAveragePoolParams : OpParams {
  PoolWindow window;
  bool count_include_pad = false;
  bool channels_last = false;
};

QLinearAveragePoolParams parse_qlinear_average_pool(const Node& node);
std::vector<ValueInfo> infer_qlinear_average_pool(const QLinearAveragePoolParams& p, const std::vector<ValueInfo>& in);
void qlinear_average_pool_ref(const QLinearAveragePoolParams& p, const KernelIO& io);

// X's spatial dims (NCHW: dims 2.., channels last: dims 1..rank-2).
Shape qlinear_pool_spatial(const QLinearAveragePoolParams& p, const Shape& x);

}  // namespace cnnx
