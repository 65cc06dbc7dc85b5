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
#include "ops/shape/pad.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

// The Pad's spatial pads as a Conv/pool `pads` list [begin..., end...] into `pads` when it pads only spatial
// axes (2 and after) with +0; else why not.
std::string spatial_zero_pads(const Graph& g, const Node& pad, std::vector<int64_t>& pads) {
  const auto& p = params_as<PadParams>(*pad.params, pad.op_type);
  KnownPads k;
  if (p.mode != PadMode::constant) return "mode " + std::string(pad_mode_name(p.mode)) + ", not constant";
  if (!known_pads(p, input_infos(g, pad), k)) return "its pads or value are read at run time";
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

}  // namespace

void fold_pad(Graph& g, PassDeclines& declines) {
  const auto consumers = consumers_of(g);
  for (const Node& pad : g.nodes) {
    if (!is_op(pad, "Pad") || pad.outputs[0] < 0) continue;
    // The pattern's anchor: a Pad read as X by a Conv or an AveragePool; what fails past it is a near match.
    const auto& readers = consumers[size_t(pad.outputs[0])];
    const bool anchored = std::any_of(readers.begin(), readers.end(), [&](int r) {
      const Node& n = g.nodes[size_t(r)];
      return (is_op(n, "Conv") || is_op(n, "AveragePool")) && n.inputs[0] == pad.outputs[0];
    });
    if (!anchored) continue;
    const Node* reader = sole_reader(g, consumers, pad.outputs[0]);
    for (size_t i = 1; reader && i < reader->inputs.size(); ++i)
      if (reader->inputs[i] == pad.outputs[0]) reader = nullptr;
    if (!reader) {
      declines.add(pad, "read by another node too, or a graph output");
      continue;
    }
    std::vector<int64_t> added;
    if (const std::string why = spatial_zero_pads(g, pad, added); !why.empty()) {
      declines.add(pad, why);
      continue;
    }
    Attributes attrs = reader->attrs;
    if (is_op(*reader, "Conv")) {
      const auto& p = params_as<ConvParams>(*reader->params, reader->op_type);
      if (p.auto_pad != AutoPad::notset) {
        declines.add(pad, "its Conv '" + reader->name + "' pads by auto_pad");
        continue;
      }
      if (!p.pads.empty() && p.pads.size() != added.size()) continue;  // the Conv's parse refuses this
      attrs.set("pads", ints_attr(sum_pads(p.pads, added)));
    } else {
      const auto& p = params_as<PoolParams>(*reader->params, reader->op_type);
      const PoolWindow& w = p.window;
      const std::string why =
          reader->opset < 7                              ? "AveragePool opset " + std::to_string(reader->opset) + " has no count_include_pad"
          : w.auto_pad != PoolAutoPad::notset           ? "its AveragePool pads by auto_pad"
          : w.ceil_mode                                 ? "its AveragePool has ceil_mode (a last window starting in the Pad's cells would be dropped)"
          : w.pads.size() != added.size()               ? "its AveragePool's pads do not match the Pad's axes"
          : !p.count_include_pad && !all_equal(w.pads, 0) ? "its AveragePool has pads of its own that it does not count"
                                                         : "";
      if (!why.empty()) {
        declines.add(pad, why);
        continue;
      }
      attrs.set("pads", ints_attr(sum_pads(w.pads, added)));
      attrs.set("count_include_pad", int_attr(1));
    }
    const std::string note = "Pad+" + reader->op_type + " from '" + pad.name + "' '" + reader->name + "'";
    std::vector<int> inputs = reader->inputs;
    inputs[0] = pad.inputs[0];
    // The Pad is left without readers.
    g.nodes[size_t(reader - g.nodes.data())] = make_node(g, reader->name, "", reader->op_type, inputs, reader->outputs, attrs, note);
  }
}

}  // namespace cnnx
