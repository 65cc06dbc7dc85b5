// ChannelShuffle: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/tensor/channel_shuffle.h"

#include <cstring>

namespace cnnx {

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
