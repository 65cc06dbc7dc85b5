// com.microsoft QLinearGlobalAveragePool (ONNX Runtime's contrib op):
//
//   inputs  X, x_scale, x_zero_point, y_scale, y_zero_point                   (zero points optional)
//   Y[n, c] = saturate(round_half_even(sum (X[n, c, ..] - x_zp) * (x_scale / y_scale / count)) + y_zp)
//
// over the spatial cells of X [N, C, D1..Dk] (k >= 1), or X [N, D1..Dk, C] with channels_last = 1; Y keeps the
// rank with every spatial dim 1. X and Y share one type, int8 or uint8; scales and zero points one value each.
// The sum is exact (int64); the multiplier is computed in double and applied once: within one quantization
// step of an engine averaging in float32 (kOneQuantStep).
#pragma once

#include "engine/op.h"

namespace cnnx {

struct QLinearGlobalAveragePoolParams : OpParams {
  bool channels_last = false;
};

QLinearGlobalAveragePoolParams parse_qlinear_global_average_pool(const Node& node);
std::vector<ValueInfo> infer_qlinear_global_average_pool(const QLinearGlobalAveragePoolParams& p,
                                                         const std::vector<ValueInfo>& in);
void qlinear_global_average_pool_ref(const QLinearGlobalAveragePoolParams& p, const KernelIO& io);

}  // namespace cnnx
