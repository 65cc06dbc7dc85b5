// Shape: the input's dims as a 1-D int64 tensor; from opset 15 only dims [start, end) (negative values count
// from the end, then both are clamped to [0, rank]). infer gives the data whenever the selected dims are
// known, so Shape -> Gather -> Concat -> Reshape chains fold at load or plan time.
#pragma once

#include <cstdint>
#include <limits>

#include "engine/op.h"

namespace cnnx {

struct ShapeParams : OpParams {
  int64_t start = 0;
  int64_t end = std::numeric_limits<int64_t>::max();
};

}  // namespace cnnx
