// Pass "fuse-gelu": GELU spelled out with Erf or Tanh, as torch.onnx writes nn.GELU() below opset 20, becomes
// one cnnx.internal Gelu or GeluTanh node (rows of the activation table, ops/common/activation.h; oneDNN's
// eltwise_gelu_erf / eltwise_gelu_tanh, and a post-op when fuse-conv then fuses it into a Conv).
//
//   Gelu      0.5 * x * (1 + Erf(x / sqrt(2)))     the division also as Mul by 1/sqrt(2)
//   GeluTanh  0.5 * x * (1 + Tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
//                                                  x^3 as Mul(x, Mul(x, x)) or Pow(x, 3)
// The final product may be grouped any way ((x * a) * 0.5, (x * 0.5) * a, x * (a * 0.5)), every binary op
// with its operands in either order where it commutes. Each intermediate value must be read only by the next
// node of the pattern (x alone is read several times), keep x's shape (the constants are single numbers) and
// be float32; the constants must be those numbers to float32 precision. Anything else is left alone.
#include <cmath>

#include "engine/op.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

// A float32 constant that rounds to `want` (within an ulp or two, for constants computed by the exporter).
bool near_constant(const Graph& g, int value, double want) {
  double v;
  return g.value(value).info.dtype == DType::f32 && scalar_constant(g, value, v) &&
         std::fabs(v - want) <= 2e-7 * std::fabs(want);
}

// The operand of a two-input node other than `one`, or -1 when `one` is neither (or both) of them.
int other_operand(const Node& node, int one) {
  if (node.inputs.size() != 2) return -1;
  if (node.inputs[0] == one && node.inputs[1] != one) return node.inputs[1];
  if (node.inputs[1] == one && node.inputs[0] != one) return node.inputs[0];
  return -1;
}

// A match in progress: x, the nodes taken (in graph order of discovery), their names for the note.
struct Chain {
  const Graph& g;
  const std::vector<std::vector<int>>& consumers;
  int x = -1;
  std::vector<const Node*> nodes;

  // `value` is float32 of x's shape and read only by the next node: that node, when it is `type`.
  const Node* next(int value, const char* type) {
    const ValueInfo& v = g.value(value).info;
    if (v.dtype != DType::f32 || v.shape != g.value(x).info.shape) return nullptr;
    const Node* n = sole_reader(g, consumers, value);
    if (!n || !is_op(*n, type) || n->outputs.size() != 1) return nullptr;
    nodes.push_back(n);
    return n;
  }
  // The producer of `value`, when it is `type`, writes only `value` of x's shape and `value` is read once.
  const Node* made_by(int value, const char* type) {
    const Node* n = producer_of(g, value);
    if (!n || !is_op(*n, type) || !used_once(g, consumers, value) || g.value(value).info.shape != g.value(x).info.shape)
      return nullptr;
    nodes.push_back(n);
    return n;
  }
  bool is_x(int value) const { return value == x; }
};

// The value 0.5 * x * a, from a = 1 + f(x): the last node's output, or -1.
int half_x_times(Chain& c, int a) {
  const Node* m = c.next(a, "Mul");
  if (!m) return -1;
  const int other = other_operand(*m, a);
  if (other < 0) return -1;
  if (c.is_x(other) || near_constant(c.g, other, 0.5)) {  // (x * a) * 0.5 or (0.5 * a) * x
    const Node* m2 = c.next(m->outputs[0], "Mul");
    if (!m2) return -1;
    const int last = other_operand(*m2, m->outputs[0]);
    const bool ok = c.is_x(other) ? near_constant(c.g, last, 0.5) : c.is_x(last);
    return ok ? m2->outputs[0] : -1;
  }
  const Node* h = c.made_by(other, "Mul");  // (x * 0.5) * a
  if (!h) return -1;
  const int half = other_operand(*h, c.x);
  return half >= 0 && near_constant(c.g, half, 0.5) ? m->outputs[0] : -1;
}

// 1 + t, t read only by the Add: its output, or -1.
int one_plus(Chain& c, int t) {
  const Node* add = c.next(t, "Add");
  if (!add) return -1;
  const int one = other_operand(*add, t);
  return one >= 0 && near_constant(c.g, one, 1.0) ? add->outputs[0] : -1;
}

// From an Erf node: x / sqrt(2) or x * (1 / sqrt(2)) before it, 0.5 * x * (1 + erf) after it.
int match_erf(Chain& c, const Node& erf) {
  const int d = erf.inputs[0];
  const Node* scale = producer_of(c.g, d);
  if (!scale || !used_once(c.g, c.consumers, d)) return -1;
  if (is_op(*scale, "Div") && near_constant(c.g, scale->inputs[1], std::sqrt(2.0))) {
    c.x = scale->inputs[0];
  } else if (is_op(*scale, "Mul")) {
    for (int i = 0; i < 2 && c.x < 0; ++i)
      if (near_constant(c.g, scale->inputs[size_t(i)], std::sqrt(0.5))) c.x = scale->inputs[size_t(1 - i)];
  }
  if (c.x < 0 || c.g.value(d).info.shape != c.g.value(c.x).info.shape) return -1;
  c.nodes = {scale, &erf};
  if (c.g.value(erf.outputs[0]).info.dtype != DType::f32) return -1;
  const int a = one_plus(c, erf.outputs[0]);
  return a < 0 ? -1 : half_x_times(c, a);
}

// x^3 as Pow(x, 3) or x * (x * x), each read once.
bool is_cube(Chain& c, int value) {
  const Node* n = c.made_by(value, "Pow");
  if (n) {
    double e;
    return n->inputs[0] == c.x && scalar_constant(c.g, n->inputs[1], e) && e == 3;
  }
  n = c.made_by(value, "Mul");
  if (!n) return false;
  const int sq = other_operand(*n, c.x);
  const Node* s = sq >= 0 ? c.made_by(sq, "Mul") : nullptr;
  return s && s->inputs[0] == c.x && s->inputs[1] == c.x;
}

// From a Tanh node: sqrt(2/pi) * (x + 0.044715 * x^3) before it, 0.5 * x * (1 + tanh) after it.
int match_tanh(Chain& c, const Node& tanh) {
  const Node* scale = producer_of(c.g, tanh.inputs[0]);
  if (!scale || !is_op(*scale, "Mul") || !used_once(c.g, c.consumers, tanh.inputs[0])) return -1;
  int u = -1;
  for (int i = 0; i < 2 && u < 0; ++i)
    if (near_constant(c.g, scale->inputs[size_t(i)], std::sqrt(2 / 3.14159265358979323846)))
      u = scale->inputs[size_t(1 - i)];
  const Node* sum = u >= 0 ? producer_of(c.g, u) : nullptr;
  if (!sum || !is_op(*sum, "Add") || !used_once(c.g, c.consumers, u)) return -1;
  // x + k: x is the operand that is not made by the Mul by 0.044715.
  for (int i = 0; i < 2 && c.x < 0; ++i) {
    const Node* k = producer_of(c.g, sum->inputs[size_t(i)]);
    if (k && is_op(*k, "Mul") && (near_constant(c.g, k->inputs[0], 0.044715) || near_constant(c.g, k->inputs[1], 0.044715)))
      c.x = sum->inputs[size_t(1 - i)];
  }
  if (c.x < 0) return -1;
  const ValueInfo& x = c.g.value(c.x).info;
  if (x.dtype != DType::f32 || c.g.value(u).info.shape != x.shape || c.g.value(tanh.inputs[0]).info.shape != x.shape)
    return -1;
  c.nodes = {scale, sum};
  const int k = other_operand(*sum, c.x);
  const Node* coef = k >= 0 ? c.made_by(k, "Mul") : nullptr;
  if (!coef) return -1;
  const int cube = near_constant(c.g, coef->inputs[0], 0.044715) ? coef->inputs[1] : coef->inputs[0];
  if (!is_cube(c, cube)) return -1;
  c.nodes.push_back(&tanh);
  const int a = one_plus(c, tanh.outputs[0]);
  return a < 0 ? -1 : half_x_times(c, a);
}

}  // namespace

void fuse_gelu(Graph& g, PassDeclines&) {
  const auto consumers = consumers_of(g);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& node = g.nodes[n];
    const bool erf = is_op(node, "Erf"), tanh = is_op(node, "Tanh");
    if (!erf && !tanh) continue;
    Chain c{g, consumers, -1, {}};
    const int y = erf ? match_erf(c, node) : match_tanh(c, node);
    if (y < 0 || g.value(c.x).info.dtype != DType::f32) continue;
    const Node* last = g.value(y).producer >= 0 ? &g.nodes[size_t(g.value(y).producer)] : nullptr;
    std::string note = std::string(erf ? "0.5*x*(1+Erf(x/sqrt(2)))" : "0.5*x*(1+Tanh(sqrt(2/pi)*(x+0.044715*x^3)))") +
                       " from";
    for (const Node* taken : c.nodes) note += " '" + taken->name + "'";
    // The Gelu takes the last node's place (its output's readers come after it); the nodes before it are
    // left without readers and removed.
    g.nodes[size_t(last - g.nodes.data())] =
        make_node(g, last->name, kInternalDomain, erf ? "Gelu" : "GeluTanh", {c.x}, {y}, {}, note);
  }
}

}  // namespace cnnx
