// Compress (opsets 9, 11): the slices of `input` along `axis` whose entry in the 1-D bool `condition` is true
// (entries past the condition's length are dropped; a condition longer than the axis is an error); without
// `axis`, the elements of the flattened input. Negative axes from opset 11. The output's length along the
// axis is the count of true entries: infer gives it when the condition's data is known; otherwise the plan
// ends at the node and plans what follows per count (OpHints::shapes_from_data, runtime/plan.h). Exact.
#pragma once

#include <optional>

#include "engine/op.h"

namespace cnnx {

struct CompressParams : OpParams {
  std::optional<int64_t> axis;  // as written; none: the flattened input
  bool negative_axis_undocumented = false;  // negative below opset 11: read from the back, with a warning
};

// A warning for a negative axis below opset 11 (README "Exporter leniencies"); empty otherwise.
std::string compress_caution(const CompressParams& p, const std::vector<ValueInfo>& in);

CompressParams parse_compress(const Node& node);
std::vector<ValueInfo> infer_compress(const CompressParams& p, const std::vector<ValueInfo>& in);
void compress_ref(const CompressParams& p, const KernelIO& io);

}  // namespace cnnx
