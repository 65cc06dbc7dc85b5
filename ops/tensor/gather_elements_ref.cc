// GatherElements: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/tensor/gather_elements.h"

#include "ops/tensor/common.h"

namespace cnnx {

std::vector<int64_t> element_offsets(const Tensor& data, const Tensor& indices, size_t axis) {
  const int64_t count = indices.numel();
  const int64_t n = data.dim(int64_t(axis));
  const size_t rank = data.shape().size();
  const std::vector<int64_t> ds = strides_of(data.shape());
  std::vector<int64_t> at(static_cast<size_t>(count));
  std::vector<int64_t> idx(rank, 0);
  int64_t base = 0;  // data offset of idx with the axis coordinate left out
  for (int64_t k = 0; k < count; ++k) {
    const int64_t i = indices.int_at(k);
    require(i >= -n && i < n, "index ", i, " (entry ", k, " of the indices) is out of range for axis ", axis,
            " of size ", n);
    at[size_t(k)] = base + (i < 0 ? i + n : i) * ds[axis];
    for (size_t a = rank; a-- > 0;) {
      if (++idx[a] < indices.dim(int64_t(a))) {
        if (a != axis) base += ds[a];
        break;
      }
      if (a != axis) base -= ds[a] * (idx[a] - 1);
      idx[a] = 0;
    }
  }
  return at;
}

void gather_elements_ref(const GatherElementsParams& p, const KernelIO& io) {
  const Tensor& data = *io.in[0];
  const Tensor& indices = *io.in[1];
  Tensor& y = *io.out[0];
  const size_t axis = size_t(normalize_axis(p.axis, data.rank(), "axis"));
  check_gather_elements_shapes(data.shape(), indices.shape(), axis);
  if (y.shape() != indices.shape() || y.dtype() != data.dtype()) fail("output does not match the indices");
  const std::vector<int64_t> src_at = element_offsets(data, indices, axis);
  const int64_t count = indices.numel();
  visit_bits(data.dtype(), [&](auto bits) {
    using U = decltype(bits);
    const U* s = static_cast<const U*>(data.raw());
    U* d = static_cast<U*>(y.raw());
    for (int64_t k = 0; k < count; ++k) d[k] = s[src_at[size_t(k)]];
  });
}

}  // namespace cnnx
