#include "runtime/plan_cost.h"

#include <set>

namespace cnnx {

PlanCost plan_cost(const Plan& plan) {
  PlanCost cost;
  std::set<int> weights;
  for (const PlanStep& step : plan.steps()) {
    if (step.node < 0) continue;  // a reorder the plan inserted
    const Node& node = plan.graph().nodes[size_t(step.node)];
    if (node.def->hints.flops) cost.flop += node.def->hints.flops(*node.params, step.in);
    for (int v : node.inputs)
      if (v >= 0 && plan.info(v).constant && weights.insert(v).second)
        cost.weight_bytes += int64_t(plan.info(v).constant->bytes());
  }
  return cost;
}

}  // namespace cnnx
