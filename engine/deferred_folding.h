// Constants load and planning leave unfolded for a pass to read as they are.
#pragma once

#include <vector>

#include "engine/node.h"
#include "engine/value_info.h"

namespace cnnx {

// What load and planning infer a DequantizeLinear of a constant from: its x without the data, so the float
// copy of int8 weights is not made (time, and memory the plan would hold). The fold-qdq pass reads the int8
// constant and folds most such nodes into int8 kernels; it folds the rest, and what follows them, after
// (passes/fold_qdq.cc). Other nodes' `in` is left as it is.
void defer_dequantized_constant(const Node& node, std::vector<ValueInfo>& in);

}  // namespace cnnx
