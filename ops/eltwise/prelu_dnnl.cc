// oneDNN PRelu: prelu_forward on plain X with the slope as weights of X's rank (leading 1s added; each dim
// equals X's or is 1, which infer_prelu checked). oneDNN 2.6 has kernels for per-tensor, per-channel (dim 1),
// shared-axes and full slopes; what it refuses declines through compile_or_refuse.
#include "dnnl/primitive_kernel.h"
#include "ops/common/special_values.h"
#include "ops/eltwise/prelu.h"

namespace cnnx {

namespace {

using namespace dnnl;

struct PReluDesc {
  memory::desc data_md, weights_md;
  prelu_forward::primitive_desc pd;
};

PReluDesc describe(const Shape& x, const Shape& slope) {
  Shape w(x.size() - slope.size(), 1);
  w.insert(w.end(), slope.begin(), slope.end());
  PReluDesc d;
  d.data_md = plain_f32_desc(x);
  d.weights_md = plain_f32_desc(w);
  const prelu_forward::desc desc(prop_kind::forward_inference, d.data_md, d.weights_md);
  d.pd = prelu_forward::primitive_desc(desc, dnnl_attr(), dnnl_engine());
  require(d.pd.weights_desc() == d.weights_md, "oneDNN wants the slope in another layout");
  return d;
}

Compiled compile_f32(const PReluParams& p, const KernelArgs& a) {
  if (a.in[0].shape.empty()) return Compiled::decline("X is a scalar (oneDNN needs at least one dim)");
  // oneDNN multiplies every x by its slope, x > 0 too: a NaN or infinite slope would reach them.
  if (!a.in[1].constant || !all_finite(*a.in[1].constant))
    return Compiled::decline("the slope is not a constant of finite values (oneDNN multiplies x > 0 by it too)");
  return compile_or_refuse([&] {
    const PReluDesc d = describe(a.in[0].shape, slope_shape(p, a.in[0].shape, a.in[1].shape));
    return std::make_unique<DnnlPrimitiveKernel>(d.pd, DnnlTensorArgs{{DNNL_ARG_SRC, in(0), d.data_md},
                                                                      {DNNL_ARG_WEIGHTS, in(1), d.weights_md},
                                                                      {DNNL_ARG_DST, out(0), d.data_md}});
  });
}

}  // namespace

Kernel<PReluParams> prelu_dnnl_kernel() { return dnnl_f32_kernel<PReluParams, compile_f32>(); }

}  // namespace cnnx
