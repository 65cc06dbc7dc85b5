// ConstantOfShape (opset 9+): a tensor of the shape given by input 0 (1-D int64, known when the plan is made),
// every element `value` (a one-element tensor attribute of any cnnx element type; default float32 0).
// The output is sized from data: infer computes its element count with overflow checks and the graph's
// tensor limit is applied before it is allocated (engine/node_eval.cc); a negative dim is an error.
// Reference kernel only: a fill, which no oneDNN 2.6 primitive computes. kExact (a copy of `value`).
#pragma once

#include "engine/op.h"

namespace cnnx {

struct ConstantOfShapeParams : OpParams {
  Tensor value;  // one element
};

ConstantOfShapeParams parse_constant_of_shape(const Node& node);
std::vector<ValueInfo> infer_constant_of_shape(const ConstantOfShapeParams& p, const std::vector<ValueInfo>& in);
void constant_of_shape_ref(const ConstantOfShapeParams& p, const KernelIO& io);

}  // namespace cnnx
