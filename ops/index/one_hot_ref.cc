// OneHot: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include <cmath>
#include <cstring>

#include "ops/index/one_hot.h"

namespace cnnx {

void one_hot_ref(const OneHotParams& p, const KernelIO& io) {
  const Tensor& indices = *io.in[0];
  const Tensor& values = *io.in[2];
  Tensor& y = *io.out[0];
  const int64_t depth = one_hot_depth(*io.in[1]);
  require(values.numel() == 2, "values must hold [off_value, on_value], got ", values.numel(), " elements");
  const int64_t axis = normalize_axis(p.axis, y.rank(), "axis");
  require(y.dim(axis) == depth, "depth is ", depth, "; the output was planned with ", y.dim(axis));
  // y is [outer, depth, inner] around the axis; indices are [outer, inner].
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= y.dim(d);
  const int64_t inner = outer * depth ? y.numel() / (outer * depth) : 0;
  const size_t elem = dtype_size(y.dtype());
  const char* off = static_cast<const char*>(values.raw());
  const char* on = off + elem;
  char* out = static_cast<char*>(y.raw());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < depth; ++k)
      for (int64_t i = 0; i < inner; ++i) std::memcpy(out + size_t((o * depth + k) * inner + i) * elem, off, elem);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      const double raw = indices.double_at(o * inner + i);
      if (!(std::fabs(raw) < double(depth) + 1)) continue;  // NaN, infinities and far values: a row of off
      int64_t k = int64_t(raw);  // toward 0
      if (k < 0 && p.negative_indices) k += depth;
      if (k < 0 || k >= depth) continue;
      std::memcpy(out + size_t((o * depth + k) * inner + i) * elem, on, elem);
    }
}

}  // namespace cnnx
