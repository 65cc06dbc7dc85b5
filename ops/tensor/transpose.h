// Transpose: output dim i is input dim perm[i]; perm defaults to the reversed axes.
#pragma once

#include <vector>

#include "engine/op.h"

namespace cnnx {

struct TransposeParams : OpParams {
  bool has_perm = false;
  std::vector<int64_t> perm;  // checked against the input rank in infer
};

TransposeParams parse_transpose(const Node& node);
std::vector<ValueInfo> infer_transpose(const TransposeParams& p, const std::vector<ValueInfo>& in);
// The permutation for an input of `rank`, validated.
std::vector<int64_t> resolve_perm(const TransposeParams& p, int64_t rank);

void transpose_ref(const TransposeParams& p, const KernelIO& io);
// oneDNN: one reorder from the input, in the layout it arrives in (ops/tensor/transpose_dnnl.cc).
Kernel<TransposeParams> transpose_dnnl_kernel();

}  // namespace cnnx
