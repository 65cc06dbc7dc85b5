// Concat's channels-last kernel: every input and the output channels-last (N, the spatial dims, then C, in
// memory) and joined along C. Each pixel of the output is then its inputs' channel runs end to end: one
// memcpy per pixel and input, the pixels split over the team. oneDNN 2.6's concat (simple:any) runs this
// case 1.5-3.6x slower (bench/README.md, "Concat of channels-last parts"); the Concats of convolutions
// arrive so (the plan does not ask their producers for a layout it could join in place: runtime/plan.cc).
// Where every input arrives stored in bfloat16 (a native bfloat16 plan, dnnl/layouts.h), so is the output: the
// same copies of two-byte elements; otherwise float32 (the plan converts the inputs stored in bfloat16).
#include <string>

#include "dnnl/layouts.h"
#include "ops/tensor/concat.h"

namespace cnnx {

namespace {

class ConcatChannelsLast : public CompiledKernel {
 public:
  ConcatChannelsLast(std::vector<size_t> run_bytes, int64_t pixels, KernelLayouts layouts)
      : run_bytes_(std::move(run_bytes)), pixels_(pixels), layouts_(std::move(layouts)) {}

  const KernelLayouts* layouts() const override { return &layouts_; }
  void run(const KernelIO& io) const override { copy_concat_runs(io, run_bytes_, pixels_); }

 private:
  std::vector<size_t> run_bytes_;  // per input: its channels of one pixel
  int64_t pixels_;
  KernelLayouts layouts_;
};

Compiled compile_concat_channels_last(const std::shared_ptr<const ConcatParams>& p, const KernelArgs& a) {
  const ValueInfo& y = a.out.at(0);
  // Rank 3's channels-last (N, W, C) is also a transposed token layout, [N, T, C] read as [N, C, T] (ViT's
  // patch embedding after its Transpose view), where oneDNN's concat writes the plain output its readers want.
  if (y.rank() < 4 || y.rank() > 5)
    return Compiled::decline("rank " + std::to_string(y.rank()) + ": channels-last images are rank 4 or 5");
  const size_t axis = concat_axis(*p, a.in);
  if (axis != 1) return Compiled::decline("joins along axis " + std::to_string(axis) + ", not channels (1)");
  if (y.dtype != DType::f32) return Compiled::decline(std::string(dtype_name(y.dtype)) + ", not float32");
  // One channel or one pixel is channels-last and plain at once: with every input so, the plan's plain
  // choices (a join in place) are kept.
  bool any_channels_last = false, all_bf16 = true;
  for (const Layout& offered : a.offered.in) {
    any_channels_last = any_channels_last || !is_plain(float32_layout(offered));
    all_bf16 = all_bf16 && stores_bfloat16(offered) && a.context.precision == Precision::bf16;
  }
  if (!any_channels_last) return Compiled::decline("every input arrives plain: none channels-last");
  auto stored = [&](const Shape& shape) {
    const Layout l = channels_last_layout(shape);
    return all_bf16 ? bfloat16_layout(l, shape) : l;
  };
  KernelLayouts l;
  std::vector<size_t> run_bytes;
  for (size_t i = 0; i < a.in.size(); ++i) {
    if (!a.in[i].concrete() || checked_numel(a.in[i].shape) == 0)
      return Compiled::decline("input " + std::to_string(i) + " is empty or has no concrete shape");
    l.in.push_back(stored(a.in[i].shape));
    if (float32_layout(a.offered.in.at(i)) != channels_last_layout(a.in[i].shape))
      return Compiled::decline("input " + std::to_string(i) + " arrives " + a.offered.in[i].name() +
                               ", not channels-last");
    run_bytes.push_back(size_t(a.in[i].shape[1]) * (all_bf16 ? 2 : dtype_size(a.in[i].dtype)));
  }
  l.out = {stored(y.shape)};
  if (!a.offered.out.empty() && !is_plain(a.offered.out[0]) && a.offered.out[0] != float32_layout(l.out[0]))
    return Compiled::decline("output 0 is wished " + a.offered.out[0].name() + ", not channels-last");
  return std::make_unique<ConcatChannelsLast>(std::move(run_bytes), checked_numel(y.shape) / y.shape[1], std::move(l));
}

}  // namespace

Kernel<ConcatParams> concat_channels_last_kernel() { return {"channels-last", compile_concat_channels_last}; }

}  // namespace cnnx
