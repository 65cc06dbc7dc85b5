// Constant: a tensor given as an attribute: `value` (a tensor), or from opset 12 `value_float`,
// `value_floats` (float32 scalar / 1-D), `value_int`, `value_ints` (int64 scalar / 1-D). Exactly one is set.
// `sparse_value` and string values are refused: cnnx has neither sparse nor string tensors.
// infer returns the tensor itself, so a Constant never runs: its consumers see data at load time.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct ConstantParams : OpParams {
  Tensor value;
};

}  // namespace cnnx
