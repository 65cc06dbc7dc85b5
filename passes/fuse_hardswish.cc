// Pass "fuse-hardswish": x * HardSigmoid(x) with alpha 1/6 and beta 1/2, as torch.onnx writes nn.Hardswish
// below opset 14 (MobileNetV3), becomes one HardSwish (the activation table's row: oneDNN eltwise_hardswish,
// and a post-op when fuse-conv then fuses it into the Conv before it): two steps and a tensor fewer, and
// fuse-conv can take it, which it cannot while x has two readers.
//
// The Mul's operands in either order; the HardSigmoid's output read only by the Mul, both float32 of x's
// shape; alpha and beta within an ulp of 1/6 and 1/2 (HardSwish is x * max(0, min(1, x / 6 + 1/2)), so the
// results differ by the rounding of alpha * x against x / 6, inside HardSwish's tolerance). Anything else is
// left alone.
#include <cmath>

#include "ops/common/activation.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

bool within_ulp(float got, double want) { return std::fabs(double(got) - want) <= 1.2e-7 * std::fabs(want); }

}  // namespace

void fuse_hardswish(Graph& g, PassDeclines&) {
  const auto consumers = consumers_of(g);
  for (Node& mul : g.nodes) {
    if (!is_op(mul, "Mul") || mul.inputs.size() != 2 || mul.outputs[0] < 0) continue;
    for (int k = 0; k < 2; ++k) {
      const int x = mul.inputs[size_t(1 - k)], gate = mul.inputs[size_t(k)];
      const Node* hard_sigmoid = producer_of(g, gate);
      if (!hard_sigmoid || !is_op(*hard_sigmoid, "HardSigmoid") || hard_sigmoid->inputs[0] != x ||
          !used_once(g, consumers, gate))
        continue;
      const ValueInfo& xi = g.value(x).info;
      if (xi.dtype != DType::f32 || g.value(gate).info.shape != xi.shape || g.value(mul.outputs[0]).info.shape != xi.shape)
        continue;
      const ActivationArgs& a = params_as<ActivationParams>(*hard_sigmoid->params, hard_sigmoid->op_type).args;
      if (!within_ulp(a.alpha, 1.0 / 6) || !within_ulp(a.beta, 0.5)) continue;
      const std::string note = "x*HardSigmoid(x) from '" + hard_sigmoid->name + "' '" + mul.name + "'";
      // The HardSwish takes the Mul's place (its output's readers come after it); the HardSigmoid is left
      // without readers and removed. HardSwish is an opset-14 op, written into older graphs too.
      mul = make_node(g, mul.name, "", "HardSwish", {x}, {mul.outputs[0]}, {}, note, 14);
      break;
    }
  }
}

}  // namespace cnnx
