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
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ops/conv/conv.h"
#include "ops/pool/pool.h"
#include "ops/tensor/pad.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

// The constant-mode Pad's spatial pads as a Conv/pool `pads` list [begin..., end...] into `pads` when it pads
// only spatial axes (2 and after) with +0; else why not.
std::string spatial_zero_pads(const Graph& g, const Node& pad, std::vector<int64_t>& pads) {
  const auto& p = params_as<PadParams>(*pad.params, pad.op_type);
  KnownPads k;
  if (!known_pads(p, input_infos(g, pad), k)) return "its pads (or axes) are read at run time";
  if (k.begin.size() < 3) return "rank " + std::to_string(k.begin.size()) + ": no spatial axes";
  if (!k.value || *k.value != 0 || std::signbit(*k.value)) {  // a -0 cell could keep a sign
    char value[32] = "an unknown value";
    if (k.value) std::snprintf(value, sizeof value, "%g", *k.value);
    return "pads with " + std::string(value) + ", not +0";
  }
  const size_t rank = k.begin.size();
  pads.assign(2 * (rank - 2), 0);
  for (size_t a = 0; a < rank; ++a) {
    if (k.begin[a] < 0 || k.end[a] < 0) return "crops axis " + std::to_string(a) + " (a negative pad)";
    if (a < 2 && (k.begin[a] != 0 || k.end[a] != 0))
      return "pads axis " + std::to_string(a) + (a == 0 ? " (batch)" : " (channels)");
    if (a < 2) continue;
    pads[a - 2] = k.begin[a];
    pads[rank - 2 + a - 2] = k.end[a];
  }
  return "";
}

// `own` (empty: all 0) plus `added`.
std::vector<int64_t> sum_pads(std::vector<int64_t> own, const std::vector<int64_t>& added) {
  own.resize(added.size(), 0);
  for (size_t i = 0; i < added.size(); ++i) own[i] += added[i];
  return own;
}

// Why `reader`, a Conv or an AveragePool, cannot take the Pad's `added` cells as its own pads ("" when it can:
// `attrs` then has them).
std::string fold_into(const Node& reader, const std::vector<int64_t>& added, Attributes& attrs) {
  const std::string name = node_label(reader);
  if (is_op(reader, "Conv")) {
    const auto& p = params_as<ConvParams>(*reader.params, reader.op_type);
    if (p.auto_pad != AutoPad::notset) return name + " pads by auto_pad";
    if (!p.pads.empty() && p.pads.size() != added.size())
      return "the pads of " + name + " are for other axes than the Pad's";
    attrs.set("pads", ints_attr(sum_pads(p.pads, added)));
    return "";
  }
  const auto& p = params_as<PoolParams>(*reader.params, reader.op_type);
  const PoolWindow& w = p.window;
  if (reader.opset < 7) return name + " is opset " + std::to_string(reader.opset) + ": no count_include_pad";
  if (w.auto_pad != PoolAutoPad::notset) return name + " pads by auto_pad";
  if (w.ceil_mode) return name + " has ceil_mode (a last window starting in the Pad's cells would be dropped)";
  if (w.pads.size() != added.size()) return "the pads of " + name + " are for other axes than the Pad's";
  if (!p.count_include_pad && !all_equal(w.pads, 0)) return name + " has pads of its own that it does not count";
  attrs.set("pads", ints_attr(sum_pads(w.pads, added)));
  attrs.set("count_include_pad", int_attr(1));
  return "";
}

}  // namespace

void fold_pad(Graph& g, PassDeclines& declines) {
  const auto consumers = consumers_of(g);
  for (const Node& pad : g.nodes) {
    if (!is_op(pad, "Pad") || pad.outputs[0] < 0) continue;
    // The pattern's anchor: a Pad of constant mode read as X by a Conv or an AveragePool; what fails past it
    // is a near match.
    const auto& readers = consumers[size_t(pad.outputs[0])];
    const bool anchored =
        params_as<PadParams>(*pad.params, pad.op_type).mode == PadMode::constant &&
        std::any_of(readers.begin(), readers.end(), [&](int r) {
          const Node& n = g.nodes[size_t(r)];
          return (is_op(n, "Conv") || is_op(n, "AveragePool")) && n.inputs[0] == pad.outputs[0];
        });
    if (!anchored) continue;
    const Node* reader = sole_reader(g, consumers, pad.outputs[0]);
    if (!reader) {
      declines.add(pad, "read by another node too, or a graph output");
      continue;
    }
    if (std::count(reader->inputs.begin(), reader->inputs.end(), pad.outputs[0]) > 1) {
      declines.add(pad, node_label(*reader) + " reads it as another input too");
      continue;
    }
    std::vector<int64_t> added;
    Attributes attrs = reader->attrs;
    std::string why = spatial_zero_pads(g, pad, added);
    if (why.empty()) why = fold_into(*reader, added, attrs);
    if (!why.empty()) {
      declines.add(pad, why);
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
