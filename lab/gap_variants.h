// The spellings of global average pooling (DESIGN.md, "Pooling semantics"): the same mean over the spatial axes
// written as the ops models and exporters use, each a model built in memory (ModelSketch, api/tools_facade.h)
// and completed like a loaded one. `cnnx pool gap` plans and times every one (lab/gap_bench.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "api/tools_facade.h"

namespace cnnx::lab {

struct GapVariant {
  std::string name;                    // how it is written, e.g. "ReduceMean(axes=[2,3], keepdims=1)"
  Model model;                         // input "x" of the given shape, output "y"; nodes named by op type
};

// For an input of `shape` [N, C, D1..Dk] (k = 1 to 3), in this order:
//   GlobalAveragePool                                        opset 13
//   AveragePool(kernel_shape=[D1..Dk])                       opset 13
//   ReduceMean(axes=[2..k+1], keepdims=1)                    opset 13, axes as an attribute
//   ReduceMean-18(axes input [2..k+1], keepdims=0)           opset 18, axes as an int64 initializer
//   Reshape(N,C,-1) -> ReduceMean(axes=[-1], keepdims=0)     opset 13, a flattened view
//   aten::adaptive_avg_pool{k}d(output_size=1)               org.pytorch.aten 1, torch.onnx's ATen fallback
// keepdims=0 spellings give [N, C], the others [N, C, 1..1]: the same N*C means.
// Throws cnnx::Error when a graph does not build (as loading such a model would).
std::vector<GapVariant> gap_variants(const Shape& shape);

}  // namespace cnnx::lab
