// GatherElements (opset 11+), any data element type.
#include "ops/tensor/gather_elements.h"

#include "ops/tensor/common.h"

namespace cnnx {

GatherElementsParams parse_gather_elements(const Node& node) {
  require_inputs(node, 2, 2);
  require_outputs(node, 1, 1);
  node.attrs.allow_only({"axis"});
  GatherElementsParams p;
  p.axis = node.attrs.get_int("axis", 0);
  return p;
}

namespace {

void check_shapes(const Shape& data, const Shape& indices, size_t axis) {
  require(indices.size() == data.size(), "indices ", to_string(indices), " must have the rank of data ",
          to_string(data));
  for (size_t a = 0; a < data.size(); ++a)
    if (a != axis && data[a] >= 0 && indices[a] > data[a])
      fail("indices ", to_string(indices), " are larger than data ", to_string(data), " along axis ", a);
}

}  // namespace

std::vector<ValueInfo> infer_gather_elements(const GatherElementsParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& data = input(in, 0);
  require_dtype(in, 1, {DType::i64, DType::i32}, "input");
  require(data.rank() >= 1, "input 0 (data) must have rank >= 1, got a scalar");
  const size_t axis = size_t(normalize_axis(p.axis, data.rank(), "axis"));
  check_shapes(data.shape, in[1].shape, axis);
  const int64_t n = data.shape[axis];
  if (in[1].constant && n >= 0)
    for (int64_t k = 0; k < in[1].constant->numel(); ++k) {
      const int64_t i = in[1].constant->int_at(k);
      require(i >= -n && i < n, "index ", i, " (entry ", k, " of the indices) is out of range for axis ", axis,
              " of size ", n);
    }
  return {ValueInfo::of(data.dtype, in[1].shape)};
}

void gather_elements_ref(const GatherElementsParams& p, const KernelIO& io) {
  const Tensor& data = *io.in[0];
  const Tensor& indices = *io.in[1];
  Tensor& y = *io.out[0];
  const size_t axis = size_t(normalize_axis(p.axis, data.rank(), "axis"));
  check_shapes(data.shape(), indices.shape(), axis);
  if (y.shape() != indices.shape() || y.dtype() != data.dtype()) fail("output does not match the indices");
  const int64_t count = indices.numel();
  const int64_t n = data.dim(int64_t(axis));
  const size_t rank = data.shape().size();
  const std::vector<int64_t> ds = strides_of(data.shape());
  // Every index checked before anything is written.
  std::vector<int64_t> src_at(static_cast<size_t>(count));
  std::vector<int64_t> idx(rank, 0);
  int64_t base = 0;  // data offset of idx with the axis coordinate left out
  for (int64_t k = 0; k < count; ++k) {
    const int64_t i = indices.int_at(k);
    require(i >= -n && i < n, "index ", i, " (entry ", k, " of the indices) is out of range for axis ", axis,
            " of size ", n);
    src_at[size_t(k)] = base + (i < 0 ? i + n : i) * ds[axis];
    for (size_t a = rank; a-- > 0;) {
      if (++idx[a] < indices.dim(int64_t(a))) {
        if (a != axis) base += ds[a];
        break;
      }
      if (a != axis) base -= ds[a] * (idx[a] - 1);
      idx[a] = 0;
    }
  }
  visit_bits(data.dtype(), [&](auto bits) {
    using U = decltype(bits);
    const U* s = static_cast<const U*>(data.raw());
    U* d = static_cast<U*>(y.raw());
    for (int64_t k = 0; k < count; ++k) d[k] = s[src_at[size_t(k)]];
  });
}

}  // namespace cnnx
