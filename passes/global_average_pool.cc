// Pass "global-average-pool": every spelling of global average pooling becomes one GlobalAveragePool node
// (whose first kernel, "mean", reads the input once at the memory-bandwidth limit; ops/pool/global_mean.h).
//
// Spellings recognized, for an input X of shape [N, C, D1..Dk], k >= 1, float32 or float64:
//   AveragePool          one window per axis covering exactly the input cells and dividing by their count:
//                        kernel_shape = spatial dims without pads is the usual case; pads, ceil_mode and
//                        count_include_pad are accepted when the resolved geometry still gives that mean
//                        (e.g. an extra padded cell with count_include_pad = 0), refused otherwise.
//   ReduceMean           axes (attribute, or the opset-18 constant input) = a trailing run of X's axes whose
//                        leading part has N*C elements: {2..k+1} usually; keepdims 1 or 0.
//   Reshape / Flatten -> ReduceMean
//                        the same over a view of X (e.g. [N, C, H*W] reduced over its last axis, or Flatten
//                        to [N*C, H*W] reduced over axis 1): rows of the view are X's planes when the reduced
//                        trailing dims hold D1*..*Dk elements and the leading ones N*C.
//   org.pytorch.aten:adaptive_avg_pool{1,2,3}d with output_size all 1 (batched input).
// (torch.onnx writes a Pad of zeros before every AveragePool; the drop-identity pass, which runs first,
// removes it.)
// The GlobalAveragePool node writes the original output when the shapes match ([N, C, 1, ..., 1]); otherwise a
// Reshape to the original shape follows. When the original output only feeds a chain of Reshape / Flatten /
// Squeeze / Unsqueeze nodes (keepdims = 0 and then a view back to [N, C, 1, 1], as torch code often does), the
// rewrite targets the end of the chain. Node::note records the spelling found, e.g.
// "ReduceMean(axes=[2,3], keepdims=0)".
#include "ops/pool/adaptive_pool.h"
#include "ops/pool/pool.h"
#include "ops/reduce/reduce.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

// "AveragePool(kernel_shape=[7,7], ceil_mode=1)": the node's attributes as written.
std::string spelled(const Node& node) {
  std::string s;
  for (const auto& [name, a] : node.attrs.all()) {
    s += s.empty() ? "" : ", ";
    s += name + "=";
    switch (a.kind) {
      case Attribute::Kind::i: s += std::to_string(a.i); break;
      case Attribute::Kind::ints: s += list_string(a.ints); break;
      case Attribute::Kind::s: s += a.s; break;
      default: s += "..."; break;
    }
  }
  return node.op_type + "(" + s + ")";
}

bool is_float(const ValueInfo& v) { return v.dtype == DType::f32 || v.dtype == DType::f64; }

// An input whose GlobalAveragePool is the same mean: rank >= 3, float, concrete.
bool poolable(const ValueInfo& x) { return x.concrete() && x.rank() >= 3 && is_float(x); }

Shape global_shape(const Shape& x) {
  Shape s = x;
  for (size_t d = 2; d < s.size(); ++d) s[d] = 1;
  return s;
}

// One recognized spelling: GlobalAveragePool(x) stands for the node's output.
struct Match {
  int x = -1;
  std::string spelling;
};

// An AveragePool with one window per axis (the pattern's anchor) that is not the plane's mean says why in
// `why`.
bool match_average_pool(const Graph& g, const Node& node, Match& m, std::string& why) {
  const auto& p = params_as<PoolParams>(*node.params, node.op_type);
  const ValueInfo& x = g.value(node.inputs[0]).info;
  if (!poolable(x) || x.rank() != int64_t(p.window.spatial_rank()) + 2) return false;
  const PoolGeometry geometry = resolve_pool_geometry(p.window, Shape(x.shape.begin() + 2, x.shape.end()));
  for (const PoolAxis& a : geometry.axes)
    if (a.out != 1) return false;
  for (size_t k = 0; k < geometry.axes.size(); ++k) {
    // One window, whose taps inside the input are all the input's cells (distinct positions `dilation`
    // apart, so with more than one cell the taps are consecutive), and whose divisor is their count.
    const PoolAxis& a = geometry.axes[k];
    const std::string axis = " on axis " + std::to_string(k + 2);
    if (a.taps_in_input(0) != a.in) {
      why = "its one window takes " + std::to_string(a.taps_in_input(0)) + " of the input's " +
            std::to_string(a.in) + " cells" + axis;
      return false;
    }
    if (p.count_include_pad && a.taps_in_padded(0) != a.in) {
      why = "count_include_pad=1 divides by " + std::to_string(a.taps_in_padded(0)) + " cells" + axis +
            ", padding included, where the input has " + std::to_string(a.in);
      return false;
    }
  }
  m = {node.inputs[0], spelled(node)};
  return true;
}

// The axes a ReduceMean reduces, or false when they are not constant.
bool reduce_axes(const Graph& g, const Node& node, std::vector<int64_t>& axes, std::string& how) {
  if (!constant_reduce_axes(g, node, axes)) return false;
  const bool from_input = params_as<ReduceMeanParams>(*node.params, node.op_type).axes_from_input;
  const bool given = node.inputs.size() > 1 && node.inputs[1] >= 0;
  how = !from_input ? "axes=" + list_string(axes) : given ? "axes input " + list_string(axes) : "no axes";
  return true;
}

// True when ReduceMean over `reduced` of a view `f` of `x` (same elements, row-major) is x's global mean:
// the reduced dims of f are a trailing run holding x's spatial size, the others x's N*C.
bool view_is_global(const Shape& x, const Shape& f, const std::vector<bool>& reduced) {
  size_t first = f.size();
  while (first > 0 && reduced[first - 1]) --first;
  for (size_t d = 0; d < first; ++d)
    if (reduced[d]) return false;  // not a trailing run
  if (first == f.size()) return false;
  return numel_range(f, 0, first) == x[0] * x[1] && numel_range(f, first, f.size()) == numel_range(x, 2, x.size());
}

bool match_reduce_mean(const Graph& g, const Node& node, Match& m) {
  const auto& p = params_as<ReduceMeanParams>(*node.params, node.op_type);
  const ValueInfo& f = g.value(node.inputs[0]).info;
  if (!f.concrete() || !is_float(f)) return false;
  std::vector<int64_t> axes;
  std::string how;
  if (!reduce_axes(g, node, axes, how)) return false;
  const std::vector<bool> reduced = resolve_reduce_axes(p, axes, f.rank());
  const std::string spelling =
      "ReduceMean(" + how + ", keepdims=" + (p.keepdims ? "1" : "0") + ")";
  // Through a view first (the pooled node then reads the view's input, and the copy a view makes goes away
  // when nothing else reads it): the ReduceMean input made by Reshape or Flatten from a poolable value.
  const int producer = g.value(node.inputs[0]).producer;
  if (producer >= 0) {
    const Node& view = g.nodes[size_t(producer)];
    if (view.domain.empty() && (view.op_type == "Reshape" || view.op_type == "Flatten") && view.inputs[0] >= 0) {
      const ValueInfo& x = g.value(view.inputs[0]).info;
      if (poolable(x) && x.dtype == f.dtype && view_is_global(x.shape, f.shape, reduced)) {
        m = {view.inputs[0], view.op_type + " to " + to_string(f.shape) + " -> " + spelling};
        return true;
      }
    }
  }
  if (!poolable(f) || !view_is_global(f.shape, f.shape, reduced)) return false;
  m = {node.inputs[0], spelling};
  return true;
}

bool match_adaptive(const Graph& g, const Node& node, Match& m) {
  const ValueInfo& x = g.value(node.inputs[0]).info;
  const ValueInfo& size = g.value(node.inputs[1]).info;
  const auto& p = params_as<AdaptivePoolParams>(*node.params, node.op_type);
  if (!poolable(x) || x.rank() != p.spatial_rank + 2 || !size.constant) return false;
  std::vector<int64_t> sizes(size.constant->data<int64_t>(), size.constant->data<int64_t>() + size.constant->numel());
  for (int64_t s : sizes)
    if (s != 1) return false;
  m = {node.inputs[0], node.op_type + "(output_size=" + list_string(sizes) + ")"};
  return true;
}

// True for a spelling of global average pooling; a near miss says why in `why`.
bool match(const Graph& g, const Node& node, Match& m, std::string& why) {
  if (node.outputs.empty() || node.outputs[0] < 0 || node.inputs.empty() || node.inputs[0] < 0) return false;
  if (is_op(node, "AveragePool")) return match_average_pool(g, node, m, why);
  if (is_op(node, "ReduceMean")) return match_reduce_mean(g, node, m);
  if (node.domain == kAtenDomain && node.op_type.rfind("adaptive_avg_pool", 0) == 0) return match_adaptive(g, node, m);
  return false;
}

bool is_view(const Node& node) {
  return node.domain.empty() && (node.op_type == "Reshape" || node.op_type == "Flatten" ||
                                 node.op_type == "Squeeze" || node.op_type == "Unsqueeze");
}

}  // namespace

void rewrite_global_average_pool(Graph& g, PassDeclines& declines) {
  const auto consumers = consumers_of(g);
  const bool has_reshape = g.opsets.count("") && g.opsets.at("") >= 5;
  std::vector<bool> absorbed(g.nodes.size(), false);  // views whose output a rewrite now writes
  std::vector<Node> nodes;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& node = g.nodes[n];
    if (absorbed[n]) continue;
    Match m;
    std::string why;
    if (!match(g, node, m, why)) {
      if (!why.empty()) declines.add(node, why);
      nodes.push_back(node);
      continue;
    }
    // The value the rewrite writes: the node's output, or the end of a chain of views reading only it.
    int target = node.outputs[0];
    std::string after;
    std::vector<int> chain;
    while (used_once(g, consumers, target)) {
      const int next = consumers[size_t(target)][0];
      const Node& view = g.nodes[size_t(next)];
      if (!is_view(view) || view.outputs.empty() || view.outputs[0] < 0) break;
      chain.push_back(next);
      target = view.outputs[0];
      after += " -> " + view.op_type;
    }
    const DType dtype = g.value(m.x).info.dtype;
    const Shape pooled = global_shape(g.value(m.x).info.shape);
    const Shape want = g.value(target).info.shape;
    if (pooled != want && !has_reshape) {
      declines.add(node, "writes " + to_string(want) + ", and below opset 5 there is no Reshape to make that from "
                         "GlobalAveragePool's " + to_string(pooled));
      nodes.push_back(node);
      continue;
    }
    for (int c : chain) absorbed[size_t(c)] = true;
    const std::string note = m.spelling + after;
    if (pooled == want) {
      nodes.push_back(make_node(g, node.name, "", "GlobalAveragePool", {m.x}, {target}, {}, note));
      continue;
    }
    const std::string base = g.value(target).name;
    const int pooled_id = add_value(g, base + "_pooled", ValueInfo::of(dtype, pooled));
    Tensor shape(DType::i64, {int64_t(want.size())});
    std::copy(want.begin(), want.end(), shape.data<int64_t>());
    const int shape_id = add_value(g, base + "_shape", ValueInfo::of(shape));
    nodes.push_back(make_node(g, node.name, "", "GlobalAveragePool", {m.x}, {pooled_id}, {}, note));
    nodes.push_back(make_node(g, node.name + "_reshape", "", "Reshape", {pooled_id, shape_id}, {target}, {},
                              "to the output shape of " + note));
  }
  g.nodes = std::move(nodes);
}

}  // namespace cnnx
