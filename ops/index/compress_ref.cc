// Compress: the reference kernel.
#include "ops/index/compress.h"

#include <cstring>

namespace cnnx {

void compress_ref(const CompressParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  const Tensor& condition = *io.in[1];
  Tensor& y = *io.out[0];
  const int64_t axis = p.axis ? normalize_axis(*p.axis, x.rank(), "axis") : 0;
  const Shape shape = p.axis ? x.shape() : Shape{x.numel()};
  const size_t outer = size_t(numel_range(shape, 0, size_t(axis))), along = size_t(shape[size_t(axis)]);
  const size_t slice = size_t(numel_range(shape, size_t(axis) + 1, shape.size())) * dtype_size(x.dtype());
  size_t kept = 0;
  for (int64_t i = 0; i < condition.numel(); ++i) kept += condition.double_at(i) != 0;
  require(y.bytes() == outer * kept * slice, "the condition keeps ", kept, " slices; the output was planned as ",
          to_string(y.shape()));
  char* out = static_cast<char*>(y.raw());
  for (size_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < condition.numel(); ++i)
      if (condition.double_at(i) != 0) {
        std::memcpy(out, static_cast<const char*>(x.raw()) + (o * along + size_t(i)) * slice, slice);
        out += slice;
      }
}

}  // namespace cnnx
