// Concat: inputs of one element type and rank, equal dims except along `axis`, joined along it.
#pragma once

#include "engine/op.h"

namespace cnnx {

// axis may be negative (opset 11); it is normalized against the rank in infer. Before opset 4 it defaults
// to 1, from opset 4 on it is required.
struct ConcatParams : OpParams {
  int64_t axis = 1;
};

ConcatParams parse_concat(const Node& node);
std::vector<ValueInfo> infer_concat(const ConcatParams& p, const std::vector<ValueInfo>& in);
// The axis the inputs are joined along, normalized (OpHints::joins_inputs_along).
size_t concat_axis(const ConcatParams& p, const std::vector<ValueInfo>& in);

void concat_ref(const ConcatParams& p, const KernelIO& io);
// The copy both Concat kernels make: for each of `outer` indices, run_bytes[i] bytes of input i (its
// index-th run) written after one another into output 0. The indices are split over the team.
void copy_concat_runs(const KernelIO& io, const std::vector<size_t>& run_bytes, int64_t outer);
// oneDNN concat on float32 inputs in the layouts they arrive in (ops/tensor/concat_dnnl.cc).
Kernel<ConcatParams> concat_dnnl_kernel();
// float32 rank-4/5 inputs arriving channels-last (at least one not also plain), joined along channels into a
// channels-last output whatever layout is wished for it: one copy per pixel and input
// (ops/tensor/concat_channels_last.cc).
Kernel<ConcatParams> concat_channels_last_kernel();

}  // namespace cnnx
