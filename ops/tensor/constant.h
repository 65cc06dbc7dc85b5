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

ConstantParams parse_constant(const Node& node);
std::vector<ValueInfo> infer_constant(const ConstantParams& p, const std::vector<ValueInfo>& in);
// Never planned (infer gives the data), but a kernel that writes the value is there for completeness.
void constant_ref(const ConstantParams& p, const KernelIO& io);

}  // namespace cnnx
