// What one run of a plan asks of the machine, to set its time against the machine's limits (bench/zoo.sh,
// bench/machine_limits.cc): the arithmetic of its sum-of-products steps and the bytes of weights they read.
#pragma once

#include <cstdint>

#include "runtime/plan.h"

namespace cnnx {

struct PlanCost {
  // Floating-point operations of the steps whose op declares OpHints::flops (Conv, ConvTranspose, FusedConv,
  // Gemm, MatMul, FusedMatMul, Einsum), 2 per multiply-add, at the plan's concrete shapes. Element-wise work
  // (bias and residual adds, activations, normalizations, pooling) is not counted.
  double flop = 0;
  // Bytes of the constant values (initializers, and those the passes made, such as convolution weights with
  // a BatchNormalization folded in) that the plan's steps read, each once: what a run at batch 1 must stream
  // from memory when the weights do not fit in the caches.
  int64_t weight_bytes = 0;
};

PlanCost plan_cost(const Plan& plan);

}  // namespace cnnx
