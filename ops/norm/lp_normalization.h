// LpNormalization (opset 1): x divided by its L1 (p = 1) or L2 (p = 2, the default) norm along `axis` (default
// -1), float32. A lane whose norm is 0 gives 0 / 0 = NaN, as ONNX's reference and numpy do. Reference kernel
// only: the norm summed in double, the quotient rounded once; tolerance as ReduceL1/L2's (ops/reduce/reduce.h:
// an engine summing in float32), which the division carries over as a relative error.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct LpNormParams : OpParams {
  int64_t axis = -1;  // as written
  int p = 2;
};

constexpr Tolerance kLpNormTolerance{1e-5, 1e-5};

LpNormParams parse_lp_norm(const Node& node);
std::vector<ValueInfo> infer_lp_norm(const LpNormParams& p, const std::vector<ValueInfo>& in);
void lp_norm_ref(const LpNormParams& p, const KernelIO& io);

}  // namespace cnnx
