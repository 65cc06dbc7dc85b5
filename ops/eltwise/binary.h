// Add, Sub, Mul, Div (opset 7+): multidirectional (numpy) broadcasting, float32/int32/int64/float64.
#pragma once

#include "engine/op_registry.h"

namespace cnnx {

enum class BinaryKind { add, sub, mul, div };

struct BinaryParams : OpParams {
  BinaryKind kind = BinaryKind::add;
};

// Add, Sub, Mul, Div with one parse, infer and pair of kernels; Sum (opset 6+, variadic, reference only).
void register_binary_ops(OpRegistry& r);

// oneDNN binary (ops/eltwise/binary_dnnl.cc), float32 only. oneDNN broadcasts src1 alone: when input A
// would need broadcasting, Add and Mul swap their operands and Sub and Div decline.
Kernel<BinaryParams> binary_dnnl_kernel();

}  // namespace cnnx
