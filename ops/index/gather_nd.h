// GatherND (opset 11+; batch_dims from 12): indices (int64) of shape [b..., m..., k] pick slices
// data[b..., i_1, ..., i_k, ...] where the first batch_dims dims of data and indices are equal. Output shape
// indices.shape[:-1] + data.shape[batch_dims + k:]. An index outside [-n, n) of its axis is an error naming
// the node, never an out-of-bounds read.
// Reference kernel only: oneDNN 2.6 has no gather primitive. kExact (a copy).
#pragma once

#include "engine/op.h"

namespace cnnx {

struct GatherNDParams : OpParams {
  int64_t batch_dims = 0;
};

GatherNDParams parse_gather_nd(const Node& node);
std::vector<ValueInfo> infer_gather_nd(const GatherNDParams& p, const std::vector<ValueInfo>& in);
void gather_nd_ref(const GatherNDParams& p, const KernelIO& io);

// Shared with ScatterND: the data offset (in elements) of index tuple `tuple` (k entries) in a tensor of
// shape `data` starting at dim `first`; throws naming the entry when an index is out of range.
int64_t nd_offset(const Shape& data, const std::vector<int64_t>& strides, size_t first, const Tensor& indices,
                  int64_t tuple, int64_t k);
// The output shape for batch_dims b: indices.shape[:-1] + data.shape[b + k:].
Shape gather_nd_shape(int64_t b, const Shape& data, const Shape& indices);

}  // namespace cnnx
