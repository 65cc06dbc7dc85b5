// How a plan's tail runs the node whose shapes come from data (runtime/plan.h), and the subgraphs inside it
// that cannot be planned once (a Loop whose carried values change shape, an If whose branch computes a shape
// from data): node by node, each node inferred from the data its inputs hold, then run by its reference
// kernel. A Loop's body and an If's branch run the same way (ops/control: run_loop_with_data,
// run_if_with_data, called back through engine/subgraph.h's GraphRunner), so a Loop nested in such a body
// runs too, whatever its shapes.
//
// What does not depend on the data is kept for the DataRun's life (one run of a tail): per node, its kernel
// compiled for its last input and output shapes without the inputs' data (as a plan compiles one for values
// computed at run time), and its output buffers, taken again when the shapes repeat (a Loop's iterations) and
// nothing holds the previous value (a carried value or scan row keeps its buffer from reuse). A kernel that
// needs the data to compile (AdaptiveAvgPool's output_size) is compiled with it, each time.
// Bounds come from the run's options, passed explicitly: every output within PlanLimits::max_tensor_bytes
// before it is allocated, every Loop within PlanLimits::max_loop_iterations.
// With `checks` (--verify, Model::check): every node that ran a kept kernel is also folded anew from its data
// (engine/node_eval.h: its reference kernel compiled with the data, fresh outputs), and the two are compared
// within the op's tolerance, one NodeCheck per node (its worst run), kernel "ref (kept)".
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "engine/graph.h"
#include "engine/subgraph.h"
#include "runtime/plan.h"

namespace cnnx {

class DataRun final : public GraphRunner {
 public:
  explicit DataRun(const PlanLimits& limits, std::vector<NodeCheck>* checks = nullptr);
  ~DataRun() override;

  // The outputs of `node` (omitted ones undefined) for inputs `in` (nullptr where omitted). Errors name it.
  std::vector<Tensor> run_node(const Node& node, const std::vector<const Tensor*>& in);
  std::vector<Tensor> run(const Graph& graph, const std::vector<Tensor>& inputs) override;
  int64_t max_tensor_bytes() const override { return limits_.max_tensor_bytes; }
  int64_t max_loop_iterations() const override { return limits_.max_loop_iterations; }

 private:
  struct Kept;  // per node: its kernel and output buffers
  std::vector<Tensor> run_kernel(const Node& node, const std::vector<const Tensor*>& in,
                                 const std::vector<ValueInfo>& infos, const std::vector<ValueInfo>& out);
  void check(const Node& node, const std::vector<ValueInfo>& infos, const std::vector<ValueInfo>& out,
             const std::vector<Tensor>& got);

  PlanLimits limits_;
  std::vector<NodeCheck>* checks_;
  std::unordered_map<const Node*, std::unique_ptr<Kept>> kept_;
  std::unordered_map<const Node*, size_t> check_of_;  // index into *checks_
};

}  // namespace cnnx
