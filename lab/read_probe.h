// The read-bandwidth probe of `cnnx pool gap`: how fast this machine can merely read a tensor, the floor that
// any global average pooling of it is measured against (docs/pooling.md, "The read floor").
#pragma once

#include "api/cnnx.h"

namespace cnnx::lab {

// Sums the float32 tensor `x` once with every OpenMP thread, each over a contiguous share, in float32 with 64
// independent accumulators (the least work per byte a read can do; AVX-512 or AVX2 clones where GCC makes
// them). Returns the wall time in milliseconds and adds the sum to `sink`, which the caller keeps alive so the
// reads are not optimized away.
double time_read_probe(const Tensor& x, float& sink);

}  // namespace cnnx::lab
