// Pass "elementwise-before-transpose": an elementwise op reading a Transpose runs before it instead. tf2onnx
// without its transpose optimizer (or where the optimizer stopped) writes each TensorFlow op in NHWC between
// Transposes: Conv -> Transpose(0, 2, 3, 1) -> Mul(scale [C]) -> Add(offset [C]) -> Clip(0, 6) ->
// Transpose(0, 3, 1, 2). Moving the Mul, Add and Clip before the first Transpose leaves the Transposes next
// to each other (cancel-transposes, run next, removes them), the Mul and Add per output channel of the Conv
// (fold-mul-add) and the Clip after it (fuse-conv).
//
// Matched: a default-domain Transpose of a Conv's output (or of an op this pass moved) read only by one node,
// which is
//   - Mul, Add, Sub or Div with the Transpose's output as one operand and a constant as the other, whose dims
//     (right-aligned) are 1 or the Transpose's output dim (the constant adds no axis and widens none);
//   - Relu, or Clip with constant bounds (or none).
// op(Transpose_perm(x), c) = Transpose_perm(op(x, c')) where c' is c with a leading 1 per missing axis, its
// axis i moved to perm[i]: the same numbers meet the same numbers.
#include <cstring>
#include <string>

#include "ops/tensor/transpose.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

bool is_binary(const Node& n) { return is_op(n, "Mul") || is_op(n, "Add") || is_op(n, "Sub") || is_op(n, "Div"); }

// `c` (rank <= out's, each dim 1 or out's) laid out for the Transpose's input: c'[perm[i]] = c[i] over the
// rank-padded shape. Returns false when c does not fit.
bool untransposed_constant(const Tensor& c, const Shape& out, const std::vector<int64_t>& perm, Tensor& moved) {
  const size_t rank = out.size();
  if (c.shape().size() > rank) return false;
  Shape padded(rank, 1);
  for (size_t a = 0; a < c.shape().size(); ++a) padded[rank - c.shape().size() + a] = c.shape()[a];
  for (size_t i = 0; i < rank; ++i)
    if (padded[i] != 1 && padded[i] != out[i]) return false;
  Shape shape(rank);
  for (size_t i = 0; i < rank; ++i) shape[size_t(perm[i])] = padded[i];
  moved = Tensor::uninitialized(c.dtype(), shape);
  // Strides of the padded constant and of the moved one, then copy element by element (constants are small).
  std::vector<int64_t> from_stride(rank, 1), to_stride(rank, 1);
  for (size_t i = rank; i-- > 1;) {
    from_stride[i - 1] = from_stride[i] * padded[i];
    to_stride[i - 1] = to_stride[i] * shape[i];
  }
  const size_t bytes = dtype_size(c.dtype());
  const auto* src = static_cast<const char*>(c.raw());
  auto* dst = static_cast<char*>(moved.raw());
  for (int64_t e = 0; e < c.numel(); ++e) {
    int64_t rest = e, at = 0;
    for (size_t i = 0; i < rank; ++i) {
      const int64_t index = rest / from_stride[i];
      rest %= from_stride[i];
      at += index * to_stride[size_t(perm[i])];
    }
    std::memcpy(dst + size_t(at) * bytes, src + size_t(e) * bytes, bytes);
  }
  return true;
}

// One sweep in node order; true when it moved an op (which may now read another Transpose). `moved_out`:
// per value, whether a moved op writes it.
bool move_elementwise_ops(Graph& g, PassDeclines& declines, std::vector<bool>& moved_out) {
  const auto consumers = consumers_of(g);
  bool moved_any = false;
  for (size_t j = 0; j < g.nodes.size(); ++j) {
    const Node& op = g.nodes[j];
    const bool unary = is_op(op, "Relu") || is_op(op, "Clip");
    if (!unary && !(is_binary(op) && op.inputs.size() == 2)) continue;
    // A Transpose writing a graph output would stay (cancel-transposes keeps the output's name).
    if (is_graph_output(g, op.outputs[0])) continue;
    // Which operand reads a Transpose read only here.
    int operand = -1;
    for (size_t k = 0; k < (unary ? 1 : 2); ++k) {
      const Node* t = producer_of(g, op.inputs[k]);
      if (t && is_op(*t, "Transpose") && used_once(g, consumers, op.inputs[k])) operand = int(k);
    }
    if (operand < 0) continue;
    const int transposed = op.inputs[size_t(operand)];
    const size_t i = size_t(g.value(transposed).producer);
    const Node& transpose = g.nodes[i];
    // Only where the op belongs to a convolution: the Transpose permutes a Conv's output, or that of an op
    // already moved (elsewhere, as in attention, moving it would only trade places).
    const int source = transpose.inputs[0];
    const Node* before = producer_of(g, source);
    const bool from_conv = (before && is_op(*before, "Conv")) || (size_t(source) < moved_out.size() && moved_out[size_t(source)]);
    if (!from_conv) continue;
    const std::vector<int64_t> perm =
        resolve_perm(params_as<TransposeParams>(*transpose.params, transpose.op_type), g.value(transpose.inputs[0]).info.rank());
    std::vector<int> inputs = op.inputs;
    inputs[size_t(operand)] = transpose.inputs[0];
    bool constant_rest = true;  // and written before the Transpose's place, where the op goes
    for (size_t k = 0; k < inputs.size(); ++k)
      if (int(k) != operand && inputs[k] >= 0)
        constant_rest = constant_rest && bool(g.value(inputs[k]).info.constant) && g.value(inputs[k]).producer < int(i);
    if (!constant_rest) continue;  // not the pattern: both operands computed
    if (!unary) {
      const int other = inputs[size_t(1 - operand)];
      Tensor moved;
      if (!untransposed_constant(*g.value(other).info.constant, g.value(transposed).info.shape, perm, moved)) {
        declines.add(op, "its constant of shape " + to_string(g.value(other).info.shape) + " widens the Transpose's output");
        continue;
      }
      inputs[size_t(1 - operand)] = add_value(g, g.value(other).name + "_untransposed", ValueInfo::of(moved));
    }
    const Node& o = g.nodes[j];  // add_value moves values, not nodes; refreshed for clarity
    const Node& t = g.nodes[i];
    const ValueInfo& x = g.value(t.inputs[0]).info;
    const int mid = add_value(g, g.value(o.outputs[0]).name + "_before_transpose", ValueInfo::of(x.dtype, x.shape));
    const std::string note = o.op_type + " before Transpose from '" + t.name + "' '" + o.name + "'";
    Node moved_op = make_node(g, o.name, "", o.op_type, inputs, {mid}, o.attrs, note);
    moved_op.opset = o.opset;
    moved_op.def = o.def;
    moved_op.params = o.params;
    Attributes perm_attr;
    perm_attr.set("perm", ints_attr(perm));
    Node moved_transpose = make_node(g, t.name, "", "Transpose", {mid}, o.outputs, perm_attr, note);
    g.nodes[i] = std::move(moved_op);  // the Transpose's place: its input is ready there
    g.nodes[j] = std::move(moved_transpose);
    g.values[size_t(mid)].producer = int(i);
    moved_out.resize(g.values.size(), false);
    moved_out[size_t(mid)] = true;
    moved_any = true;
  }
  return moved_any;
}

}  // namespace

void elementwise_before_transpose(Graph& g, PassDeclines& declines) {
  // Until nothing moves: an op moved before one Transpose may meet another (a round trip's first half). Each
  // move takes an op before a Transpose, so this ends; the bound only guards against a mistake.
  std::vector<bool> moved_out(g.values.size(), false);
  for (size_t round = 0; round <= g.nodes.size(); ++round) {
    PassDeclines last;  // the near matches of the final sweep only (earlier sweeps see them too)
    const bool moved = move_elementwise_ops(g, last, moved_out);
    if (!moved) {
      declines = std::move(last);
      return;
    }
  }
}

}  // namespace cnnx
