// oneDNN Pad, constant mode: the output is filled with the constant, then one reorder copies the input into
// the sub-memory at the pads' offsets. The output's dims are ordered like the input's (channels-last stays
// channels-last); a channel-blocked input is taken plain (its padded channel lanes would get the constant).
#include <algorithm>

#include "dnnl/dnnl_runtime.h"
#include "ops/tensor/pad.h"

namespace cnnx {

namespace {

using namespace dnnl;

class PadDnnl : public CompiledKernel {
 public:
  PadDnnl(const PadParams& p, const memory::desc& src_md, const PadGeometry& g, size_t inputs)
      : value_(p.value), src_md_(src_md), dst_md_(same_order_desc(layout_of(src_md), g.out)),
        inner_md_(dst_md_.submemory_desc(src_md_.dims(), memory::dims(g.begin.begin(), g.begin.end()))),
        copy_(src_md_, inner_md_), layouts_{std::vector<Layout>(inputs), {layout_of(dst_md_)}} {
    layouts_.in[0] = layout_of(src_md_);
  }

  void run(const KernelIO& io) const override {
    // constant_value (input 2, opset 11+) is read at run time; absent, the attribute's value (0 from 11).
    const float value = io.optional_in(2) ? io.in[2]->data<float>()[0] : value_;
    Tensor& y = *io.out[0];
    std::fill(y.data<float>(), y.data<float>() + y.numel(), value);
    copy_.run(io.context, dnnl_wrap(src_md_, *io.in[0]), DnnlMemoryArg(inner_md_, y.raw()));
  }

  const KernelLayouts* layouts() const override { return &layouts_; }

 private:
  float value_;
  memory::desc src_md_, dst_md_;
  memory::desc inner_md_;  // where the input goes in the output
  DnnlReorder copy_;
  KernelLayouts layouts_;
};

Compiled compile_pad(const std::shared_ptr<const PadParams>& p, const KernelArgs& a) {
  std::string why = dnnl_declines_inputs(a.in, 0, 1);
  if (!why.empty()) return Compiled::decline(why);
  if (p->mode != PadMode::constant) return Compiled::decline("only constant mode");
  if (a.in[0].rank() == 0) return Compiled::decline("a scalar");
  std::vector<int64_t> pads = p->pads, axes;
  if (p->from_inputs && (!constant_ints(a.in, 1, pads) || (present(a.in, 3) && !constant_ints(a.in, 3, axes))))
    return Compiled::decline("pads or axes are known only at run time");
  const PadGeometry g = resolve_pad(p->mode, a.in[0].shape, pads, present(a.in, 3) ? &axes : nullptr);
  if (std::any_of(pads.begin(), pads.end(), [](int64_t v) { return v < 0; }))
    return Compiled::decline("negative pads (a crop)");
  const memory::desc src_md = same_order_desc(a.offered.in[0], a.in[0].shape);
  return compile_or_refuse([&]() -> Compiled { return std::make_unique<PadDnnl>(*p, src_md, g, a.in.size()); });
}

}  // namespace

Kernel<PadParams> pad_dnnl_kernel() { return {"dnnl", compile_pad}; }

}  // namespace cnnx
