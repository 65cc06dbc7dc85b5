// oneDNN ChannelShuffle: per input, one reorder between strided views of its buffer and Y's, in the dense
// layout the inputs arrive in (plain or channels-last).
#include <string>

#include "dnnl/dnnl_runtime.h"
#include "ops/tensor/channel_shuffle.h"

namespace cnnx {

namespace {

// Per input, a reorder from a view of its buffer to a view of Y's (dims [N, g or 1, K, ...] or [N, K, ...]),
// both with the strides of the dense layout the inputs arrive in.
class ChannelShuffleDnnl : public CompiledKernel {
 public:
  // `layout`: Y's, dense (plain or permuted); the inputs are taken with their dims in the same order.
  ChannelShuffleDnnl(int64_t g, const std::vector<ValueInfo>& in, const Shape& y_shape, const Layout& layout) {
    using dnnl::memory;
    const memory::desc y = dnnl_desc(layout, y_shape), x = same_order_desc(layout, in[0].shape);
    const auto& ys = y.data.format_desc.blocking.strides;
    const auto& xs = x.data.format_desc.blocking.strides;
    const int64_t K = y_shape[1] / g;
    memory::dims dims{y_shape[0]}, from{xs[0]}, to{ys[0]};
    if (in.size() == 1) {  // X viewed [N, g, K, ...] -> Y's channel k * g + i viewed the same
      dims.insert(dims.end(), {g, K});
      from.insert(from.end(), {K * xs[1], xs[1]});
      to.insert(to.end(), {ys[1], g * ys[1]});
    } else {  // input i [N, K, ...] -> Y's channels k * g + i, starting i channels in
      dims.push_back(K);
      from.push_back(xs[1]);
      to.push_back(g * ys[1]);
      step_bytes_ = size_t(ys[1]) * sizeof(float);
    }
    for (size_t a = 2; a < y_shape.size(); ++a) {
      dims.push_back(y_shape[a]);
      from.push_back(xs[a]);
      to.push_back(ys[a]);
    }
    from_ = memory::desc(dims, memory::data_type::f32, from);
    to_ = memory::desc(dims, memory::data_type::f32, to);
    reorder_ = DnnlReorder(from_, to_);
    layouts_ = {std::vector<Layout>(in.size(), layout_of(x)), {layout_of(y)}};
  }

  const KernelLayouts* layouts() const override { return &layouts_; }

  void run(const KernelIO& io) const override {
    char* y = static_cast<char*>(io.out[0]->raw());
    for (size_t i = 0; i < io.in.size(); ++i)
      reorder_.run(io.context, DnnlMemoryArg(from_, const_cast<void*>(io.in[i]->raw())),
                   DnnlMemoryArg(to_, y + i * step_bytes_));
  }

 private:
  dnnl::memory::desc from_, to_;
  size_t step_bytes_ = 0;  // where input i's first channel sits in Y
  DnnlReorder reorder_;
  KernelLayouts layouts_;
};

Compiled compile_channel_shuffle(const std::shared_ptr<const ChannelShuffleParams>& p, const KernelArgs& a) {
  std::string why = dnnl_declines_inputs(a.in);
  // One input is viewed with a dim more ([N, g, C/g, ...]).
  if (why.empty() && a.in.size() == 1 && a.in[0].rank() + 1 > DNNL_MAX_NDIMS)
    why = "rank " + std::to_string(a.in[0].rank()) + " viewed with a dim more is beyond oneDNN's " +
          std::to_string(DNNL_MAX_NDIMS);
  if (!why.empty()) return Compiled::decline(why);
  // Y's dims in the order input 0 arrives in (plain when it arrives channel-blocked).
  const Layout layout = layout_of(same_order_desc(a.offered.in[0], a.out[0].shape));
  return std::make_unique<ChannelShuffleDnnl>(p->groups, a.in, a.out[0].shape, layout);
}

}  // namespace

Kernel<ChannelShuffleParams> channel_shuffle_dnnl_kernel() { return {"dnnl", compile_channel_shuffle}; }

}  // namespace cnnx
