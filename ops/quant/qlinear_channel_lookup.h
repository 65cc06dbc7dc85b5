// cnnx.internal QLinearChannelLookup: int8 inputs joined along the channels (axis 1), each element mapped
// through its output channel's table: made by the fold-qdq pass (passes/fold_qdq.cc) from
// DQ(x_0), DQ(x_1), ... -> Concat -> per-channel float ops (BatchNormalization, Relu, Clip, ...) -> Q, and from
// DQ(x) -> per-channel float ops -> Q (DenseNet's Concat -> BatchNormalization -> Relu before each convolution).
//
//   inputs  table (a constant [C, 256] of y's type, int8 or uint8), then x_0, x_1, ... (int8 or uint8, rank >= 2,
//           alike but for axis 1, whose sizes sum to C)
//   y[n, c, ...] = table[c, byte(x_i[n, c - c_i, ...])]     x_i the input holding channel c from c_i on;
//                                                            byte: the two's complement byte, 0..255
//
// The pass fills row c by running the replaced nodes' reference kernels on all 256 values of the byte that
// lands in channel c, so the node gives exactly what the reference path of the QDQ graph gives (as
// QLinearLookup, ops/quant/qlinear_lookup.h, for one table). Exact (kExact) against its own reference.
#pragma once

#include "engine/op.h"

namespace cnnx {

NoParams parse_qlinear_channel_lookup(const Node& node);
std::vector<ValueInfo> infer_qlinear_channel_lookup(const NoParams& p, const std::vector<ValueInfo>& in);
void qlinear_channel_lookup_ref(const NoParams& p, const KernelIO& io);
// Plain or channels-last, as QLinearConcat's native kernel (ops/quant/qlinear_concat_dnnl.cc); exact.
Kernel<NoParams> qlinear_channel_lookup_native_kernel();

}  // namespace cnnx
