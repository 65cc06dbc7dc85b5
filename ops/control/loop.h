// Loop (opsets 1, 11, 13, 16, 19): inputs M (optional trip count, one int64), cond (optional, one bool) and
// N loop-carried initial values v_initial, then the values its body reads from enclosing scopes
// (Graph::captured). The body takes (iteration_num, cond, N carried values, captured) and gives (cond,
// N carried values, K scan outputs). The node gives the N final carried values and the K scan outputs, each
// the body's per-iteration values stacked along a new axis 0.
//
// It runs while (M omitted or i < M) and cond (omitted: true). Both omitted is an endless loop, as in ONNX.
// The body is planned once, with the enclosing plan, for carried values of the shapes of v_initial: a body
// that changes a carried value's shape is refused (cnnx plans one shape per value). Scan outputs need their
// number of rows when the plan is made: M known then, and a cond the body cannot turn false (omitted or
// constant true at the start, and the body's cond output constant true whenever its cond input is). A
// negative M is an error when it is known (at the plan) or when it is read (each run).
// Each run reuses the body plan's arenas (one per caller in flight); a run hands the body its inputs
// without copying and copies each scan row into place.
// Tolerance: the node copies its body's outputs (kExact); the body's ops are checked as any node.
#pragma once

#include <memory>

#include "engine/graph.h"
#include "engine/op.h"

namespace cnnx {

struct LoopParams : OpParams {
  std::shared_ptr<const Graph> body;
  size_t carried = 0;  // N
  size_t scans = 0;    // K
};

LoopParams parse_loop(const Node& node);
std::vector<ValueInfo> infer_loop(const LoopParams& p, const std::vector<ValueInfo>& in);
Kernel<LoopParams> loop_kernel();

}  // namespace cnnx
