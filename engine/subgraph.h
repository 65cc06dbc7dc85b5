// How control-flow ops (If, Loop) run their subgraphs: each is planned once, when the plan holding the node is
// built, for the concrete infos of its inputs, through the SubgraphPlanner the plan hands its kernels
// (CompileContext::subgraphs). The runtime's planner (runtime/plan.cc) builds a full Plan per subgraph, with
// the enclosing plan's backend, limits and team: its own arena, kernels compiled once.
// A Loop whose shapes come from data is not planned: its body runs node by node with the data of each
// iteration, through a GraphRunner (runtime/data_run.h) made with the run's options.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/tensor.h"
#include "engine/value_info.h"

namespace cnnx {

struct Graph;

// A subgraph ready to run for one set of input infos. run() may be called from many threads at once; each
// call takes an arena of its own from the subgraph's pool (one per caller in flight, reused: none is made in
// the steady state of a loop).
class PlannedSubgraph {
 public:
  virtual ~PlannedSubgraph() = default;
  // `inputs` in the subgraph's input order, of exactly the infos it was planned for; returns its outputs.
  virtual std::vector<Tensor> run(const std::vector<Tensor>& inputs) const = 0;
  // The concrete infos of its outputs.
  virtual const std::vector<ValueInfo>& outputs() const = 0;
};

class SubgraphPlanner {
 public:
  virtual ~SubgraphPlanner() = default;
  // Plans `graph` (a built subgraph) for inputs of these infos; throws cnnx::Error when it cannot.
  virtual std::shared_ptr<const PlannedSubgraph> plan(const Graph& graph, const std::vector<ValueInfo>& inputs) const = 0;
  // The most iterations a Loop may run (Options::max_loop_iterations).
  virtual int64_t max_loop_iterations() const = 0;
};

// Runs a built graph node by node on its inputs' data: each node's output shapes are inferred from the data
// it gets, so they may change from one call to the next (a Loop body whose carried values grow). Kernels are
// compiled once per node and shapes and kept for the runner's life (one run of a plan's tail). Not
// thread-safe: one runner per run.
class GraphRunner {
 public:
  virtual ~GraphRunner() = default;
  // `inputs` in the graph's input order; returns its outputs. Errors name the node.
  virtual std::vector<Tensor> run(const Graph& graph, const std::vector<Tensor>& inputs) = 0;
  // The run's limits (Options::max_tensor_bytes, Options::max_loop_iterations).
  virtual int64_t max_tensor_bytes() const = 0;
  virtual int64_t max_loop_iterations() const = 0;
};

}  // namespace cnnx
