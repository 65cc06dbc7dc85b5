// oneDNN LRN: lrn_forward with lrn_across_channels, which computes y = x / (k + alpha / size * sum x^2)^beta
// like ONNX (alpha is divided by the window size in both). X is viewed as [N, C, 1, inner]: the window runs
// along channels only, and the view has no rank limit.
//
// oneDNN's window is [c - (size-1)/2, c + (size-1)/2]: for odd sizes that is ONNX's, for even sizes it
// holds one channel fewer than ONNX's [c - floor((size-1)/2), c + ceil((size-1)/2)], so even sizes decline.
#include "dnnl/primitive_kernel.h"
#include "ops/norm/lrn.h"

namespace cnnx {

namespace {

using namespace dnnl;

struct LrnDesc {
  memory::desc data_md;
  lrn_forward::primitive_desc pd;
};

LrnDesc describe(const LrnParams& p, const Shape& x, const Layout& arriving = {}) {
  const memory::dim N = x[0], C = x[1], INNER = numel_range(x, 2, x.size());
  LrnDesc d;
  d.data_md = follow(arriving, plain_f32_desc({N, C, 1, INNER}));
  const lrn_forward::desc desc(prop_kind::forward_inference, algorithm::lrn_across_channels, d.data_md, p.size,
                               p.alpha, p.beta, p.bias);
  d.pd = lrn_forward::primitive_desc(desc, dnnl_attr(), dnnl_engine());
  return d;
}

Compiled compile_f32(const LrnParams& p, const KernelArgs& a) {
  if (p.size % 2 == 0)
    return Compiled::decline("even size " + std::to_string(p.size) + " (oneDNN's window then holds size - 1 channels)");
  const Layout& arriving = a.offered.in[0];
  return compile_or_refuse([&] {
    const LrnDesc d = describe(p, a.in[0].shape, arriving);
    return std::make_unique<DnnlPrimitiveKernel>(
        d.pd, DnnlTensorArgs{{DNNL_ARG_SRC, in(0), d.data_md}, {DNNL_ARG_DST, out(0), d.data_md}},
        follow_layouts(arriving, 1));
  });
}

}  // namespace

Kernel<LrnParams> lrn_dnnl_kernel() { return dnnl_f32_kernel<LrnParams, compile_f32>(); }

}  // namespace cnnx
