#include <algorithm>
#include <numeric>

#include "ops/builtin_ops.h"
#include "engine/op_registry.h"
#include "ops/tensor/channel_shuffle.h"
#include "ops/tensor/concat.h"
#include "ops/tensor/transpose.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

int64_t concat_axis(const Node& concat, int64_t rank) {
  const int64_t axis = params_as<ConcatParams>(*concat.params, concat.op_type).axis;
  return axis < 0 ? axis + rank : axis;
}

}  // namespace

void fuse_channel_shuffle(Graph& g, PassDeclines&) {
  const OpDef& def = builtin_ops().find(kInternalDomain, "ChannelShuffle", 1);
  const auto consumers = consumers_of(g);
  for (Node& split : g.nodes) {
    if (!is_op(split, "Reshape") || split.outputs[0] < 0) continue;
    const Shape& x = g.value(split.inputs[0]).info.shape;
    const Shape& grouped = g.value(split.outputs[0]).info.shape;  // [N, g, C/g, ...]
    if (x.size() < 2 || grouped.size() != x.size() + 1 || grouped[0] != x[0] || grouped[1] < 1 ||
        grouped[1] * grouped[2] != x[1] || !std::equal(x.begin() + 2, x.end(), grouped.begin() + 3))
      continue;
    const Node* swap = sole_reader(g, consumers, split.outputs[0]);
    if (!swap || !is_op(*swap, "Transpose") || swap->outputs[0] < 0) continue;
    std::vector<int64_t> perm(grouped.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::swap(perm[1], perm[2]);
    const auto& tp = params_as<TransposeParams>(*swap->params, swap->op_type);
    if (!tp.has_perm || tp.perm != perm) continue;
    const Node* merge = sole_reader(g, consumers, swap->outputs[0]);
    if (!merge || !is_op(*merge, "Reshape") || merge->outputs[0] < 0 || g.value(merge->outputs[0]).info.shape != x)
      continue;
    // A Concat of g parts of C/g channels read only here is absorbed: the shuffle reads the parts.
    std::vector<int> inputs{split.inputs[0]};
    const int producer = g.value(split.inputs[0]).producer;
    if (producer >= 0 && used_once(g, consumers, split.inputs[0])) {
      const Node& cat = g.nodes[size_t(producer)];
      const bool parts = is_op(cat, "Concat") && int64_t(cat.inputs.size()) == grouped[1] &&
                         concat_axis(cat, int64_t(x.size())) == 1 &&
                         std::all_of(cat.inputs.begin(), cat.inputs.end(), [&](int id) {
                           return id >= 0 && g.value(id).info.shape[1] == grouped[2];
                         });
      if (parts) inputs = cat.inputs;
    }
    auto params = std::make_shared<ChannelShuffleParams>();
    params->groups = grouped[1];
    Node shuffle;
    shuffle.name = merge->name;
    shuffle.op_type = "ChannelShuffle";
    shuffle.domain = kInternalDomain;
    shuffle.opset = 1;
    shuffle.def = &def;
    shuffle.inputs = inputs;
    shuffle.outputs = {merge->outputs[0]};
    shuffle.note = "channel shuffle (" + std::to_string(grouped[1]) + " groups) from " +
                   (inputs.size() > 1 ? "'" + g.nodes[size_t(producer)].name + "' " : std::string()) + "'" + split.name +
                   "' '" + swap->name + "' '" + merge->name + "'";
    shuffle.params = std::move(params);
    // The shuffle takes the last node's place (its output's readers come after it); the nodes before it
    // are left without readers and removed.
    g.nodes[size_t(merge - g.nodes.data())] = std::move(shuffle);
  }
}

}  // namespace cnnx
