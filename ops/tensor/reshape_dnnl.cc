// oneDNN view of Flatten, Reshape, Squeeze and Unsqueeze for a value stored in bfloat16 (a native bfloat16 plan,
// dnnl/layouts.h): the input taken stored row-major in bfloat16 (the plan reorders one arriving in another
// arrangement, bfloat16 to bfloat16) is the output's bytes in the output's shape, stored in bfloat16 too. The
// plan gives both one buffer (CompiledKernel::views_input) and skips the step, as for the ref view of a float32
// value; called, it copies. A float32 input declines: the ref view takes it.
#include "dnnl/dnnl_runtime.h"
#include "dnnl/layouts.h"
#include "ops/tensor/reshape.h"

namespace cnnx {

Compiled compile_reshape_bfloat16(const KernelArgs& a) {
  if (a.offered.in.empty() || !stores_bfloat16(a.offered.in[0]) || a.out.empty())
    return Compiled::decline("input 0 is not stored in bfloat16 (the ref view takes it)");
  std::string why = dnnl_declines_inputs(a.in, 0, 1);
  if (why.empty()) why = dnnl_declines_inputs(a.out, 0, 1);
  if (why.empty() && (a.in[0].rank() == 0 || a.out[0].rank() == 0))
    why = "a scalar (oneDNN has no rank-0 memory)";
  if (!why.empty()) return Compiled::decline(why);
  const dnnl::memory::desc input = dnnl_desc(bfloat16_layout(Layout(), a.in[0].shape), a.in[0].shape);
  const Shape& out = a.out[0].shape;
  const dnnl::memory::desc view = input.reshape(dnnl::memory::dims(out.begin(), out.end()));
  return compile_or_refuse(
      [&] { return std::make_unique<ReorderView>(input, view, dnnl_desc(layout_of(view), out), a.in.size()); });
}

}  // namespace cnnx
