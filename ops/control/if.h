// If (opsets 1, 11, 13, 16, 19): input 0 `cond`, one bool element, picks `then_branch` or `else_branch`,
// subgraphs without inputs of their own that read values of the enclosing scopes (Graph::captured: the node's
// inputs after `cond`). The node's outputs are the branch's.
//
// Shapes: the branches are inferred with the node's input infos (infer_graph_outputs). A constant `cond`
// folds the node to its branch: the branch alone is inferred, folded when it is constant, and planned. Else
// both are planned once, with the enclosing plan, and each run the condition picks one; an output whose
// branches give it different shapes is refused when the plan is made (cnnx plans one shape per value).
// A branch that computes a shape from data makes the node's outputs not concrete: a plan ends at it and its
// tail runs it with the data (run_if_with_data).
// Sequence and optional outputs (opsets 13+) are refused by the importer as every non-tensor type is.
// Tolerance: the node copies its branch's outputs (kExact); the branch's ops are checked as any node.
#pragma once

#include <memory>

#include "engine/graph.h"
#include "engine/op.h"
#include "engine/subgraph.h"

namespace cnnx {

struct IfParams : OpParams {
  std::shared_ptr<const Graph> then_branch, else_branch;
};

IfParams parse_if(const Node& node);
std::vector<ValueInfo> infer_if(const IfParams& p, const std::vector<ValueInfo>& in);
Kernel<IfParams> if_kernel();
// The node's outputs for inputs `in` (cond, then the captured values): the branch cond picks, run node by node
// on their data by `runner`.
std::vector<Tensor> run_if_with_data(const IfParams& p, const std::vector<const Tensor*>& in, GraphRunner& runner);

}  // namespace cnnx
