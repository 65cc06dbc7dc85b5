// DepthToSpace and SpaceToDepth: the reference kernel (plain loops; the oracle the op's other kernels are checked
// against).
#include "ops/tensor/depth_to_space.h"

#include "ops/common/data_movement.h"

namespace cnnx {

void depth_to_space_ref(const DepthToSpaceParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& y = *io.out[0];
  const std::vector<ValueInfo> want = infer_depth_to_space(p, {ValueInfo::of(x.dtype(), x.shape())});
  if (want[0].shape != y.shape()) fail("output shape ", to_string(y.shape()), " does not match ", to_string(want[0].shape));
  const int64_t b = p.blocksize;
  // The small (space) side: [N, C, H, W] with C the channels of the space side.
  const Shape& big = p.to_space ? y.shape() : x.shape();  // [N, C, H*b, W*b]
  const int64_t N = big[0], C = big[1], H = big[2] / b, W = big[3] / b;
  visit_bits(x.dtype(), [&](auto bits) {
    using U = decltype(bits);
    const U* s = static_cast<const U*>(x.raw());
    U* d = static_cast<U*>(y.raw());
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c)
        for (int64_t i = 0; i < b; ++i)
          for (int64_t j = 0; j < b; ++j) {
            const int64_t depth = p.crd ? c * b * b + i * b + j : (i * b + j) * C + c;
            for (int64_t h = 0; h < H; ++h)
              for (int64_t w = 0; w < W; ++w) {
                const int64_t space_at = ((n * C + c) * H * b + h * b + i) * W * b + w * b + j;
                const int64_t depth_at = ((n * C * b * b + depth) * H + h) * W + w;
                if (p.to_space) d[space_at] = s[depth_at];
                else d[depth_at] = s[space_at];
              }
          }
  });
}

}  // namespace cnnx
