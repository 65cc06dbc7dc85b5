// A GraphBuilder's graph (engine/graph_builder.h) completed, with its inputs' infos and seeded random inputs:
// what a test plans and runs.
#pragma once

#include <memory>
#include <vector>

#include "ops/builtin_ops.h"
#include "engine/graph_builder.h"
#include "runtime/plan.h"
#include "tests/unit/op_harness.h"

namespace cnnx::testing {

struct BuiltGraph {
  std::shared_ptr<const Graph> graph;
  std::vector<ValueInfo> infos;
  std::vector<Tensor> inputs;
};

// b.finish(builtin_ops()) (build_graph: sorted, inferred), and random inputs uniform in [-2, 2), every input drawn from `seed`.
inline BuiltGraph build(GraphBuilder& b, uint32_t seed) {
  BuiltGraph r{b.finish(builtin_ops()), {}, {}};
  for (int id : r.graph->inputs) {
    r.infos.push_back(r.graph->value(id).info);
    r.inputs.push_back(random_tensor(r.graph->value(id).info.shape, seed, -2.f, 2.f));
  }
  return r;
}

// plan.run(inputs) with every node checked against its reference kernel on the way (Plan::run's checks), each
// check within its op's tolerance (CHECKed, naming the node); the outputs.
inline std::vector<Tensor> run_verified(const Plan& plan, const std::vector<Tensor>& inputs) {
  std::vector<NodeCheck> checks;
  std::vector<Tensor> got = plan.run(inputs, &checks);
  for (const NodeCheck& nc : checks) {
    CAPTURE(nc.node);
    CAPTURE(nc.kernel);
    CHECK_MESSAGE(nc.within, nc.detail);
  }
  return got;
}

}  // namespace cnnx::testing
