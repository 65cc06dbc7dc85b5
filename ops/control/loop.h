// Loop (opsets 1, 11, 13, 16, 19): inputs M (optional trip count, one int64), cond (optional, one bool) and
// N loop-carried initial values v_initial, then the values its body reads from enclosing scopes
// (Graph::captured). The body takes (iteration_num, cond, N carried values, captured) and gives (cond,
// N carried values, K scan outputs). The node gives the N final carried values and the K scan outputs, each
// the body's per-iteration values stacked along a new axis 0.
//
// It runs while (M omitted or i < M) and cond (omitted: true). Both omitted is an endless loop, as in ONNX;
// any Loop that runs more than Options::max_loop_iterations iterations is an error naming it (a hostile
// endless loop would otherwise hang its caller). A negative M is an error when it is known (at the plan) or
// when it is read (each run).
// The body is planned once, with the enclosing plan, for carried values of the shapes of v_initial, when it
// keeps them: scan outputs then need their number of rows when the plan is made (M known, and a cond the body
// cannot turn false: omitted or constant true at the start, and the body's cond output constant true whenever
// its cond input is). Otherwise the shapes come from data: a carried value the body changes (grows by a Concat,
// or computes from data), scan rows of a shape from data, or a number of rows known only by running. Then the
// node's output infos are not concrete, the plan ends at it (runtime/plan.h) and its tail runs it with every
// input known (run_loop_with_data): each iteration runs the body node by node on its data (engine/subgraph.h
// GraphRunner), so shapes may change between iterations as ONNX allows.
// A planned body's runs reuse its arenas (one per caller in flight): no allocation in the steady state; a run
// hands the body its inputs without copying and copies each scan row into place.
// Tolerance: the node copies its body's outputs (kExact); the body's ops are checked as any node.
#pragma once

#include <memory>

#include "engine/graph.h"
#include "engine/op.h"
#include "engine/subgraph.h"

namespace cnnx {

struct LoopParams : OpParams {
  std::shared_ptr<const Graph> body;
  size_t carried = 0;  // N
  size_t scans = 0;    // K
};

LoopParams parse_loop(const Node& node);
std::vector<ValueInfo> infer_loop(const LoopParams& p, const std::vector<ValueInfo>& in);
Kernel<LoopParams> loop_kernel();
// The node's outputs for inputs `in` (the node's, nullptr where omitted), its body run node by node on each
// iteration's data by `runner`, whose limits bound the iterations and the scan outputs.
std::vector<Tensor> run_loop_with_data(const LoopParams& p, const std::vector<const Tensor*>& in, GraphRunner& runner);

}  // namespace cnnx
