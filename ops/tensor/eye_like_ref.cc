// EyeLike: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/tensor/eye_like.h"

#include <cstring>

namespace cnnx {

void eye_like_ref(const EyeLikeParams& p, const KernelIO& io) {
  Tensor& y = *io.out[0];
  const Shape& s = io.in[0]->shape();
  require(s.size() == 2 && y.shape() == s, "the output ", to_string(y.shape()), " does not match input 0 ",
          to_string(s));
  if (y.bytes()) std::memset(y.raw(), 0, y.bytes());
  const int64_t rows = s[0], cols = s[1];
  // Row i holds its one at column i + k when that is inside [0, cols); k is any int64, compared without overflow.
  const int64_t first = p.k >= 0 ? 0 : (p.k <= -rows ? rows : -p.k);
  visit_dtype(y.dtype(), [&](auto zero) {
    using T = decltype(zero);
    T* d = y.data<T>();
    for (int64_t i = first; i < rows && (p.k < 0 ? i + p.k < cols : p.k < cols - i); ++i) d[i * cols + i + p.k] = T(1);
  });
}

}  // namespace cnnx
