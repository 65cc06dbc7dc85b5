// PRelu (ONNX opsets 1, 6, 7, 9, 16), float32: y = x < 0 ? slope * x : x, with `slope` broadcast
// unidirectionally (numpy rules, onto X's shape: the output has X's shape). Opset 1 takes the legacy
// `consumed_inputs` (an in-place hint of old runtimes, no effect on the result). Opsets 1 and 6 document only
// a slope of X's shape or of one element; both are unidirectional broadcasts, which every opset accepts.
// A NaN x is not < 0 and passes through, as ONNX's function body (Where(Less(X, 0), Mul(slope, X), X)) gives.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct PReluParams : OpParams {};

// One multiply or a copy per element: exact (a product's only other difference is the sign of a zero:
// -0 * a negative slope).
constexpr Tolerance kPReluTolerance = kExact;

PReluParams parse_prelu(const Node& node);
// Checks that slope broadcasts onto X (unidirectionally); the output is X's.
std::vector<ValueInfo> infer_prelu(const PReluParams& p, const std::vector<ValueInfo>& in);
void prelu_ref(const PReluParams& p, const KernelIO& io);
// oneDNN prelu_forward with the slope as weights of X's rank (leading 1s): oneDNN takes a slope whose dims
// each equal X's or are 1, and declines the broadcasts it has no kernel for (ops/eltwise/prelu_dnnl.cc).
Kernel<PReluParams> prelu_dnnl_kernel();

}  // namespace cnnx
