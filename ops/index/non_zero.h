// NonZero (opsets 9, 13): the indices of the nonzero elements of X (any element type; NaN is nonzero, -0 is
// zero), as int64 [rank, count] in row-major order. The count depends on X's data: infer gives it when X's
// data is known (a constant, an integer or bool graph input, which plans carry); otherwise the plan ends at the
// node and plans what follows per count (OpHints::shapes_from_data, runtime/plan.h). Exact (kExact).
#pragma once

#include "engine/op.h"

namespace cnnx {

std::vector<ValueInfo> infer_non_zero(const NoParams& p, const std::vector<ValueInfo>& in);
void non_zero_ref(const NoParams& p, const KernelIO& io);
// The number of nonzero elements of `x`.
int64_t count_non_zero(const Tensor& x);

}  // namespace cnnx
