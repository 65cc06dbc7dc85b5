// GatherElements: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/index/gather_elements.h"

#include "ops/common/data_movement.h"

namespace cnnx {

std::vector<int64_t> element_offsets(const Tensor& data, const Tensor& indices, size_t axis) {
  const int64_t count = indices.numel();
  const size_t rank = data.shape().size();
  require(rank >= 1 && indices.rank() == int64_t(rank), "indices must have data's rank (1 or more)");
  require(indices.dtype() == DType::i32 || indices.dtype() == DType::i64, "indices must be int32 or int64");
  const int64_t n = data.dim(int64_t(axis));
  const std::vector<int64_t> ds = strides_of(data.shape());
  std::vector<int64_t> at(static_cast<size_t>(count));
  // Row by row of the last axis (Faster R-CNN scatters [R, 256, 7, 7] per FPN level): `base` is the data offset
  // of the row's first entry with the axis coordinate left out; along the row it moves by `step`.
  const int64_t inner = indices.dim(int64_t(rank) - 1), step = axis == rank - 1 ? 0 : ds[rank - 1];
  auto walk = [&](const auto* index) {
    std::vector<int64_t> row(rank, 0);
    int64_t base = 0;
    for (int64_t k = 0; k < count; k += inner) {
      for (int64_t j = 0; j < inner; ++j) {
        const int64_t i = int64_t(index[k + j]);
        if (i < -n || i >= n)
          fail("index ", i, " (entry ", k + j, " of the indices) is out of range for axis ", axis, " of size ", n);
        at[size_t(k + j)] = base + j * step + (i < 0 ? i + n : i) * ds[axis];
      }
      for (size_t a = rank - 1; a-- > 0;) {
        if (++row[a] < indices.dim(int64_t(a))) {
          if (a != axis) base += ds[a];
          break;
        }
        if (a != axis) base -= ds[a] * (row[a] - 1);
        row[a] = 0;
      }
    }
  };
  if (indices.dtype() == DType::i32) walk(indices.data<int32_t>());
  else walk(indices.data<int64_t>());
  return at;
}

void gather_elements_ref(const GatherParams& p, const KernelIO& io) {
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
