// AveragePool, MaxPool, GlobalAveragePool and GlobalMaxPool: parse and infer (kernels: pool_ref.cc,
// pool_dnnl.cc, global_mean.cc; registered in register.cc).
#include "ops/pool/pool.h"

#include "ops/common/node_checks.h"

namespace cnnx {

namespace {

struct AttributeSince {
  const char* name;
  int opset;  // first opset of the op that has the attribute
};

// Refuses attributes the op does not have, naming the opset that introduced the ones it has only later.
void allow_attributes(const Node& node, std::initializer_list<AttributeSince> known) {
  for (const auto& [name, value] : node.attrs.all()) {
    const AttributeSince* found = nullptr;
    for (const AttributeSince& k : known)
      if (name == k.name) found = &k;
    require(found != nullptr, "unknown attribute '", name, "'");
    require(node.opset >= found->opset, "attribute '", name, "' needs opset ", found->opset,
            " or newer; the model imports opset ", node.opset);
  }
}

// [N, C, 1, ..., 1]; every spatial dim must be non-empty (the max or mean of nothing is undefined).
std::vector<ValueInfo> infer_global_pool(const std::vector<ValueInfo>& in, bool is_max) {
  if (is_max) require_dtype(in, 0, {DType::f32, DType::f64, DType::i8, DType::u8});
  else require_dtype(in, 0, {DType::f32, DType::f64});
  const ValueInfo& x = in[0];
  require(x.rank() >= 3, "input 0 must have rank >= 3 ([N, C, D1, ...]), got shape ", to_string(x.shape));
  Shape out = x.shape;
  for (size_t d = 2; d < out.size(); ++d) {
    require(out[d] != 0, "input 0 has an empty spatial dim: shape ", to_string(x.shape));
    out[d] = 1;
  }
  return {ValueInfo::of(x.dtype, out)};
}

PoolParams parse_pool(const Node& node, PoolKind kind) {
  require_inputs(node, 1, 1);
  PoolParams p;
  p.kind = kind;
  if (kind == PoolKind::average) {
    require_outputs(node, 1, 1);
    allow_attributes(node, {{"kernel_shape", 1}, {"strides", 1}, {"pads", 1}, {"auto_pad", 1},
                            {"count_include_pad", 7}, {"ceil_mode", 10}, {"dilations", 19}});
    p.count_include_pad = node.attrs.get_flag("count_include_pad", false);
  } else {
    require(node.opset >= 8 || node.outputs.size() <= 1, "the Indices output needs opset 8 or newer; the model imports opset ",
            node.opset);
    require_outputs(node, 1, 2);
    allow_attributes(node, {{"kernel_shape", 1}, {"strides", 1}, {"pads", 1}, {"auto_pad", 1},
                            {"storage_order", 8}, {"ceil_mode", 10}, {"dilations", 10}});
    p.column_major_indices = node.attrs.get_flag("storage_order", false);
    p.wants_indices = node.outputs.size() > 1 && node.outputs[1] >= 0;
  }
  p.window = parse_pool_window(node.attrs);
  return p;
}

}  // namespace

PoolParams parse_average_pool(const Node& node) { return parse_pool(node, PoolKind::average); }
PoolParams parse_max_pool(const Node& node) { return parse_pool(node, PoolKind::max); }

std::vector<ValueInfo> infer_pool(const PoolParams& p, const std::vector<ValueInfo>& in) {
  if (p.kind == PoolKind::max) require_dtype(in, 0, {DType::f32, DType::f64, DType::i8, DType::u8});
  else require_dtype(in, 0, {DType::f32, DType::f64});
  const ValueInfo& x = in[0];
  const size_t k = p.window.spatial_rank();
  require(x.rank() == int64_t(k) + 2, "input 0 has shape ", to_string(x.shape), "; kernel_shape has ", k,
          " spatial dims, so the input rank must be ", k + 2);
  PoolGeometry g = resolve_pool_geometry(p.window, Shape(x.shape.begin() + 2, x.shape.end()));
  Shape out{x.shape[0], x.shape[1]};
  for (int64_t o : g.output_spatial()) out.push_back(o);
  std::vector<ValueInfo> result{ValueInfo::of(x.dtype, out)};
  if (p.kind == PoolKind::max) result.push_back(ValueInfo::of(DType::i64, out));
  return result;
}

std::vector<ValueInfo> infer_global_average_pool(const NoParams&, const std::vector<ValueInfo>& in) {
  return infer_global_pool(in, false);
}

std::vector<ValueInfo> infer_global_max_pool(const NoParams&, const std::vector<ValueInfo>& in) {
  return infer_global_pool(in, true);
}

}  // namespace cnnx
