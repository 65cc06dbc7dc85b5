// cnnx.internal QLinearLookup: y = table[x], elementwise, made by the fold-qdq pass (passes/fold_qdq.cc) from
// DQ(x) -> elementwise float ops of that one value (Swish's Sigmoid and Mul, Relu, Clip, HardSigmoid, ...) -> Q.
//
//   inputs  x (int8 or uint8), table (a constant of 256 values, of y's type, int8 or uint8)
//   y[i] = table[byte(x[i])]          byte: x's two's complement byte, 0..255 (uint8 x: x itself)
//
// The pass fills the table by running the replaced nodes' reference kernels on all 256 values of x, so the
// node gives exactly what the reference path of the QDQ graph gives; against oneDNN's float kernels (whose
// Sigmoid is an approximation) it may differ where those round across a step. Exact (kExact) against its own
// reference.
#pragma once

#include "engine/op.h"

namespace cnnx {

std::vector<ValueInfo> infer_qlinear_lookup(const NoParams& p, const std::vector<ValueInfo>& in);
void qlinear_lookup_ref(const NoParams& p, const KernelIO& io);
// The same over the team, 32 bytes a step by vpshufb where the CPU has AVX2, in any dense layout x arrives in
// (an int8 convolution's channels-last).
Kernel<NoParams> qlinear_lookup_native_kernel();

}  // namespace cnnx
