// Tile: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/tensor/tile.h"

#include "ops/common/data_movement.h"

namespace cnnx {

void tile_ref(const TileParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& y = *io.out[0];
  const std::vector<int64_t> a = ints_of(io.in[1], "repeats");
  const std::vector<int64_t> b = p.legacy ? ints_of(io.in[2], "axis") : std::vector<int64_t>{};
  const Shape out = tiled_shape(x.shape(), tile_repeats(p, x.rank(), a, b));
  if (out != y.shape()) fail("output shape ", to_string(y.shape()), " does not match ", to_string(out));
  const int64_t n = y.numel();
  if (n == 0) return;
  const size_t rank = out.size();
  const std::vector<int64_t> xs = strides_of(x.shape());
  std::vector<int64_t> idx(rank, 0), src(rank, 0);  // output index and its input index (idx % dim)
  visit_bits(x.dtype(), [&](auto bits) {
    using U = decltype(bits);
    const U* s = static_cast<const U*>(x.raw());
    U* d = static_cast<U*>(y.raw());
    int64_t off = 0;
    for (int64_t k = 0; k < n; ++k) {
      d[k] = s[off];
      for (size_t ax = rank; ax-- > 0;) {
        if (++idx[ax] < out[ax]) {
          if (++src[ax] == x.dim(int64_t(ax))) {
            src[ax] = 0;
            off -= xs[ax] * (x.dim(int64_t(ax)) - 1);
          } else {
            off += xs[ax];
          }
          break;
        }
        off -= xs[ax] * src[ax];
        idx[ax] = 0;
        src[ax] = 0;
      }
    }
  });
}

}  // namespace cnnx
