// Pass "fuse-layer-norm": LayerNorm spelled out, as torch.onnx writes nn.LayerNorm below opset 17, becomes one
// LayerNormalization (ops/norm/layer_norm.h; opset 17, whatever the model imports):
//
//   mean = ReduceMean(X, axes, keepdims=1)      axes: a trailing run of X's axes, as the attribute (opset < 18)
//   d    = Sub(X, mean)                                or the constant axes input (opset 18)
//   var  = ReduceMean(Pow(d, 2) | Mul(d, d), the same axes, keepdims=1)
//   n    = Div(d, Sqrt(Add(var, epsilon)))      epsilon: a float32 constant holding one number, >= 0
//   [y   = Mul(n, Scale) [-> Add(., B)]]        Scale, B: float32 constants with one value per normalized
//                                               element, or one for all (broadcast over the rows)
//
// -> LayerNormalization(X, Scale, B, axis = the first reduced axis, epsilon); Scale and B are written out to
// the normalized shape X.shape[axis:] (ones when there is no Mul; no B without the Add). Every intermediate
// value must be read only by the next node of the pattern, but d, read by the square and by the Div; nothing
// may broadcast X's shape larger. A graph that differs anywhere is left alone.
#include <algorithm>
#include <cmath>

#include "ops/common/broadcast.h"
#include "ops/reduce/reduce.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

// The first axis of the trailing run `reduce` (a keepdims ReduceMean of x) reduces, or -1.
int64_t trailing_axis(const Graph& g, const Node& reduce) {
  const auto& p = params_as<ReduceParams>(*reduce.params, reduce.op_type);
  const int64_t rank = g.value(reduce.inputs[0]).info.rank();
  std::vector<int64_t> axes;
  if (!p.keepdims || rank < 1 || !constant_reduce_axes(g, reduce, axes)) return -1;
  const std::vector<bool> reduced = resolve_reduce_axes(p, axes, rank);
  int64_t first = rank;
  while (first > 0 && reduced[size_t(first - 1)]) --first;
  for (int64_t d = 0; d < first; ++d)
    if (reduced[size_t(d)]) return -1;
  return first < rank ? first : -1;
}

// `c` (Scale or B) as one value per element of x.shape[axis:], when it is a float32 constant of that shape,
// of one element, or broadcasting within those axes only; else an empty tensor.
Tensor per_normalized_element(const Graph& g, int c, const Shape& x, size_t axis) {
  const ValueInfo& v = g.value(c).info;
  if (!v.constant || v.dtype != DType::f32 || v.shape.size() > x.size()) return {};
  const Shape normalized(x.begin() + int64_t(axis), x.end());
  const size_t lead = x.size() - v.shape.size();
  Shape within;  // v's dims over the normalized axes
  for (size_t d = 0; d < x.size(); ++d) {
    const int64_t vd = d < lead ? 1 : v.shape[d - lead];
    if (d < axis ? vd != 1 : (vd != 1 && vd != x[d])) return {};
    if (d >= axis) within.push_back(vd);
  }
  Tensor out(DType::f32, normalized);
  const float* src = v.constant->data<float>();
  float* dst = out.data<float>();
  for_each_broadcast<1>(normalized, {broadcast_strides(within, normalized)},
                        [&](int64_t o, const int64_t* off) { dst[o] = src[off[0]]; });
  return out;
}

struct Match {
  int x = -1, y = -1;
  int64_t axis = -1;
  float epsilon = 0;
  int scale = -1, bias = -1;  // the constants multiplied and added, or -1
  std::vector<const Node*> nodes;
};

bool match(const Graph& g, const std::vector<std::vector<int>>& consumers, const Node& mean_node, Match& m) {
  m.x = mean_node.inputs[0];
  const ValueInfo& x = g.value(m.x).info;
  if (x.dtype != DType::f32 || !x.concrete()) return false;
  m.axis = trailing_axis(g, mean_node);
  if (m.axis < 0) return false;
  // Each value along the chain: float32 of the shape it must have, read only by the node that comes next.
  auto next = [&](int value, const char* type, bool of_x_shape = true) -> const Node* {
    const ValueInfo& v = g.value(value).info;
    if (v.dtype != DType::f32 || (of_x_shape && v.shape != x.shape)) return nullptr;
    const Node* n = sole_reader(g, consumers, value);
    if (!n || !is_op(*n, type) || n->outputs.size() != 1) return nullptr;
    m.nodes.push_back(n);
    return n;
  };
  m.nodes = {&mean_node};
  const Node* sub = next(mean_node.outputs[0], "Sub", false);
  if (!sub || sub->inputs[0] != m.x || sub->inputs[1] != mean_node.outputs[0]) return false;
  // d: read by the square and the Div, nothing else.
  const int d = sub->outputs[0];
  const auto& readers = consumers[size_t(d)];
  if (g.value(d).info.shape != x.shape || readers.size() != 2 || is_graph_output(g, d)) return false;
  const Node* square = &g.nodes[size_t(readers[0])];
  const Node* div = &g.nodes[size_t(readers[1])];
  if (is_op(*square, "Div")) std::swap(square, div);
  double exponent = 0;
  const bool squares = (is_op(*square, "Pow") && square->inputs[0] == d && scalar_constant(g, square->inputs[1], exponent) &&
                        exponent == 2) ||
                       (is_op(*square, "Mul") && square->inputs[0] == d && square->inputs[1] == d);
  if (!squares || !is_op(*div, "Div") || div->inputs[0] != d) return false;
  m.nodes.push_back(square);
  const Node* var_node = next(square->outputs[0], "ReduceMean");
  if (!var_node || var_node->inputs[0] != square->outputs[0] || trailing_axis(g, *var_node) != m.axis) return false;
  const int var = var_node->outputs[0];
  const Node* add_eps = next(var, "Add", false);
  if (!add_eps) return false;
  const int eps = add_eps->inputs[0] == var ? add_eps->inputs[1] : add_eps->inputs[0];
  double epsilon = 0;
  if (eps == var || g.value(eps).info.dtype != DType::f32 || !scalar_constant(g, eps, epsilon) ||
      !(epsilon >= 0 && std::isfinite(epsilon)) || g.value(add_eps->outputs[0]).info.shape != g.value(var).info.shape)
    return false;
  m.epsilon = float(epsilon);
  const Node* sqrt = next(add_eps->outputs[0], "Sqrt", false);
  if (!sqrt || next(sqrt->outputs[0], "Div", false) != div || div->inputs[1] != sqrt->outputs[0]) return false;
  m.y = div->outputs[0];
  if (g.value(m.y).info.shape != x.shape) return false;
  // Optional: * Scale, then + B (each a constant with one value per normalized element).
  const size_t axis = size_t(m.axis);
  auto affine = [&](const char* type, int& constant) {
    const ValueInfo& y = g.value(m.y).info;
    const Node* n = sole_reader(g, consumers, m.y);
    if (!n || !is_op(*n, type) || n->inputs.size() != 2 || y.dtype != DType::f32) return;
    const int c = n->inputs[0] == m.y ? n->inputs[1] : n->inputs[0];
    if (c == m.y || g.value(n->outputs[0]).info.shape != x.shape ||
        per_normalized_element(g, c, x.shape, axis).numel() == 0)
      return;
    m.nodes.push_back(n);
    constant = c;
    m.y = n->outputs[0];
  };
  affine("Mul", m.scale);
  if (m.scale >= 0) affine("Add", m.bias);
  return true;
}

}  // namespace

void fuse_layer_norm(Graph& g, PassDeclines&) {
  const auto consumers = consumers_of(g);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    Match m;
    if (!is_op(g.nodes[n], "ReduceMean") || !match(g, consumers, g.nodes[n], m)) continue;
    const Shape x = g.value(m.x).info.shape;  // a copy: add_value below grows g.values
    const size_t axis = size_t(m.axis);
    const Shape normalized(x.begin() + m.axis, x.end());
    const std::string base = g.value(m.y).name;
    Tensor scale = m.scale >= 0 ? per_normalized_element(g, m.scale, x, axis) : Tensor(DType::f32, normalized);
    if (m.scale < 0) std::fill(scale.data<float>(), scale.data<float>() + scale.numel(), 1.f);
    std::vector<int> inputs{m.x, add_value(g, base + "_scale", ValueInfo::of(scale))};
    if (m.bias >= 0) inputs.push_back(add_value(g, base + "_bias", ValueInfo::of(per_normalized_element(g, m.bias, x, axis))));
    Attributes attrs;
    attrs.set("axis", int_attr(m.axis));
    attrs.set("epsilon", float_attr(m.epsilon));
    std::string note = "LayerNorm over axes " + std::to_string(m.axis) + ".." + std::to_string(x.size() - 1) + " from";
    for (const Node* taken : m.nodes) note += " '" + taken->name + "'";
    // The LayerNormalization takes the last node's place; the nodes before it are left without readers.
    const Node* last = m.nodes.back();
    for (const Node* taken : m.nodes) last = std::max(last, taken);
    g.nodes[size_t(last - g.nodes.data())] =
        make_node(g, last->name, "", "LayerNormalization", inputs, {m.y}, attrs, note, 17);
  }
}

}  // namespace cnnx
