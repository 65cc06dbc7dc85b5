// Gather: output = data.shape[:axis] + indices.shape + data.shape[axis+1:], picking slices of data along
// `axis`. Indices (int32/int64) may be negative (counted from the end); one outside [-n, n) is a
// cnnx::Error when it is known (at load or plan time if constant, otherwise when the kernel runs), never
// an out-of-bounds read.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct GatherParams : OpParams {
  int64_t axis = 0;  // normalized against the data rank in infer
};

GatherParams parse_gather(const Node& node);
std::vector<ValueInfo> infer_gather(const GatherParams& p, const std::vector<ValueInfo>& in);
void gather_ref(const GatherParams& p, const KernelIO& io);
// oneDNN: one reorder from the input's sub-memory at one constant index (ops/index/gather_dnnl.cc).
Kernel<GatherParams> gather_dnnl_kernel();
// Index i (entry at of the indices) mapped into [0, n), or throws naming the entry and the axis.
int64_t checked_gather_index(int64_t i, int64_t n, int64_t at, int64_t axis);

}  // namespace cnnx
