// Transpose: output dim i is input dim perm[i]; perm defaults to the reversed axes.
#pragma once

#include <vector>

#include "engine/op.h"

namespace cnnx {

struct TransposeParams : OpParams {
  bool has_perm = false;
  std::vector<int64_t> perm;  // checked against the input rank in infer
};

}  // namespace cnnx
