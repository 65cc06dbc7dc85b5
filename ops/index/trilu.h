// Trilu (opset 14+): keeps the upper (upper = 1, default) or lower triangle of each matrix in the last two
// dims of input 0 (rank >= 2, any element type) and zeroes the rest. Element (i, j) is kept when
// j - i >= k (upper) or j - i <= k (lower); k is the optional int64 scalar input 1 (default 0). kExact.
// Reference kernel only: oneDNN 2.6 has no primitive that masks by element position.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct TriluParams : OpParams {
  bool upper = true;
};

TriluParams parse_trilu(const Node& node);
std::vector<ValueInfo> infer_trilu(const TriluParams& p, const std::vector<ValueInfo>& in);
void trilu_ref(const TriluParams& p, const KernelIO& io);

}  // namespace cnnx
