// Split: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/tensor/split.h"

#include <cstring>

#include "ops/common/data_movement.h"

namespace cnnx {

void split_ref(const SplitParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  const size_t axis = size_t(normalize_axis(p.axis, x.rank(), "axis"));
  std::vector<int64_t> given;
  const std::vector<int64_t>* sizes_arg = p.has_split ? &p.split : nullptr;
  if (p.split_from_input && io.optional_in(1)) {
    given = ints_of(io.in[1], "split");
    sizes_arg = &given;
  }
  const std::vector<int64_t> sizes = split_part_sizes(p, x.dim(int64_t(axis)), sizes_arg);
  const size_t elem = dtype_size(x.dtype());
  const int64_t outer = numel_range(x.shape(), 0, axis);
  const size_t inner = size_t(numel_range(x.shape(), axis + 1, x.shape().size())) * elem;
  const size_t row = size_t(x.dim(int64_t(axis))) * inner;
  size_t at = 0;  // byte offset of the part within one outer row
  for (size_t i = 0; i < sizes.size(); ++i) {
    const size_t block = size_t(sizes[i]) * inner;
    Tensor* y = i < io.out.size() ? io.out[i] : nullptr;
    if (y) {
      Shape want = x.shape();
      want[axis] = sizes[i];
      if (y->shape() != want) fail("output ", i, " shape ", to_string(y->shape()), " does not match ", to_string(want));
      char* dst = static_cast<char*>(y->raw());
      const char* src = static_cast<const char*>(x.raw()) + at;
      if (block)
        for (int64_t o = 0; o < outer; ++o) std::memcpy(dst + size_t(o) * block, src + size_t(o) * row, block);
    }
    at += block;
  }
}

}  // namespace cnnx
