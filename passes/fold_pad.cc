// Pass "fold-pad": a Pad of zeros around the spatial axes, read only by a Conv or an AveragePool, becomes that
// node's own padding. torch.onnx writes `F.avg_pool2d(x, 3, stride=1, padding=1)` (count_include_pad, as in
// Inception v3) as Pad -> AveragePool without pads: the Pad ran as a plain copy with reorders to and from the
// blocked layouts around it, where oneDNN's pooling and convolution pad on the fly.
//
// Why the result is the same:
//   Conv         a padded cell holds 0 and adds w * 0 to the sum, as Conv's own padding does.
//   AveragePool  its divisor must count the Pad's cells: count_include_pad = 1 (the divisor counts the taps
//                inside input + pads). Taken when the pool has no pads of its own, or already counts them.
//                With ceil_mode a last window starting in the Pad's cells is kept but would be dropped as
//                starting in the padding: ceil_mode declines.
// Both need explicit pads (auto_pad NOTSET), the Pad in constant mode with a known +0 (a -0 cell could keep
// a sign) and known pads >= 0 on the spatial axes only, and read by no other node.
#include <cmath>

#include "ops/conv/conv.h"
#include "ops/pool/pool.h"
#include "ops/shape/pad.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

// The Pad's spatial pads as a Conv/pool `pads` list [begin..., end...] when it pads only spatial axes
// (2 and after) with +0; empty otherwise.
std::vector<int64_t> spatial_zero_pads(const Graph& g, const Node& pad) {
  const auto& p = params_as<PadParams>(*pad.params, pad.op_type);
  KnownPads k;
  if (p.mode != PadMode::constant || !known_pads(p, input_infos(g, pad), k) || k.begin.size() < 3 || !k.value ||
      *k.value != 0 || std::signbit(*k.value))
    return {};
  const size_t rank = k.begin.size();
  std::vector<int64_t> pads(2 * (rank - 2));
  for (size_t a = 0; a < rank; ++a) {
    if (k.begin[a] < 0 || k.end[a] < 0 || (a < 2 && (k.begin[a] != 0 || k.end[a] != 0))) return {};
    if (a < 2) continue;
    pads[a - 2] = k.begin[a];
    pads[rank - 2 + a - 2] = k.end[a];
  }
  return pads;
}

// `own` (empty: all 0) plus `added`.
std::vector<int64_t> sum_pads(std::vector<int64_t> own, const std::vector<int64_t>& added) {
  own.resize(added.size(), 0);
  for (size_t i = 0; i < added.size(); ++i) own[i] += added[i];
  return own;
}

}  // namespace

void fold_pad(Graph& g, Backend) {
  const auto consumers = consumers_of(g);
  for (const Node& pad : g.nodes) {
    if (!is_op(pad, "Pad") || pad.outputs[0] < 0) continue;
    const Node* reader = sole_reader(g, consumers, pad.outputs[0]);
    if (!reader || reader->inputs[0] != pad.outputs[0]) continue;
    for (size_t i = 1; i < reader->inputs.size(); ++i)
      if (reader->inputs[i] == pad.outputs[0]) reader = nullptr;
    if (!reader) continue;
    const std::vector<int64_t> added = spatial_zero_pads(g, pad);
    if (added.empty()) continue;
    Attributes attrs = reader->attrs;
    if (is_op(*reader, "Conv")) {
      const auto& p = params_as<ConvParams>(*reader->params, reader->op_type);
      if (p.auto_pad != AutoPad::notset || (!p.pads.empty() && p.pads.size() != added.size())) continue;
      attrs.set("pads", ints_attr(sum_pads(p.pads, added)));
    } else if (is_op(*reader, "AveragePool")) {
      const auto& p = params_as<PoolParams>(*reader->params, reader->op_type);
      const PoolWindow& w = p.window;
      if (reader->opset < 7 || w.auto_pad != PoolAutoPad::notset || w.ceil_mode || w.pads.size() != added.size() ||
          (!p.count_include_pad && !all_equal(w.pads, 0)))
        continue;
      attrs.set("pads", ints_attr(sum_pads(w.pads, added)));
      attrs.set("count_include_pad", int_attr(1));
    } else {
      continue;
    }
    const std::string note = "Pad+" + reader->op_type + " from '" + pad.name + "' '" + reader->name + "'";
    std::vector<int> inputs = reader->inputs;
    inputs[0] = pad.inputs[0];
    // The Pad is left without readers.
    g.nodes[size_t(reader - g.nodes.data())] = make_node(g, reader->name, "", reader->op_type, inputs, reader->outputs, attrs, note);
  }
}

}  // namespace cnnx
