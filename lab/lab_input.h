// The input data of the pooling lab, shared by `cnnx pool gap` and `cnnx pool avg`.
#pragma once

#include "api/cnnx.h"

namespace cnnx::lab {

// Fills the float32 tensor `x` with values uniform in [-1, 1) drawn from a hash (splitmix64) of each element's
// flat index: the same values for any thread count and on every run, made in parallel (OpenMP), so inputs of
// gigabytes cost a fraction of the runs they feed.
void fill_lab_input(Tensor& x);

}  // namespace cnnx::lab
