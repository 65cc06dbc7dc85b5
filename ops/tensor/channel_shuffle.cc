// ChannelShuffle (cnnx.internal): shape inference and the reference kernel.
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

void channel_shuffle_ref(const ChannelShuffleParams& p, const KernelIO& io) {
  Tensor& y = *io.out[0];
  const int64_t N = y.dim(0), C = y.dim(1), g = p.groups, K = C / g;
  const size_t plane = size_t(numel_range(y.shape(), 2, y.shape().size())) * dtype_size(y.dtype());
  char* dst = static_cast<char*>(y.raw());
  for (int64_t n = 0; n < N; ++n)
    for (int64_t i = 0; i < g; ++i)
      for (int64_t k = 0; k < K; ++k) {
        // X's channel i * K + k: in the one input, or channel k of input i.
        const bool one = io.in.size() == 1;
        const Tensor& x = *io.in[one ? 0 : size_t(i)];
        const int64_t c = one ? i * K + k : k, channels = one ? C : K;
        std::memcpy(dst + size_t(n * C + k * g + i) * plane,
                    static_cast<const char*>(x.raw()) + size_t(n * channels + c) * plane, plane);
      }
}

}  // namespace cnnx
