// The element type a plan computes in (Options::precision), and its names on the command line and in the Python
// and C APIs. Part of the public API (api/cnnx.h); the planner reads it (passes/bfloat16_plan.h) and hands each
// kernel its node's (engine/kernel.h, CompileContext::precision).
#pragma once

#include <string>

namespace cnnx {

enum class Precision {
  f32,   // float32 everywhere
  bf16,  // convolutions, matmuls, pooling and the elementwise ops between them on bfloat16 values with float32
         // accumulation; graph inputs and outputs, Softmax, normalization statistics and reductions float32
};

const char* precision_name(Precision p);             // "fp32" or "bf16"
Precision parse_precision(const std::string& name);  // throws cnnx::Error on anything but "fp32" / "bf16"

}  // namespace cnnx
