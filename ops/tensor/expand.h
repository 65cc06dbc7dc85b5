// Expand (opset 8+): input 0 broadcast (numpy rules, both ways) with the shape in input 1 (1-D int64, known
// when the plan is made). A dim of 1 in `shape` keeps the input's dim. The output is sized from data: infer
// checks its element count and the tensor limit applies before it is allocated (engine/node_eval.cc).
// Reference kernel only: oneDNN 2.6 binary broadcasts only its second source, and no primitive broadcasts a
// tensor on its own. kExact (a copy).
#pragma once

#include "engine/op.h"

namespace cnnx {

std::vector<ValueInfo> infer_expand(const NoParams& p, const std::vector<ValueInfo>& in);
void expand_ref(const NoParams& p, const KernelIO& io);
// The shape x broadcasts to with the shape input (numpy rules, either side may be 1).
Shape expand_shape(const Shape& x, const std::vector<int64_t>& shape);

}  // namespace cnnx
