#include "ops/shape/channel_shuffle.h"

#include <cstring>

#include "engine/dnnl_runtime.h"
#include "ops/shape/register.h"

namespace cnnx {

namespace {

std::vector<ValueInfo> infer_channel_shuffle(const ChannelShuffleParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  require(x.rank() >= 2, "expects rank 2 or more, got ", to_string(x.shape));
  require(p.groups >= 1 && (in.size() == 1 || int64_t(in.size()) == p.groups), "expects 1 or ", p.groups,
          " inputs, got ", in.size());
  for (size_t i = 1; i < in.size(); ++i)
    require(input(in, i).shape == x.shape && in[i].dtype == x.dtype, "input ", i, " differs from input 0");
  ValueInfo y = same_as_input(in);
  if (in.size() > 1) y.shape[1] = checked_mul(x.shape[1], p.groups, "channels");
  require(y.shape[1] % p.groups == 0, to_string(y.shape), " has ", y.shape[1], " channels, not a multiple of ",
          p.groups, " groups");
  return {y};
}

void channel_shuffle_ref(const ChannelShuffleParams& p, const KernelIO& io) {
  Tensor& y = *io.out[0];
  const int64_t N = y.dim(0), C = y.dim(1), g = p.groups, K = C / g;
  const size_t plane = size_t(numel_range(y.shape(), 2, y.shape().size())) * dtype_size(y.dtype());
  char* dst = static_cast<char*>(y.raw());
  for (int64_t n = 0; n < N; ++n)
    for (int64_t i = 0; i < g; ++i)
      for (int64_t k = 0; k < K; ++k) {
        // X's channel i * K + k: in the one input, or channel k of input i.
        const bool one = io.in.size() == 1;
        const Tensor& x = *io.in[one ? 0 : size_t(i)];
        const int64_t c = one ? i * K + k : k, channels = one ? C : K;
        std::memcpy(dst + size_t(n * C + k * g + i) * plane,
                    static_cast<const char*>(x.raw()) + size_t(n * channels + c) * plane, plane);
      }
}

// Per input, a reorder from a view of its buffer to a view of Y's (dims [N, g or 1, K, ...] or [N, K, ...]),
// both with the strides of the dense layout the inputs arrive in.
class ChannelShuffleDnnl : public CompiledKernel {
 public:
  // `layout`: Y's, dense (plain or permuted); the inputs are taken with their dims in the same order.
  ChannelShuffleDnnl(int64_t g, const std::vector<ValueInfo>& in, const Shape& y_shape, const Layout& layout) {
    using dnnl::memory;
    const memory::desc y = dnnl_desc(layout, y_shape), x = dnnl_desc(same_order_desc(layout, in[0].shape), in[0].shape);
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
      reorder_.run(dnnl::memory(from_, dnnl_engine(), const_cast<void*>(io.in[i]->raw())),
                   dnnl::memory(to_, dnnl_engine(), y + i * step_bytes_));
  }

 private:
  dnnl::memory::desc from_, to_;
  size_t step_bytes_ = 0;  // where input i's first channel sits in Y
  DnnlReorder reorder_;
  KernelLayouts layouts_;
};

KernelDef channel_shuffle_dnnl_kernel() {
  KernelDef k;
  k.name = "dnnl";
  k.declines = [](const OpParams&, const std::vector<ValueInfo>& in) {
    std::string why = dnnl_declines_inputs(in);
    // One input is viewed with a dim more ([N, g, C/g, ...]).
    if (why.empty() && in.size() == 1 && in[0].rank() + 1 > DNNL_MAX_NDIMS)
      why = "rank " + std::to_string(in[0].rank()) + " viewed with a dim more is beyond oneDNN's " +
            std::to_string(DNNL_MAX_NDIMS);
    return why;
  };
  k.compile = [](const ParamsPtr& op, const std::vector<ValueInfo>& in, const std::vector<ValueInfo>& out,
                 const KernelLayouts& offered) {
    const int64_t g = static_cast<const ChannelShuffleParams&>(*op).groups;
    // Y's dims in the order input 0 arrives in (plain when it arrives channel-blocked).
    const Layout layout = layout_of(same_order_desc(offered.in[0], out[0].shape));
    return std::unique_ptr<CompiledKernel>(new ChannelShuffleDnnl(g, in, out[0].shape, layout));
  };
  return k;
}

}  // namespace

void shape_ops::register_channel_shuffle_ops(OpRegistry& r) {
  OpDef d;
  d.domain = kInternalDomain;
  d.type = "ChannelShuffle";
  d.parse = [](const Node&) -> ParamsPtr {
    fail("ChannelShuffle is made by cnnx's channel-shuffle pass, not read from models");
  };
  d.infer = inferer<ChannelShuffleParams>(infer_channel_shuffle);
  d.tolerance = {0, 0};  // elements are moved, never computed
  d.kernels = {channel_shuffle_dnnl_kernel(), ref_kernel<ChannelShuffleParams>(channel_shuffle_ref)};
  r.add(std::move(d));
}

}  // namespace cnnx
