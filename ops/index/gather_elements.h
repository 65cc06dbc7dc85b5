// GatherElements (opset 11+): output[i...] = data[i... with index `axis` replaced by indices[i...]]. indices
// (int32/int64) has data's rank and, along every other axis, at most data's dim (so every read is inside
// data). An index outside [-n, n) along `axis` is an error naming the node, never an out-of-bounds read.
// Reference kernel only: oneDNN 2.6 has no gather primitive. kExact (a copy).
#pragma once

#include "ops/index/gather.h"

namespace cnnx {

// Its params are Gather's (axis, default 0), read by parse_gather.
std::vector<ValueInfo> infer_gather_elements(const GatherParams& p, const std::vector<ValueInfo>& in);
void gather_elements_ref(const GatherParams& p, const KernelIO& io);
// Throws unless indices has data's rank and fits inside data along every axis but axis.
void check_gather_elements_shapes(const Shape& data, const Shape& indices, size_t axis);
// For each entry of indices (in order), the offset in data of the element it names: its own position with the
// coordinate along axis replaced by the index (negative from the back). Every index is checked (a cnnx::Error
// naming it when outside [-n, n)) before the caller reads or writes anything (GatherElements, ScatterElements).
std::vector<int64_t> element_offsets(const Tensor& data, const Tensor& indices, size_t axis);

}  // namespace cnnx
