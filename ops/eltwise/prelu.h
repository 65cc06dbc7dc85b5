// PRelu (ONNX opsets 1, 6, 7, 9, 16), float32: y = x < 0 ? slope * x : x, with `slope` broadcast
// unidirectionally (numpy rules, onto X's shape: the output has X's shape). Opset 1 takes the legacy
// `consumed_inputs` (an in-place hint of old runtimes, no effect on the result). Opsets 1 and 6 document only
// a slope of X's shape or of one element; both are unidirectional broadcasts, which every opset accepts.
// A NaN x is not < 0 and passes through, as ONNX's function body (Where(Less(X, 0), Mul(slope, X), X)) gives.
// Leniency: PyTorch's exports of nn.PReLU(C) at opsets 1-6 give a 1-D slope of X's channel count (dim 1),
// which those opsets' text ("shared across channels" when of size 1) means per channel, and which ONNX's
// pytorch-converted suites expect per channel; opset 7's numpy broadcast would put it on the last axis. Below
// opset 7 such a slope is read per channel (slope_shape), with a warning at load (prelu_caution), as ONNX
// Runtime reads it.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct PReluParams : OpParams {
  bool legacy_channel_slope = false;  // opsets 1 and 6: a 1-D slope of X's dim 1 is per channel
};

// One multiply or a copy per element: exact (a product's only other difference is the sign of a zero:
// -0 * a negative slope).
constexpr Tolerance kPReluTolerance = kExact;

PReluParams parse_prelu(const Node& node);
// Checks that slope broadcasts onto X (unidirectionally); the output is X's.
std::vector<ValueInfo> infer_prelu(const PReluParams& p, const std::vector<ValueInfo>& in);
// The shape the slope broadcasts as: [C, 1, ..., 1] for the legacy per-channel slope, else its own.
Shape slope_shape(const PReluParams& p, const Shape& x, const Shape& slope);
// The warning for a legacy per-channel slope (OpHints::caution), "" otherwise.
std::string prelu_caution(const PReluParams& p, const std::vector<ValueInfo>& in);
void prelu_ref(const PReluParams& p, const KernelIO& io);
// oneDNN prelu_forward with the slope as weights of X's rank (leading 1s): oneDNN takes a slope whose dims
// each equal X's or are 1, and declines the broadcasts it has no kernel for (ops/eltwise/prelu_dnnl.cc).
Kernel<PReluParams> prelu_dnnl_kernel();

}  // namespace cnnx
