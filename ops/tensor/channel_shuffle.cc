// ChannelShuffle (cnnx.internal): shape inference (the reference kernel: channel_shuffle_ref.cc).
#include "ops/tensor/channel_shuffle.h"

#include <cstring>

namespace cnnx {

ChannelShuffleParams parse_channel_shuffle(const Node&) {
  fail("ChannelShuffle is made by cnnx's channel-shuffle pass, not read from models");
}

std::vector<ValueInfo> infer_channel_shuffle(const ChannelShuffleParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  require(x.rank() >= 2, "expects rank 2 or more, got ", to_string(x.shape));
  require(p.groups >= 1 && (in.size() == 1 || int64_t(in.size()) == p.groups), "expects 1 or ", p.groups,
          " inputs, got ", in.size());
  for (size_t i = 1; i < in.size(); ++i)
    require(input(in, i).shape == x.shape && in[i].dtype == x.dtype, "input ", i, " differs from input 0");
  ValueInfo y = same_as_input(in);
  if (in.size() > 1) y.shape[1] = checked_mul(x.shape[1], p.groups, "channels");
  require(y.shape[1] % p.groups == 0, to_string(y.shape), " has ", y.shape[1], " channels, not a multiple of ",
          p.groups, " groups");
  return {y};
}

}  // namespace cnnx
