// Ops that give the same elements a new shape: Flatten, Reshape, Squeeze, Unsqueeze. Their kernels copy
// the bytes; they differ only in how the output shape is derived.
#pragma once

#include <vector>

#include "engine/op.h"

namespace cnnx {

// Flatten: output [prod(dims[:axis]), prod(dims[axis:])]; axis in [-rank, rank], normalized in infer.
struct FlattenParams : OpParams {
  int64_t axis = 1;
};

// Reshape: shape is input 1 from opset 5, the attribute `shape` before (opset 1 also has
// `consumed_inputs`, a legacy memory hint cnnx ignores). A 0 in shape copies the input dim at that index
// unless allowzero (opset 14), which makes it a real 0; one -1 is inferred from the element count.
struct ReshapeParams : OpParams {
  bool allowzero = false;
  bool shape_from_attr = false;  // opset 1-4
  std::vector<int64_t> shape;    // attribute form only
};

// Squeeze and Unsqueeze: axes from the attribute before opset 13 (`axes`), from input 1 from opset 13 on
// (axes_from_input). Without axes Squeeze removes every dim of size 1; Unsqueeze requires them.
struct AxesParams : OpParams {
  bool axes_from_input = false;
  bool has_axes = false;  // attribute form only
  std::vector<int64_t> axes;
};

FlattenParams parse_flatten(const Node& node);
std::vector<ValueInfo> infer_flatten(const FlattenParams& p, const std::vector<ValueInfo>& in);
ReshapeParams parse_reshape(const Node& node);
std::vector<ValueInfo> infer_reshape(const ReshapeParams& p, const std::vector<ValueInfo>& in);
AxesParams parse_squeeze(const Node& node);
std::vector<ValueInfo> infer_squeeze(const AxesParams& p, const std::vector<ValueInfo>& in);
AxesParams parse_unsqueeze(const Node& node);
std::vector<ValueInfo> infer_unsqueeze(const AxesParams& p, const std::vector<ValueInfo>& in);

// The kernel of all four (their params do not matter to it): output 0 is input 0's bytes as they are
// (CompiledKernel::views_input), so the plan usually gives both one buffer and skips it; called, it copies.
std::unique_ptr<CompiledKernel> compile_view();
template <class P>
Kernel<P> view_kernel() {
  return {"ref", [](const std::shared_ptr<const P>&, const KernelArgs&) -> Compiled { return compile_view(); }};
}
// The same view of an input stored in bfloat16, taken row-major, in a native bfloat16 plan
// (ops/tensor/reshape_dnnl.cc); declines float32 inputs.
Compiled compile_reshape_bfloat16(const KernelArgs& a);
template <class P>
Kernel<P> bfloat16_view_kernel() {
  return {"dnnl", [](const std::shared_ptr<const P>&, const KernelArgs& a) { return compile_reshape_bfloat16(a); }};
}

}  // namespace cnnx
