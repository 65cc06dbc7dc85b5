#include "ops/pool/max_unpool.h"

#include "ops/common/node_checks.h"

namespace cnnx {

MaxUnpoolParams parse_max_unpool(const Node& node) {
  check_node(node, 2, 3, {"kernel_shape", "strides", "pads"});
  MaxUnpoolParams p;
  p.window = parse_pool_window(node.attrs);
  return p;
}

std::vector<ValueInfo> infer_max_unpool(const MaxUnpoolParams& p, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32}, "X");
  require_dtype(in, 1, {DType::i64}, "I");
  const ValueInfo &x = in[0], &indices = in[1];
  const size_t k = p.window.spatial_rank();
  require(x.rank() == int64_t(k) + 2, "X must be [N, C] and ", k, " spatial dims (kernel_shape), got shape ",
          to_string(x.shape));
  require(indices.shape.size() == x.shape.size(), "I must have X's shape ", to_string(x.shape), ", got ",
          to_string(indices.shape));
  for (size_t d = 0; d < x.shape.size(); ++d)
    require(x.shape[d] < 0 || indices.shape[d] < 0 || x.shape[d] == indices.shape[d], "I must have X's shape ",
            to_string(x.shape), ", got ", to_string(indices.shape));
  if (present(in, 2)) {
    require_dtype(in, 2, {DType::i64}, "output_shape");
    require(in[2].rank() == 1 && (in[2].shape[0] < 0 || in[2].shape[0] == x.rank()), "output_shape must list ",
            x.rank(), " dims, got shape ", to_string(in[2].shape));
    if (!in[2].constant) return {ValueInfo::of(DType::f32, Shape(size_t(x.rank()), kUnknownDim))};
    Shape y(size_t(x.rank()));
    for (int64_t d = 0; d < x.rank(); ++d) {
      y[size_t(d)] = in[2].constant->int_at(d);
      require(y[size_t(d)] >= 0, "output_shape[", d, "] is ", y[size_t(d)]);
    }
    checked_numel(y);
    return {ValueInfo::of(DType::f32, y)};
  }
  Shape y = x.shape;
  for (size_t d = 0; d < k; ++d) {
    const int64_t in_size = x.shape[d + 2];
    if (in_size < 0) continue;
    const int64_t out = (in_size - 1) * p.window.strides[d] + p.window.kernel[d] - p.window.pads[d] - p.window.pads[d + k];
    require(out >= 1, "spatial axis ", d, ": (", in_size, " - 1) * stride ", p.window.strides[d], " + kernel ",
            p.window.kernel[d], " - pads gives ", out);
    y[d + 2] = out;
  }
  return {ValueInfo::of(DType::f32, y)};
}

}  // namespace cnnx
