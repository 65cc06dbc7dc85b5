// Scan (opsets 9, 11, 16, 19): inputs N initial state values, then M scan inputs (num_scan_inputs), then the
// values its body reads from enclosing scopes (Graph::captured). Each iteration t the body takes the N states
// and slice t of each scan input along its axis (scan_input_axes, default 0; scan_input_directions 1: from
// the end) and gives N new states and K scan output slices, stacked along scan_output_axes (default 0; a new
// axis of the output; scan_output_directions 1: from the end). The node gives the N final states and the K
// scan outputs. Negative axes count from the back (opset 11 on; below, as Reduce does, with no warning
// needed: opset 9 documents axes in [0, rank)). Every scan input must have the same length T along its axis.
// Opset 8's Scan (a batch axis and sequence_lens) is not supported.
// The body is planned once, with the enclosing plan; states must keep their shapes (cnnx plans one shape per
// value). Tolerance: the node copies its body's outputs (kExact); the body's ops are checked as any node.
#pragma once

#include <memory>

#include "engine/graph.h"
#include "engine/op.h"

namespace cnnx {

struct ScanParams : OpParams {
  std::shared_ptr<const Graph> body;
  size_t states = 0;                           // N
  size_t scan_inputs = 0;                      // M
  size_t scan_outputs = 0;                     // K
  std::vector<int64_t> input_axes, output_axes;  // per scan input / output, as written (default 0)
  std::vector<bool> input_reversed, output_reversed;
};

ScanParams parse_scan(const Node& node);
std::vector<ValueInfo> infer_scan(const ScanParams& p, const std::vector<ValueInfo>& in);
Kernel<ScanParams> scan_kernel();

}  // namespace cnnx
