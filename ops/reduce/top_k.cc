#include "ops/reduce/top_k.h"

#include <algorithm>
#include <numeric>
#include <type_traits>

#include "ops/common/data_movement.h"

namespace cnnx {

int64_t checked_top_k(int64_t k, int64_t axis_dim, int64_t axis) {
  require(k >= 0, "k is ", k, "; it must not be negative");
  if (axis_dim >= 0)
    require(k <= axis_dim, "k is ", k, " but axis ", axis, " has only ", axis_dim, " elements");
  return k;
}

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
  out[size_t(axis)] = known ? checked_top_k(k, x.shape[size_t(axis)], p.axis) : kUnknownDim;
  return {ValueInfo::of(x.dtype, out), ValueInfo::of(DType::i64, out)};
}

}  // namespace cnnx
