// ChannelShuffle (domain cnnx.internal): ShuffleNet's channel shuffle, made only by the channel-shuffle
// graph pass (passes/channel_shuffle.cc) from [Concat ->] Reshape [N, g, C/g, ...] -> Transpose (dims 1 and
// 2 swapped) -> Reshape [N, C, ...]; never read from a model.
//
//   X = the one input, or the Concat of g inputs of C/g channels each along dim 1
//   Y[n, k * g + i, ...] = X[n, i * (C / g) + k, ...]      i < g, k < C / g
//
// The oneDNN kernel is one reorder per input, between strided views of its buffer and Y's in the layout
// the inputs arrive in (plain or channels-last), so channels-last convolutions around it need no reorder
// (the Reshapes need plain data) and the Concat is never copied.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct ChannelShuffleParams : OpParams {
  int64_t groups = 1;  // g: C is a multiple of it; the node has 1 or g inputs
};

// Throws: the op is made by the pass, which sets the params itself.
ChannelShuffleParams parse_channel_shuffle(const Node& node);
std::vector<ValueInfo> infer_channel_shuffle(const ChannelShuffleParams& p, const std::vector<ValueInfo>& in);
void channel_shuffle_ref(const ChannelShuffleParams& p, const KernelIO& io);
// One reorder per input (ops/tensor/channel_shuffle_dnnl.cc).
Kernel<ChannelShuffleParams> channel_shuffle_dnnl_kernel();

}  // namespace cnnx
