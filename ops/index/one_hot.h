// OneHot (opsets 9, 11): output[..., k, ...] = on if indices[...] == k else off, for k in [0, depth), with the
// new axis of length `depth` at `axis` (default -1: last; [-r - 1, r] for indices of rank r). `values` is
// [off, on] and gives the output's element type. indices of any numeric type (floats truncated toward 0, as
// ONNX Runtime does); from opset 11 a negative index counts from depth; an index outside [-depth, depth)
// (opset 9: [0, depth)) gives a row of `off`. depth is a numeric scalar (a float truncated), >= 1. Exact
// (a copy); reference kernel only. The output's length along the axis comes from depth's data: a constant
// at load, else planned with its data (OpHints::float_shape_inputs).
#pragma once

#include "engine/op.h"

namespace cnnx {

struct OneHotParams : OpParams {
  int64_t axis = -1;           // as written
  bool negative_indices = true;  // opset 11: count from depth
};

OneHotParams parse_one_hot(const Node& node);
std::vector<ValueInfo> infer_one_hot(const OneHotParams& p, const std::vector<ValueInfo>& in);
void one_hot_ref(const OneHotParams& p, const KernelIO& io);
// depth's value: a scalar >= 1 (a float truncated toward 0), within kMaxSize.
int64_t one_hot_depth(const Tensor& depth);

}  // namespace cnnx
