// Pass "fuse-matmul-bias": MatMul(A, constant B) -> Add(constant bias), as torch.onnx writes nn.Linear on input
// of rank 3 or more, becomes one cnnx.internal FusedMatMul (ops/gemm/matmul.h) whose oneDNN kernel adds the
// bias inside the matmul primitive. The bias must be a float32 constant with one value per output column
// (shape [N], or [1, ..., 1, N] of at most the output's rank: broadcast along the last dim only) and the
// MatMul's output read only by the Add; B must be 2-D or batched (a 1-D B drops the N dim).
// Then, as FusedConv does, what follows when each value is read only by the next node: an Add of a float32
// non-constant value of the output's shape (the residual of a transformer block), then an activation the
// activation table fuses (the Gelu the fuse-gelu pass made: Linear -> GELU). Anything else stays a node.
#include "engine/op.h"
#include "ops/gemm/matmul.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

// The bias as [N] when `bias` is a float32 constant that adds one value per column of an [..., N] output.
bool per_column(const Graph& g, int bias, const Shape& out, Tensor& column) {
  const ValueInfo& b = g.value(bias).info;
  if (!b.constant || b.dtype != DType::f32 || b.shape.empty() || b.shape.size() > out.size() || b.shape.back() != out.back())
    return false;
  for (size_t d = 0; d + 1 < b.shape.size(); ++d)
    if (b.shape[d] != 1) return false;
  column = Tensor(DType::f32, {out.back()});
  std::copy(b.constant->data<float>(), b.constant->data<float>() + column.numel(), column.data<float>());
  return true;
}

}  // namespace

void fuse_matmul_bias(Graph& g, PassDeclines&) {
  const auto consumers = consumers_of(g);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& mm = g.nodes[n];
    if (!is_op(mm, "MatMul")) continue;
    const ValueInfo& b = g.value(mm.inputs[1]).info;
    const ValueInfo& y = g.value(mm.outputs[0]).info;
    if (!b.constant || b.rank() < 2 || y.dtype != DType::f32 || !y.concrete() || y.rank() < 1) continue;
    const Node* add = sole_reader(g, consumers, mm.outputs[0]);
    if (!add || !is_op(*add, "Add") || add->inputs.size() != 2 || g.value(add->outputs[0]).info.shape != y.shape) continue;
    const int bias = add->inputs[0] == mm.outputs[0] ? add->inputs[1] : add->inputs[0];
    Tensor column;
    if (bias == mm.outputs[0] || !per_column(g, bias, y.shape, column)) continue;
    std::vector<const Node*> taken{&mm, add};
    int out = add->outputs[0];
    MatMulFusion fusion;
    int residual = -1;
    // -> Add(a non-constant float32 value of the output's shape): the residual.
    if (const Node* r = sole_reader(g, consumers, out); r && is_op(*r, "Add") && r->inputs[0] != r->inputs[1]) {
      const int other = r->inputs[0] == out ? r->inputs[1] : r->inputs[0];
      const ValueInfo& v = g.value(other).info;
      if (v.dtype == DType::f32 && v.shape == y.shape && !v.constant) {
        residual = other;
        fusion.residual = true;
        taken.push_back(r);
        out = r->outputs[0];
      }
    }
    // -> activation.
    if (const Node* act = sole_reader(g, consumers, out); act && act->inputs[0] == out) {
      fusion.activation = fusable_activation(g, *act, fusion.args);
      if (fusion.activation) {
        taken.push_back(act);
        out = act->outputs[0];
      }
    }
    const int column_id = add_value(g, g.value(add->outputs[0]).name + "_bias", ValueInfo::of(column));
    std::string note = fusion.summary() + " from";
    for (const Node* t : taken) note += " '" + t->name + "'";
    std::vector<int> inputs{mm.inputs[0], mm.inputs[1], column_id};
    if (residual >= 0) inputs.push_back(residual);
    Node fused = make_node(g, mm.name, kInternalDomain, "FusedMatMul", inputs, {out}, {}, note);
    auto params = std::make_shared<MatMulParams>(params_as<MatMulParams>(*fused.params, fused.op_type));
    params->fusion = fusion;
    fused.params = std::move(params);
    // The fused node takes the place of the last node it absorbs (all its inputs are computed before that
    // one); the others are left without readers.
    const Node* last = taken.back();
    for (const Node* t : taken) last = std::max(last, t);
    g.nodes[size_t(last - g.nodes.data())] = std::move(fused);
  }
}

}  // namespace cnnx
