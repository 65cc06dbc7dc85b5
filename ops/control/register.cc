// Control flow: ops holding subgraphs, planned with the enclosing plan (engine/subgraph.h). Exact: they copy
// their subgraphs' outputs; the subgraphs' nodes are checked as any other.
#include "ops/control/if.h"
#include "ops/control/loop.h"
#include "ops/control/scan.h"
#include "ops/families.h"

namespace cnnx {

void register_control_ops(OpRegistry& r) {
  OpSpec<IfParams> if_spec{"If", 1, parse_if, infer_if, kExact, {if_kernel()}};
  if_spec.hints.runs_subgraphs = true;
  r.add(std::move(if_spec));
  OpSpec<LoopParams> loop_spec{"Loop", 1, parse_loop, infer_loop, kExact, {loop_kernel()}};
  loop_spec.hints.runs_subgraphs = true;
  r.add(std::move(loop_spec));
  OpSpec<ScanParams> scan_spec{"Scan", 8, parse_scan, infer_scan, kExact, {scan_kernel()}};
  scan_spec.hints.runs_subgraphs = true;
  r.add(std::move(scan_spec));
}

}  // namespace cnnx
