// Slice. Before opset 10 starts, ends and axes are attributes and every step is 1; from opset 10 on they are
// inputs 1..4 (data, starts, ends, axes?, steps?) and steps may be negative. Indices are clamped exactly as
// the ONNX spec says (see resolve_slice in slice.cc).
#pragma once

#include <vector>

#include "engine/op.h"

namespace cnnx {

struct SliceParams : OpParams {
  bool from_inputs = false;  // opset 10+
  // Attribute form only:
  std::vector<int64_t> starts, ends, axes;
  bool has_axes = false;
};

}  // namespace cnnx
