// Concat: inputs of one element type and rank, equal dims except along `axis`, joined along it.
#pragma once

#include "engine/op.h"

namespace cnnx {

// axis may be negative (opset 11); it is normalized against the rank in infer. Before opset 4 it defaults
// to 1, from opset 4 on it is required.
struct ConcatParams : OpParams {
  int64_t axis = 1;
};

// oneDNN concat on float32 inputs in the layouts they arrive in (ops/shape/concat_dnnl.cc).
KernelDef concat_dnnl_kernel();

}  // namespace cnnx
