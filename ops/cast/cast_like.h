// CastLike (opset 15+): Cast to the element type of the second input (`target_type`), whose values are not read.
// The conversions are Cast's (cast.h); opset 19's `saturate` concerns float8 targets only and is accepted unused.
#pragma once

#include "engine/op.h"

namespace cnnx {

NoParams parse_cast_like(const Node& node);
// The output has input 0's shape and input 1's element type.
std::vector<ValueInfo> infer_cast_like(const NoParams& p, const std::vector<ValueInfo>& in);
void cast_like_ref(const NoParams& p, const KernelIO& io);

}  // namespace cnnx
