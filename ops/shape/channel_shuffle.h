// ChannelShuffle (domain cnnx.internal): ShuffleNet's channel shuffle, made only by the channel-shuffle
// graph pass (passes/channel_shuffle.cc) from Reshape [N, g, C/g, ...] -> Transpose (dims 1 and 2 swapped)
// -> Reshape [N, C, ...]; never read from a model.
//
//   Y[n, k * g + i, ...] = X[n, i * (C / g) + k, ...]      i < g, k < C / g
//
// The oneDNN kernel is one reorder between two strided views of X's and Y's buffers in the layout X arrives
// in (plain or channels-last), so channels-last convolutions around it need no reorder; the Reshapes need
// plain data.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct ChannelShuffleParams : OpParams {
  int64_t groups = 1;  // g: C is a multiple of it
};

}  // namespace cnnx
