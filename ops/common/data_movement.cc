#include "ops/common/data_movement.h"

#include <cstring>

namespace cnnx {

int64_t parse_axis_node(const Node& node, size_t inputs) {
  check_node(node, inputs, inputs, {"axis"});
  return node.attrs.get_int("axis", 0);
}

std::vector<int64_t> ints_of(const Tensor* t, const char* what) {
  if (!t) return {};
  require(t->dtype() == DType::i64 || t->dtype() == DType::i32, what, " must be int64, got ",
          dtype_name(t->dtype()));
  require(t->rank() <= 1, what, " must be a 1-D tensor, got shape ", to_string(t->shape()));
  std::vector<int64_t> v(size_t(t->numel()));
  for (int64_t i = 0; i < t->numel(); ++i) v[size_t(i)] = t->int_at(i);
  return v;
}

void copy_bytes(const Tensor& in, Tensor& out) {
  require(in.bytes() == out.bytes(), "output holds ", out.bytes(), " bytes, input ", in.bytes());
  if (in.bytes()) std::memcpy(out.raw(), in.raw(), in.bytes());
}

void strided_copy(DType t, const void* src, int64_t base, const std::vector<int64_t>& strides, void* dst,
                  const Shape& shape) {
  const int64_t n = checked_numel(shape);
  if (n == 0) return;
  visit_bits(t, [&](auto bits) {
    using U = decltype(bits);
    const U* s = static_cast<const U*>(src);
    U* d = static_cast<U*>(dst);
    const size_t rank = shape.size();
    std::vector<int64_t> idx(rank, 0);
    int64_t off = base;
    for (int64_t k = 0; k < n; ++k) {
      d[k] = s[off];
      // Odometer increment over the output; `off` follows in the source.
      for (size_t a = rank; a-- > 0;) {
        if (++idx[a] < shape[a]) {
          off += strides[a];
          break;
        }
        off -= strides[a] * (shape[a] - 1);
        idx[a] = 0;
      }
    }
  });
}

std::vector<int64_t> normalize_axes(const std::vector<int64_t>& axes, int64_t rank, const char* what) {
  std::vector<int64_t> out;
  std::vector<bool> seen(size_t(rank), false);
  for (int64_t a : axes) {
    int64_t n = normalize_axis(a, rank, what);
    if (seen[size_t(n)]) fail(what, " ", a, " appears more than once in ", list_string(axes));
    seen[size_t(n)] = true;
    out.push_back(n);
  }
  return out;
}

int64_t product_or_unknown(const Shape& shape, size_t begin, size_t end) {
  int64_t n = 1;
  bool unknown = false;
  for (size_t i = begin; i < end && i < shape.size(); ++i) {
    if (shape[i] == 0) return 0;
    if (shape[i] < 0) unknown = true;
    else n = checked_mul(n, shape[i], "element count");
  }
  return unknown ? kUnknownDim : n;
}

}  // namespace cnnx
