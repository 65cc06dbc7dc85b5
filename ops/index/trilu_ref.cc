// Trilu: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/index/trilu.h"

#include <cstring>

#include "ops/common/data_movement.h"

namespace cnnx {

void trilu_ref(const TriluParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& y = *io.out[0];
  if (y.shape() != x.shape() || y.dtype() != x.dtype()) fail("output does not match the input");
  int64_t k = 0;
  if (io.optional_in(1)) {
    require(io.in[1]->numel() == 1, "k must be a scalar");
    k = io.in[1]->int_at(0);
  }
  const int64_t rank = x.rank(), rows = x.dim(rank - 2), cols = x.dim(rank - 1);
  const int64_t mats = rows * cols != 0 ? x.numel() / (rows * cols) : 0;
  const size_t elem = dtype_size(x.dtype());
  const char* s = static_cast<const char*>(x.raw());
  char* d = static_cast<char*>(y.raw());
  for (int64_t m = 0; m < mats; ++m)
    for (int64_t i = 0; i < rows; ++i) {
      const size_t row = size_t((m * rows + i) * cols) * elem;
      for (int64_t j = 0; j < cols; ++j) {
        // j - i and k compared without overflow: |j - i| < 2^52, k any int64.
        const int64_t diff = j - i;
        const bool keep = p.upper ? diff >= k : diff <= k;
        if (keep) std::memcpy(d + row + size_t(j) * elem, s + row + size_t(j) * elem, elem);
        else std::memset(d + row + size_t(j) * elem, 0, elem);
      }
    }
}

}  // namespace cnnx
