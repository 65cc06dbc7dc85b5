// Unique: the reference kernel.
#include "ops/index/unique.h"

#include <cstring>

namespace cnnx {

void unique_ref(const UniqueParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  const UniqueGroups g = unique_groups(p, x);
  const int64_t count = int64_t(g.first.size());
  Tensor& y = *io.out[0];
  const int64_t axis = p.axis ? normalize_axis(*p.axis, x.rank(), "axis") : 0;
  const Shape shape = p.axis ? x.shape() : Shape{x.numel()};
  const int64_t planned = p.axis ? y.dim(axis) : y.numel();
  require(planned == count, "X has ", count, " unique ", p.axis ? "slices" : "elements", "; the output was planned for ",
          planned);
  const size_t outer = size_t(numel_range(shape, 0, size_t(axis))), along = size_t(shape[size_t(axis)]);
  const size_t slice = size_t(numel_range(shape, size_t(axis) + 1, shape.size())) * dtype_size(x.dtype());
  for (size_t o = 0; o < outer; ++o)
    for (size_t u = 0; u < size_t(count); ++u)
      std::memcpy(static_cast<char*>(y.raw()) + (o * size_t(count) + u) * slice,
                  static_cast<const char*>(x.raw()) + (o * along + size_t(g.first[u])) * slice, slice);
  const std::vector<int64_t>* lists[] = {&g.first, &g.inverse, &g.counts};
  for (size_t k = 1; k < 4 && k < io.out.size(); ++k)
    if (io.out[k]) std::copy(lists[k - 1]->begin(), lists[k - 1]->end(), io.out[k]->data<int64_t>());
}

}  // namespace cnnx
