// Split: input 0 cut along `axis` (default 0) into consecutive parts, one per output. The part sizes come
// from the attribute `split` (opset 1-12), from input 1 `split` (opset 1 and 13+; 1-D int64), or else equal
// parts: before opset 18 the axis must divide evenly; from 18 on `num_outputs` (equal to the number of
// outputs) gives parts of ceil(dim / num_outputs) with a smaller last one. Sizes must be >= 0 and add up to
// the axis's dim: anything else is an error.
#pragma once

#include <vector>

#include "engine/op.h"

namespace cnnx {

struct SplitParams : OpParams {
  int64_t axis = 0;
  size_t outputs = 1;             // the node's output count
  bool split_from_input = false;  // input 1 may hold the sizes
  bool has_split = false;         // attribute form
  std::vector<int64_t> split;
  int64_t num_outputs = 0;        // opset 18; 0 when absent
};

SplitParams parse_split(const Node& node);
std::vector<ValueInfo> infer_split(const SplitParams& p, const std::vector<ValueInfo>& in);
void split_ref(const SplitParams& p, const KernelIO& io);
// The part sizes from params and a constant input 1, or false when input 1 is known only at run time.
bool constant_split_sizes(const SplitParams& p, const std::vector<ValueInfo>& in, std::vector<int64_t>& sizes);
// oneDNN: per output, one reorder from a sub-memory view of the input in the layout it arrives in (split_dnnl.cc).
Kernel<SplitParams> split_dnnl_kernel();
// Part sizes for an axis of size dim (kUnknownDim: sizes that depend on it are unknown).
std::vector<int64_t> split_part_sizes(const SplitParams& p, int64_t dim, const std::vector<int64_t>* given);

}  // namespace cnnx
