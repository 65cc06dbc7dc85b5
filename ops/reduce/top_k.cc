#include "ops/reduce/top_k.h"

#include <algorithm>
#include <numeric>
#include <type_traits>

#include "ops/tensor/common.h"

namespace cnnx {

namespace {

int64_t check_k(int64_t k, int64_t axis_dim, int64_t axis) {
  require(k >= 0, "k is ", k, "; it must not be negative");
  if (axis_dim >= 0)
    require(k <= axis_dim, "k is ", k, " but axis ", axis, " has only ", axis_dim, " elements");
  return k;
}

int64_t k_from_input(const Tensor* t) {
  require(t != nullptr, "input 1 (K) is required");
  require(t->numel() == 1 && t->rank() <= 1, "input 1 (K) must hold one value, got shape ", to_string(t->shape()));
  return ints_of(t, "K")[0];
}

template <class T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return v != v;
  else return false;
}

}  // namespace

TopKParams parse_top_k(const Node& node) {
  TopKParams p;
  require_outputs(node, 2, 2);
  if (node.opset < 10) {
    require_inputs(node, 1, 1);
    node.attrs.allow_only({"k", "axis"});
    require(node.attrs.has("k"), "attribute 'k' is required before opset 10");
    p.k = node.attrs.get_int("k", 0);
    require(p.k >= 0, "attribute 'k' is ", p.k, "; it must not be negative");
  } else {
    require_inputs(node, 2, 2);
    if (node.opset < 11) node.attrs.allow_only({"axis"});
    else node.attrs.allow_only({"axis", "largest", "sorted"});
  }
  p.axis = node.attrs.get_int("axis", -1);
  p.largest = node.attrs.get_flag("largest", true);
  node.attrs.get_flag("sorted", true);  // validated only: the output is always sorted (ONNX leaves the order open)
  return p;
}

std::vector<ValueInfo> infer_top_k(const TopKParams& p, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32, DType::f64, DType::i32, DType::i64, DType::i8, DType::u8});
  const ValueInfo& x = in[0];
  if (p.k < 0) require_dtype(in, 1, {DType::i64}, "input");
  if (!x.rank_known) return {ValueInfo::unknown(x.dtype), ValueInfo::unknown(DType::i64)};
  require(x.rank() >= 1, "input 0 must have rank 1 or more, got a scalar");
  const int64_t axis = normalize_axis(p.axis, x.rank(), "axis");
  int64_t k = p.k;
  bool known = k >= 0;
  std::vector<int64_t> kv;
  if (!known && constant_ints(in, 1, kv)) {
    require(kv.size() == 1, "input 1 (K) must hold one value, got ", kv.size());
    k = kv[0];
    known = true;
  }
  Shape out = x.shape;
  out[size_t(axis)] = known ? check_k(k, x.shape[size_t(axis)], p.axis) : kUnknownDim;
  return {ValueInfo::of(x.dtype, out), ValueInfo::of(DType::i64, out)};
}

void top_k_ref(const TopKParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& values = *io.out[0];
  Tensor& indices = *io.out[1];
  require(x.rank() >= 1, "input 0 must have rank 1 or more, got a scalar");
  const int64_t axis = normalize_axis(p.axis, x.rank(), "axis");
  const Shape& s = x.shape();
  const int64_t n = s[size_t(axis)];
  const int64_t k = check_k(p.k >= 0 ? p.k : k_from_input(io.in[1]), n, p.axis);
  Shape out = s;
  out[size_t(axis)] = k;
  require(values.shape() == out && indices.shape() == out && indices.dtype() == DType::i64, "the outputs are ",
          to_string(values.shape()), " and ", to_string(indices.shape()), "; expected ", to_string(out));
  const int64_t outer = numel_range(s, 0, size_t(axis)), inner = numel_range(s, size_t(axis) + 1, s.size());
  int64_t* idx_out = indices.data<int64_t>();
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool>) {
      fail("element type bool is not supported");
    } else {
      const T* src = x.data<T>();
      T* val_out = values.data<T>();
      std::vector<int64_t> order(static_cast<size_t>(n), 0);
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          const T* row = src + o * n * inner + i;
          // a before b: a is better, or equal with the lower index. NaN ranks above every number.
          auto before = [&](int64_t a, int64_t b) {
            const T va = row[a * inner], vb = row[b * inner];
            const bool na = is_nan(va), nb = is_nan(vb);
            if (na || nb) {
              if (na && nb) return a < b;
              return p.largest ? na : nb;
            }
            if (va == vb) return a < b;
            return p.largest ? va > vb : va < vb;
          };
          std::iota(order.begin(), order.end(), int64_t(0));
          std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
          const int64_t base = o * k * inner + i;
          for (int64_t j = 0; j < k; ++j) {
            val_out[base + j * inner] = row[order[size_t(j)] * inner];
            idx_out[base + j * inner] = order[size_t(j)];
          }
        }
    }
  });
}

}  // namespace cnnx
