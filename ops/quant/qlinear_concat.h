// com.microsoft QLinearConcat (ONNX Runtime's contrib op): Concat of quantized tensors, each requantized to
// the output's scale and zero point.
//
//   inputs  Y_scale, Y_zero_point, then per input X_i, X_i_scale, X_i_zero_point      (attribute axis, required)
//   Y = concat_axis(saturate(round_half_even((X_i - X_i_zp) X_i_scale / Y_scale) + Y_zp))
//
// Every X_i and Y share one type, int8 or uint8; scales and zero points one value each. (X - zp) X_scale is
// exact in double and the division rounds once, so an input with Y's scale and zero point is copied exactly;
// others are within one quantization step of an engine computing in float32 (kOneQuantStep).
#pragma once

#include "engine/op.h"

namespace cnnx {

struct QLinearConcatParams : OpParams {
  int64_t axis = 0;  // as given; normalized against the inputs' rank
};

QLinearConcatParams parse_qlinear_concat(const Node& node);
std::vector<ValueInfo> infer_qlinear_concat(const QLinearConcatParams& p, const std::vector<ValueInfo>& in);
void qlinear_concat_ref(const QLinearConcatParams& p, const KernelIO& io);
// Tables of each input's 256 values, plain or channels-last (ops/quant/qlinear_concat_dnnl.cc); exact.
Kernel<QLinearConcatParams> qlinear_concat_native_kernel();

}  // namespace cnnx
