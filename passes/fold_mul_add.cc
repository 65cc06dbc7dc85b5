// Pass "fold-mul-add": a Conv followed by Mul and Add of constants per output channel (BatchNormalization as
// TensorFlow's graph optimizer folds it and tf2onnx writes it: x * scale + offset) becomes one Conv with the
// scale in its weights and the offset in its bias. The Mul and Add ran as two passes over the Conv's output,
// and they kept fuse-conv from taking the activation (Relu6 as Clip) and residual Add after them.
//
// Matched: Conv (default domain, float32 constant W, constant bias or none) whose output is read only by a
// Mul, Add or Sub (the Conv's output first) with, as the other operand, a float32 constant of finite numbers
// that broadcasts per output channel: one number, or a shape that right-aligns to the output's with M or 1
// at the channel axis and 1 everywhere else ([1, M, 1, 1], [M, 1, 1], [1, 1, 1, 1]); then again on that
// node's output while the chain goes on (Mul then Add, Add then Mul, several of each), every intermediate
// value read only by the next node and no graph output.
//
// Why the result is the same: the Conv's output at channel m is sum(W[m] x) + B[m]; times s[m] it is
// sum((W[m] s[m]) x) + B[m] s[m], plus a[m] it is sum(W[m] x) + (B[m] + a[m]). The new W and B are computed in
// double and rounded once (the Conv's tolerance covers one rounding per weight). Constants with inf or NaN
// are left alone (w * inf for w = 0 gives NaN where the Conv's sum times inf gives +-inf or NaN elsewhere).
#include <algorithm>
#include <cmath>
#include <string>

#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

// The per-output-channel operand of a Mul/Add/Sub after a Conv of output `out` (M channels at axis 1): its
// M numbers (one repeated M times when it is a single number) into `per_channel`; "" when it is one, else why not.
std::string per_channel_constant(const Graph& g, int id, const Shape& out, std::vector<double>& per_channel) {
  const ValueInfo& c = g.value(id).info;
  if (!c.constant) return "its other operand is not a constant";
  if (c.dtype != DType::f32) return "its other operand is not float32";
  const int64_t M = out.size() > 1 ? out[1] : 0, rank = int64_t(out.size());
  const Tensor& t = *c.constant;
  bool fits = c.rank() <= rank;
  for (int64_t a = 0; fits && a < c.rank(); ++a) {
    const int64_t axis = rank - c.rank() + a;  // right-aligned, as ONNX broadcasts
    fits = c.shape[size_t(a)] == 1 || (axis == 1 && c.shape[size_t(a)] == M);
  }
  if (!fits) return "its constant of shape " + to_string(c.shape) + " is not per output channel of " + to_string(out);
  const float* v = t.data<float>();
  if (!std::all_of(v, v + t.numel(), [](float f) { return std::isfinite(f); }))
    return "its constant holds inf or NaN";
  per_channel.assign(size_t(M), 0.0);
  for (int64_t m = 0; m < M; ++m) per_channel[size_t(m)] = double(v[t.numel() == 1 ? 0 : m]);
  return "";
}

const Tensor* constant_f32(const Graph& g, int id) {
  if (id < 0) return nullptr;
  const ValueInfo& v = g.value(id).info;
  return v.constant && v.dtype == DType::f32 ? v.constant.get() : nullptr;
}

}  // namespace

void fold_mul_add(Graph& g, PassDeclines& declines) {
  const auto consumers = consumers_of(g);
  std::vector<bool> folded(g.nodes.size(), false);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (!is_op(g.nodes[n], "Conv")) continue;
    const Node& conv = g.nodes[n];
    const Tensor* W = constant_f32(g, conv.inputs[1]);
    const bool has_bias = conv.inputs.size() > 2 && conv.inputs[2] >= 0;
    const Tensor* B = has_bias ? constant_f32(g, conv.inputs[2]) : nullptr;
    const Shape& out_shape = g.value(conv.outputs[0]).info.shape;
    if (!W || (has_bias && !B) || out_shape.size() < 3) continue;
    const int64_t M = out_shape[1], per_filter = W->numel() / std::max<int64_t>(M, 1);
    // The folded weights and bias in double: W[m] * scale[m] and B[m] (then scaled and shifted).
    std::vector<double> scale(size_t(M), 1.0), bias(size_t(M), 0.0);
    for (int64_t m = 0; B && m < M; ++m) bias[size_t(m)] = double(B->data<float>()[m]);
    int out = conv.outputs[0];
    std::vector<std::string> names;
    std::vector<int> taken;
    for (;;) {
      const auto& readers = consumers[size_t(out)];
      if (readers.empty() || is_graph_output(g, out)) break;
      const Node& op = g.nodes[size_t(readers[0])];
      const bool arith = is_op(op, "Mul") || is_op(op, "Add") || is_op(op, "Sub");
      if (!arith || op.inputs.size() != 2 || op.inputs[0] == op.inputs[1]) break;
      const bool conv_first = op.inputs[0] == out;
      const int other = op.inputs[conv_first ? 1 : 0];
      if (!g.value(other).info.constant) break;  // not the pattern: a residual Add, a gate
      if (readers.size() > 1) {  // a near match: the pattern's next node, but the value is read elsewhere too
        declines.add(op, "the value it reads (from " + node_label(conv) + ") is read by other nodes too");
        break;
      }
      if (is_op(op, "Sub") && !conv_first) {
        declines.add(op, "subtracts the Conv's output from a constant");
        break;
      }
      std::vector<double> c;
      const std::string why = per_channel_constant(g, other, out_shape, c);
      if (!why.empty()) {
        declines.add(op, why);
        break;
      }
      for (int64_t m = 0; m < M; ++m) {
        if (is_op(op, "Mul")) {
          scale[size_t(m)] *= c[size_t(m)];
          bias[size_t(m)] *= c[size_t(m)];
        } else {
          bias[size_t(m)] += is_op(op, "Add") ? c[size_t(m)] : -c[size_t(m)];
        }
      }
      taken.push_back(readers[0]);
      names.push_back(node_label(op));
      out = op.outputs[0];
    }
    if (taken.empty()) continue;

    Tensor folded_w = Tensor::uninitialized(DType::f32, W->shape()), folded_b(DType::f32, {M});
    for (int64_t m = 0; m < M; ++m) {
      for (int64_t i = 0; i < per_filter; ++i)
        folded_w.data<float>()[m * per_filter + i] = float(double(W->data<float>()[m * per_filter + i]) * scale[size_t(m)]);
      folded_b.data<float>()[m] = float(bias[size_t(m)]);
    }
    const int w_id = add_value(g, g.value(conv.inputs[1]).name + "_scaled", ValueInfo::of(folded_w));
    const int b_id = add_value(g, conv.name + "_shifted_bias", ValueInfo::of(folded_b));
    Node& c = g.nodes[n];
    c.inputs = {c.inputs[0], w_id, b_id};
    c.outputs[0] = out;
    std::string note = "Conv+";
    for (size_t i = 0; i < names.size(); ++i) note += (i ? "+" : "") + g.nodes[size_t(taken[i])].op_type;
    note += " from '" + c.name + "'";
    for (int t : taken) note += " '" + g.nodes[size_t(t)].name + "'";
    c.note = (c.note.empty() ? "" : c.note + "; ") + note;
    for (int t : taken) folded[size_t(t)] = true;
  }
  // The Conv writes the chain's last value; it comes before every reader of that value (they read it after
  // the chain's last node, which comes after the Conv), so the order stays topological.
  std::vector<Node> kept;
  for (size_t n = 0; n < g.nodes.size(); ++n)
    if (!folded[n]) kept.push_back(std::move(g.nodes[n]));
  g.nodes = std::move(kept);
}

}  // namespace cnnx
