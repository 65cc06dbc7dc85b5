// Pass "fuse-matmul-bias": MatMul(A, constant B) -> Add(constant bias), as torch.onnx writes nn.Linear on input
// of rank 3 or more, becomes one cnnx.internal FusedMatMul (ops/gemm/matmul.h) whose oneDNN kernel adds the
// bias inside the matmul primitive. The bias must be a float32 constant with one value per output column
// (shape [N], or [1, ..., 1, N] of at most the output's rank: broadcast along the last dim only) and the
// MatMul's output read only by the Add; B must be 2-D or batched (a 1-D B drops the N dim).
#include "engine/op.h"
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

void fuse_matmul_bias(Graph& g, Backend) {
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
    const int column_id = add_value(g, g.value(add->outputs[0]).name + "_bias", ValueInfo::of(column));
    const std::string note = "MatMul+Add from '" + mm.name + "' '" + add->name + "'";
    // The fused node takes the Add's place (after the MatMul); the MatMul is left without readers.
    g.nodes[size_t(add - g.nodes.data())] = make_node(g, mm.name, kInternalDomain, "FusedMatMul",
                                                      {mm.inputs[0], mm.inputs[1], column_id}, {add->outputs[0]}, {}, note);
  }
}

}  // namespace cnnx
