// oneDNN Transpose. An input arriving in a dense layout (plain, channels-last, any permutation of dims) is not
// copied: the output is the input's bytes, read through the input's layout with permuted axes (plain again
// when a channels-last Conv output is permuted to [N, H, W, C], as ConvNeXt does before its LayerNorm; the
// input's permuted order when a plain [N, H, W, C] goes back to [N, C, H, W]). The plan gives both one
// buffer (CompiledKernel::views_input) and skips the step, and readers that want another layout get one
// reorder, the copy this kernel would have made. An input arriving channel-blocked (nChw16c) is copied
// with one reorder to a plain output. In a native bfloat16 plan an input stored in bfloat16 (dnnl/layouts.h)
// is viewed so (the output is stored in bfloat16 too) or copied to plain float32 (exact).
#include "dnnl/dnnl_runtime.h"
#include "ops/tensor/transpose.h"

namespace cnnx {

namespace {

Compiled compile_transpose(const std::shared_ptr<const TransposeParams>& p, const KernelArgs& a) {
  const std::string why = dnnl_declines_inputs(a.in);
  if (!why.empty()) return Compiled::decline(why);
  if (a.in[0].rank() == 0) return Compiled::decline("a scalar: nothing to permute (oneDNN has no rank-0 memory)");
  const std::vector<int64_t> perm = resolve_perm(*p, a.in[0].rank());
  // oneDNN's permute_axes sends input axis a to position inverse[a]; ONNX's output axis i is input axis perm[i].
  std::vector<int> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inverse[size_t(perm[i])] = int(i);
  dnnl::memory::desc input = dnnl_desc(a.offered.in[0], a.in[0].shape);
  if (!has_inner_blocks(a.offered.in[0])) {
    const dnnl::memory::desc view = input.permute_axes(inverse);
    return compile_or_refuse([&] {
      return std::make_unique<ReorderView>(input, view, dnnl_desc(layout_of(view), a.out[0].shape), 1);
    });
  }
  dnnl::memory::desc view;
  try {
    view = input.permute_axes(inverse);
  } catch (const dnnl::error&) {  // a layout oneDNN cannot permute: take the input plain
    input = plain_f32_desc(a.in[0].shape);
    view = input.permute_axes(inverse);
  }
  return compile_or_refuse([&] { return std::make_unique<ReorderCopy>(input, view, plain_f32_desc(a.out[0].shape), 1); });
}

}  // namespace

Kernel<TransposeParams> transpose_dnnl_kernel() { return {"dnnl", compile_transpose}; }

}  // namespace cnnx
