// ScatterND (opset 11+), any data element type.
#include "ops/tensor/scatter_nd.h"

#include <algorithm>
#include <cstring>

#include "ops/tensor/common.h"
#include "ops/tensor/gather_nd.h"

namespace cnnx {

ScatterNDParams parse_scatter_nd(const Node& node) {
  require_inputs(node, 3, 3);
  require_outputs(node, 1, 1);
  ScatterNDParams p;
  if (node.opset < 16) {
    node.attrs.allow_only({});
    return p;
  }
  node.attrs.allow_only({"reduction"});
  const std::string r = node.attrs.get_string("reduction", "none");
  if (r == "none") p.reduction = ScatterReduction::none;
  else if (r == "add") p.reduction = ScatterReduction::add;
  else if (r == "mul") p.reduction = ScatterReduction::mul;
  else if (r == "max" && node.opset >= 18) p.reduction = ScatterReduction::max;
  else if (r == "min" && node.opset >= 18) p.reduction = ScatterReduction::min;
  else fail("attribute 'reduction' = '", r, "' is not one of none, add, mul",
            node.opset >= 18 ? ", max, min" : " (max and min need opset 18)");
  return p;
}

namespace {

void check_shapes(const Shape& data, const Shape& indices, const Shape& updates) {
  require(!data.empty() && !indices.empty(), "data and indices must have rank >= 1");
  const int64_t k = indices.back();
  if (k < 0) return;
  require(k >= 1 && k <= int64_t(data.size()), "the last dim of indices (", k, ") must be in [1, ", data.size(), "]");
  Shape want(indices.begin(), indices.end() - 1);
  want.insert(want.end(), data.begin() + k, data.end());
  require(want.size() == updates.size(), "updates ", to_string(updates), " must have shape ", to_string(want));
  for (size_t a = 0; a < want.size(); ++a)
    require(want[a] < 0 || updates[a] < 0 || want[a] == updates[a], "updates ", to_string(updates),
            " must have shape ", to_string(want));
}

}  // namespace

std::vector<ValueInfo> infer_scatter_nd(const ScatterNDParams&, const std::vector<ValueInfo>& in) {
  const ValueInfo& data = input(in, 0);
  require_dtype(in, 1, {DType::i64}, "input");
  const ValueInfo& updates = input(in, 2);
  require(updates.dtype == data.dtype, "updates have element type ", dtype_name(updates.dtype), "; data has ",
          dtype_name(data.dtype));
  check_shapes(data.shape, in[1].shape, updates.shape);
  return {same_as_input(in)};
}

void scatter_nd_ref(const ScatterNDParams& p, const KernelIO& io) {
  const Tensor& data = *io.in[0];
  const Tensor& indices = *io.in[1];
  const Tensor& updates = *io.in[2];
  Tensor& y = *io.out[0];
  check_shapes(data.shape(), indices.shape(), updates.shape());
  if (y.shape() != data.shape() || y.dtype() != data.dtype() || updates.dtype() != data.dtype())
    fail("output does not match the data");
  const int64_t k = indices.shape().back();
  const int64_t tuples = indices.numel() / k;
  const int64_t block = numel_range(data.shape(), size_t(k), data.shape().size());
  const std::vector<int64_t> ds = strides_of(data.shape());
  // Every index checked before anything is written.
  std::vector<int64_t> dst_at(static_cast<size_t>(tuples));
  for (int64_t t = 0; t < tuples; ++t) dst_at[size_t(t)] = nd_offset(data.shape(), ds, 0, indices, t, k);
  copy_bytes(data, y);
  visit_dtype(data.dtype(), [&](auto z) {
    using T = decltype(z);
    T* d = y.data<T>();
    const T* u = updates.data<T>();
    for (int64_t t = 0; t < tuples; ++t) {
      T* dst = d + dst_at[size_t(t)];
      const T* src = u + t * block;
      for (int64_t e = 0; e < block; ++e) {
        switch (p.reduction) {
          case ScatterReduction::none: dst[e] = src[e]; break;
          case ScatterReduction::add: dst[e] = T(dst[e] + src[e]); break;
          case ScatterReduction::mul: dst[e] = T(dst[e] * src[e]); break;
          case ScatterReduction::max: dst[e] = std::max(dst[e], src[e]); break;
          case ScatterReduction::min: dst[e] = std::min(dst[e], src[e]); break;
        }
      }
    }
  });
}

}  // namespace cnnx
