// Pass "pad-through-transpose": a Pad written in NHWC before the Transpose into NCHW (Keras' ZeroPadding2D as
// tf2onnx exports it: Pad with pads [0, t, l, 0, 0, b, r, 0] -> Transpose(0, 3, 1, 2) -> Conv) becomes the
// Transpose then a Pad with the pads permuted, so that fold-pad (run next) folds it into the Conv or
// AveragePool reading it. The Pad ran as a copy of its own.
//
// Matched: a default-domain Pad in constant mode over float32, with known pads and value (passes/fold_pad.cc
// needs them known too), read only by a Transpose (as its input), whose output a Conv or AveragePool reads as
// X. Transpose then Pad gives the same tensor: output axis i of the Transpose is input axis perm[i], so it
// gets that axis's pads. The new Pad is written at opset 11 or later (pads and value as inputs).
#include <string>

#include "ops/tensor/pad.h"
#include "ops/tensor/transpose.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

// True when a Conv or an AveragePool reads `value` as its X.
bool read_as_pooled_or_convolved(const Graph& g, const std::vector<std::vector<int>>& consumers, int value) {
  for (int r : consumers[size_t(value)]) {
    const Node& n = g.nodes[size_t(r)];
    if ((is_op(n, "Conv") || is_op(n, "AveragePool")) && n.inputs[0] == value) return true;
  }
  return false;
}

}  // namespace

void pad_through_transpose(Graph& g, PassDeclines& declines) {
  const auto consumers = consumers_of(g);
  const size_t count = g.nodes.size();  // new values only; nodes are replaced in place
  for (size_t n = 0; n < count; ++n) {
    if (!is_op(g.nodes[n], "Transpose") || g.nodes[n].outputs[0] < 0) continue;
    const Node& transpose = g.nodes[n];
    const Node* pad = producer_of(g, transpose.inputs[0]);
    if (!pad || !is_op(*pad, "Pad") || !read_as_pooled_or_convolved(g, consumers, transpose.outputs[0])) continue;
    const auto& p = params_as<PadParams>(*pad->params, pad->op_type);
    const ValueInfo& data = g.value(pad->inputs[0]).info;
    KnownPads k;
    std::string why;
    if (p.mode != PadMode::constant) why = "not constant mode";
    else if (data.dtype != DType::f32) why = "pads a tensor that is not float32";
    else if (!used_once(g, consumers, pad->outputs[0])) why = "read by another node too, or a graph output";
    else if (!known_pads(p, input_infos(g, *pad), k) || !k.value) why = "its pads or value are read at run time";
    if (!why.empty()) {
      declines.add(*pad, why);
      continue;
    }
    const auto& tp = params_as<TransposeParams>(*transpose.params, transpose.op_type);
    const std::vector<int64_t> perm = resolve_perm(tp, data.rank());
    const size_t rank = perm.size();
    Shape moved(rank);
    std::vector<int64_t> pads(2 * rank);
    for (size_t i = 0; i < rank; ++i) {
      moved[i] = data.shape[size_t(perm[i])];
      pads[i] = k.begin[size_t(perm[i])];
      pads[rank + i] = k.end[size_t(perm[i])];
    }
    const std::string pad_name = pad->name, transpose_name = transpose.name;
    const int pad_index = int(pad - g.nodes.data()), source = pad->inputs[0], out = transpose.outputs[0];
    const int moved_id = add_value(g, g.value(source).name + "_transposed", ValueInfo::of(DType::f32, moved));
    Tensor pads_tensor(DType::i64, {int64_t(2 * rank)});
    for (size_t i = 0; i < pads.size(); ++i) pads_tensor.data<int64_t>()[i] = pads[i];
    Tensor value_tensor(DType::f32, {});
    value_tensor.data<float>()[0] = float(*k.value);
    const int pads_id = add_value(g, pad_name + "_pads_permuted", ValueInfo::of(pads_tensor));
    const int value_id = add_value(g, pad_name + "_value", ValueInfo::of(value_tensor));
    const std::string note = "Transpose then Pad from '" + pad_name + "' '" + transpose_name + "'";
    Attributes perm_attr;
    perm_attr.set("perm", ints_attr(perm));
    Node moved_transpose = make_node(g, transpose_name, "", "Transpose", {source}, {moved_id}, perm_attr, note);
    Attributes mode;
    mode.set("mode", string_attr("constant"));
    Node moved_pad = make_node(g, pad_name, "", "Pad", {moved_id, pads_id, value_id}, {out}, mode, note, 11);
    // The Transpose takes the Pad's place (its input is ready there), the Pad the Transpose's (before its readers).
    g.nodes[size_t(pad_index)] = std::move(moved_transpose);
    g.nodes[n] = std::move(moved_pad);
    g.values[size_t(moved_id)].producer = pad_index;
  }
}

}  // namespace cnnx
