#include <numeric>

#include "engine/op_registry.h"
#include "ops/shape/channel_shuffle.h"
#include "ops/shape/transpose.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

bool is_op(const Node& node, const char* type) { return node.domain.empty() && node.op_type == type; }

// The node reading `value` when it is the only reader (and `value` is no graph output), else nullptr.
const Node* sole_reader(const Graph& g, const std::vector<std::vector<int>>& consumers, int value) {
  return used_once(g, consumers, value) ? &g.nodes[size_t(consumers[size_t(value)][0])] : nullptr;
}

}  // namespace

void fuse_channel_shuffle(Graph& g, Backend) {
  const OpDef& def = OpRegistry::builtin().find(kInternalDomain, "ChannelShuffle", 1);
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
    const auto& tp = static_cast<const TransposeParams&>(*swap->params);
    if (!tp.has_perm || tp.perm != perm) continue;
    const Node* merge = sole_reader(g, consumers, swap->outputs[0]);
    if (!merge || !is_op(*merge, "Reshape") || merge->outputs[0] < 0 || g.value(merge->outputs[0]).info.shape != x)
      continue;
    auto params = std::make_shared<ChannelShuffleParams>();
    params->groups = grouped[1];
    Node shuffle;
    shuffle.name = merge->name;
    shuffle.op_type = "ChannelShuffle";
    shuffle.domain = kInternalDomain;
    shuffle.opset = 1;
    shuffle.def = &def;
    shuffle.inputs = {split.inputs[0]};
    shuffle.outputs = {merge->outputs[0]};
    shuffle.note = "channel shuffle (" + std::to_string(grouped[1]) + " groups) from '" + split.name + "' '" +
                   swap->name + "' '" + merge->name + "'";
    shuffle.params = std::move(params);
    // The shuffle takes the last node's place (its output's readers come after it); the first two are
    // left without readers and removed.
    g.nodes[size_t(merge - g.nodes.data())] = std::move(shuffle);
  }
}

}  // namespace cnnx
