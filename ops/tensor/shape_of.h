// Shape: the input's dims as a 1-D int64 tensor; from opset 15 only dims [start, end) (negative values count
// from the end, then both are clamped to [0, rank]). infer gives the data whenever the selected dims are
// known, so Shape -> Gather -> Concat -> Reshape chains fold at load or plan time.
// Size (opsets 1, 13, 19): the input's element count as an int64 scalar, its data known whenever the shape is.
#pragma once

#include <cstdint>
#include <limits>

#include "engine/op.h"

namespace cnnx {

struct ShapeParams : OpParams {
  int64_t start = 0;
  int64_t end = std::numeric_limits<int64_t>::max();
};

ShapeParams parse_shape_of(const Node& node);
std::vector<ValueInfo> infer_shape_of(const ShapeParams& p, const std::vector<ValueInfo>& in);
void shape_of_ref(const ShapeParams& p, const KernelIO& io);
std::vector<ValueInfo> infer_size(const NoParams& p, const std::vector<ValueInfo>& in);
void size_ref(const NoParams& p, const KernelIO& io);

// The selected dims [start, end) of shape.
Shape shape_of_dims(const ShapeParams& p, const Shape& shape);

}  // namespace cnnx
