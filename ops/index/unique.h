// Unique (opset 11): the unique elements of X (without `axis`: of X flattened) or unique slices along `axis`,
// sorted ascending (slices lexicographically, in row-major order of their elements) when `sorted` (default 1),
// else in order of first occurrence. Outputs: Y; indices (int64 [U]: where each first occurs in X);
// inverse_indices (int64, one per element or slice of X: its place in Y); counts (int64 [U]). Equal means
// equal as values (-0 == 0; NaN equals no value, so each NaN is unique, as numpy's unique before 1.21). U
// depends on X's data: infer gives it when that data is known, otherwise the plan ends at the node
// (OpHints::shapes_from_data, runtime/plan.h). Exact (kExact).
#pragma once

#include <optional>

#include "engine/op.h"

namespace cnnx {

struct UniqueParams : OpParams {
  bool sorted = true;
  std::optional<int64_t> axis;
};

// Per unique value or slice, in Y's order: its first index in X and its count; per element or slice of X: its
// place in Y.
struct UniqueGroups {
  std::vector<int64_t> first, counts, inverse;
};

UniqueParams parse_unique(const Node& node);
std::vector<ValueInfo> infer_unique(const UniqueParams& p, const std::vector<ValueInfo>& in);
void unique_ref(const UniqueParams& p, const KernelIO& io);
UniqueGroups unique_groups(const UniqueParams& p, const Tensor& x);

}  // namespace cnnx
