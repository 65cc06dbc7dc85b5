// ScatterND (opset 11+): output = data, then for each index tuple t of indices ([m..., k], int64) the slice
// output[t...] (data.shape[k:]) is set from updates[m...] (updates shape indices.shape[:-1] + data.shape[k:]).
// `reduction` (opset 16: none, add, mul; opset 18: also max, min) combines instead of overwriting; with
// `none` and repeated tuples the last update wins (ONNX leaves the order unspecified). Bool elements: add is
// or, mul is and. An index outside [-n, n) is an error naming the node, never an out-of-bounds write.
// Reference kernel only: oneDNN 2.6 has no scatter primitive. kExact: each element is a copy or one IEEE
// operation per update, applied in index order.
#pragma once

#include "engine/op.h"

namespace cnnx {

enum class ScatterReduction { none, add, mul, max, min };

struct ScatterNDParams : OpParams {
  ScatterReduction reduction = ScatterReduction::none;
};

ScatterNDParams parse_scatter_nd(const Node& node);
// The `reduction` attribute as ScatterND and ScatterElements read it (none before opset 16; max, min from 18).
ScatterReduction parse_scatter_reduction(const Node& node);
std::vector<ValueInfo> infer_scatter_nd(const ScatterNDParams& p, const std::vector<ValueInfo>& in);
void scatter_nd_ref(const ScatterNDParams& p, const KernelIO& io);
// Throws unless updates has the shape indices.shape[:-1] + data.shape[k:] for indices of data's rank or less.
void check_scatter_nd_shapes(const Shape& data, const Shape& indices, const Shape& updates);

}  // namespace cnnx
