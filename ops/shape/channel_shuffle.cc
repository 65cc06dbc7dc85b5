#include "ops/shape/channel_shuffle.h"

#include <cstring>

#include "engine/dnnl_runtime.h"
#include "ops/shape/register.h"

namespace cnnx {

namespace {

std::vector<ValueInfo> infer_channel_shuffle(const ChannelShuffleParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  require(x.rank() >= 2, "expects rank 2 or more, got ", to_string(x.shape));
  require(p.groups >= 1 && x.shape[1] % p.groups == 0, to_string(x.shape), " has ", x.shape[1],
          " channels, not a multiple of ", p.groups, " groups");
  return {same_as_input(in)};
}

void channel_shuffle_ref(const ChannelShuffleParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& y = *io.out[0];
  const int64_t N = x.dim(0), C = x.dim(1), g = p.groups, k_count = C / g;
  const size_t plane = size_t(numel_range(x.shape(), 2, x.shape().size())) * dtype_size(x.dtype());
  const char* src = static_cast<const char*>(x.raw());
  char* dst = static_cast<char*>(y.raw());
  for (int64_t n = 0; n < N; ++n)
    for (int64_t i = 0; i < g; ++i)
      for (int64_t k = 0; k < k_count; ++k)
        std::memcpy(dst + size_t(n * C + k * g + i) * plane, src + size_t(n * C + i * k_count + k) * plane, plane);
}

// X's buffer viewed as [N, g, C/g, ...] (source) and Y's as the same dims (destination), both in `layout`
// (a dense one: plain or permuted), whose strides say where dim 1 (C) and the others step.
KernelDef channel_shuffle_dnnl_kernel() {
  KernelDef k;
  k.name = "dnnl";
  k.declines = [](const OpParams&, const std::vector<ValueInfo>& in) { return dnnl_declines_inputs(in); };
  k.compile = [](const ParamsPtr& op, const std::vector<ValueInfo>& in, const std::vector<ValueInfo>&,
                 const KernelLayouts& offered) {
    const int64_t g = static_cast<const ChannelShuffleParams&>(*op).groups;
    const Shape& shape = in[0].shape;
    // Dense layouts only: channel-blocked ones (nChw16c) are taken plain.
    const dnnl::memory::desc x = has_inner_blocks(offered.in[0]) ? plain_f32_desc(shape) : dnnl_desc(offered.in[0], shape);
    const dnnl_dims_t& s = x.data.format_desc.blocking.strides;
    dnnl::memory::dims dims{shape[0], g, shape[1] / g}, from{s[0], (shape[1] / g) * s[1], s[1]}, to{s[0], s[1], g * s[1]};
    for (size_t a = 2; a < shape.size(); ++a) {
      dims.push_back(shape[a]);
      from.push_back(s[a]);
      to.push_back(s[a]);
    }
    const dnnl::memory::data_type f32 = dnnl::memory::data_type::f32;
    return std::unique_ptr<CompiledKernel>(
        new ReorderCopy(x, dnnl::memory::desc(dims, f32, from), dnnl::memory::desc(dims, f32, to), 1, &x));
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
