// oneDNN BatchNormalization in test mode: batch_normalization_forward for inference with use_global_stats
// (the given mean and var), use_scale and use_shift. X is viewed as [N, C, 1, inner]: the statistics are per
// channel whatever the spatial dims, and the view has no rank limit; a blocked X is taken in its layout.
// spatial = 0 (opsets 1-7, per-activation statistics) is the view [N, C * D1 * ... * Dn, 1, 1], taken plain.
// Training mode (training_mode = 1, or is_test = 0 before opset 7) declines (the reference kernel computes the
// batch statistics and running outputs). In a native bfloat16 plan, X arriving stored in bfloat16 is read so and
// Y written so (oneDNN's bf16 normalization: one descriptor for both) where only Y's rounding reads Y
// (CompileContext::store_bfloat16); otherwise X is taken in float32 (the plan converts it).
#include "dnnl/primitive_kernel.h"
#include "ops/norm/batch_norm.h"

namespace cnnx {

namespace {

using namespace dnnl;

struct BatchNormDesc {
  memory::desc data_md, channel_md;  // X and Y; each of scale, B, mean, var
  batch_normalization_forward::primitive_desc pd;
};

BatchNormDesc describe(const BatchNormParams& p, const Shape& x, const Layout& arriving = {}) {
  // spatial = 0: every activation is a channel of its own (arriving is then plain: see the kernel).
  const memory::dim N = x[0], C = x.size() == 1 ? 1 : p.spatial ? x[1] : numel_range(x, 1, x.size()),
                    INNER = p.spatial ? numel_range(x, 2, x.size()) : 1;
  BatchNormDesc d;
  d.data_md = follow(arriving, plain_f32_desc({N, C, 1, INNER}));
  d.channel_md = memory::desc({C}, dt::f32, tag::x);
  auto flags = normalization_flags::use_global_stats | normalization_flags::use_scale |
               normalization_flags::use_shift;
  if (p.then_relu) flags |= normalization_flags::fuse_norm_relu;
  const batch_normalization_forward::desc desc(prop_kind::forward_inference, d.data_md, p.epsilon, flags);
  d.pd = batch_normalization_forward::primitive_desc(desc, dnnl_attr(), dnnl_engine());
  return d;
}

Compiled compile_f32(const BatchNormParams& p, const KernelArgs& a) {
  if (p.training)
    return Compiled::decline(std::string(p.legacy_is_test ? "is_test = 0: training mode" : "training_mode = 1") +
                             " (oneDNN inference uses the given statistics)");
  // spatial = 0 views the activations as channels: a channel-blocked X does not fit; it is taken plain.
  const bool bf16 = stores_bfloat16(a.offered.in[0]) && a.context.precision == Precision::bf16 &&
                    a.context.store_bfloat16 && p.spatial;
  const Layout arriving = !p.spatial ? Layout() : bf16 ? a.offered.in[0] : float32_layout(a.offered.in[0]);
  return compile_or_refuse([&] {
    const BatchNormDesc d = describe(p, a.in[0].shape, arriving);
    const memory::desc& c = d.channel_md;
    // oneDNN normalizes in place: dst may be src's buffer (in_place_input 0).
    return std::make_unique<DnnlPrimitiveKernel>(
        d.pd,
        DnnlTensorArgs{{DNNL_ARG_SRC, in(0), d.data_md}, {DNNL_ARG_SCALE, in(1), c}, {DNNL_ARG_SHIFT, in(2), c},
                       {DNNL_ARG_MEAN, in(3), c}, {DNNL_ARG_VARIANCE, in(4), c}, {DNNL_ARG_DST, out(0), d.data_md}},
        follow_layouts(arriving, 5), 0);
  });
}

}  // namespace

Kernel<BatchNormParams> batch_norm_dnnl_kernel() { return dnnl_f32_kernel<BatchNormParams, compile_f32>(); }

}  // namespace cnnx
