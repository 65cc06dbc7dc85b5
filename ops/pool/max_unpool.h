// MaxUnpool (opsets 9, 11): the inverse of MaxPool with Indices. Y is zeros except Y.flat[I[i]] = X[i], I
// being MaxPool's flat indices into the whole output (n, c and the spatial index: ops/pool/pool.h). Y's shape
// is the optional int64 input output_shape (a constant at load, else planned with its data) or [N, C, ...]
// with spatial dims (in - 1) * stride + kernel - pad_begin - pad_end from kernel_shape, strides and pads. An
// index outside Y is an error naming it, when the kernel reads it. float32; exact; reference kernel only.
#pragma once

#include "engine/op.h"
#include "ops/pool/pool_geometry.h"

namespace cnnx {

struct MaxUnpoolParams : OpParams {
  PoolWindow window;  // kernel, strides, pads (no dilations, auto_pad or ceil_mode)
};

MaxUnpoolParams parse_max_unpool(const Node& node);
std::vector<ValueInfo> infer_max_unpool(const MaxUnpoolParams& p, const std::vector<ValueInfo>& in);
void max_unpool_ref(const MaxUnpoolParams& p, const KernelIO& io);

}  // namespace cnnx
