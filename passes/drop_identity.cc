#include "ops/tensor/pad.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

void drop_identity(Graph& g, PassDeclines&) {
  const auto consumers = consumers_of(g);
  for (const Node& node : g.nodes) {
    if (!node.domain.empty() || node.outputs[0] < 0) continue;
    bool passes_through = node.op_type == "Identity";
    if (node.op_type == "Dropout") {
      // Optional ratio / training_mode inputs must be constants (infer refused training with ratio > 0).
      bool constant_args = true;
      for (size_t i = 1; i < node.inputs.size(); ++i)
        constant_args = constant_args && (node.inputs[i] < 0 || g.value(node.inputs[i]).info.constant);
      const int mask = node.outputs.size() > 1 ? node.outputs[1] : -1;
      const bool mask_read = mask >= 0 && (!consumers[size_t(mask)].empty() || is_graph_output(g, mask));
      passes_through = constant_args && !mask_read;
    }
    if (node.op_type == "Pad") {
      // All-zero pads (PyTorch exports one before some pools) copy the input whatever the mode.
      KnownPads pads;
      passes_through = known_pads(params_as<PadParams>(*node.params, node.op_type), input_infos(g, node), pads) &&
                       all_equal(pads.begin, 0) && all_equal(pads.end, 0);
    }
    if (passes_through) replace_uses(g, node.outputs[0], node.inputs[0]);
  }
}

}  // namespace cnnx
