// oneDNN ConvTranspose: deconvolution_forward (direct) over the one ConvTransposeGeometry the reference uses,
// plain src and dst, weights in the primitive's layout (format_tag::any): constant weights are reordered once
// at compile time, others per run.
//
// Weights: ONNX's W is [C, M/group, K...], i.e. [G, IC/G, OC/G, K...] in memory. oneDNN's deconvolution
// weights are logically {G, OC/G, IC/G, K...} (or {OC, IC, K...} without groups), so the user descriptor
// names those dims with strides that swap OC and IC (the "io" order): the same bytes, no copy.
//
// Pads: oneDNN checks the geometry as the convolution dst -> src: in = (out + pl + pr - dilated) / s + 1.
// pad_end may be negative (output_padding, a larger output_shape); any pr in [pad_end, pad_end + s - 1]
// passes that check and computes the same values (pr only crops), so the smallest non-negative one is taken;
// a negative pad_begin (output_shape larger than the full output) declines.
#include <algorithm>
#include <string>

#include "dnnl/primitive_kernel.h"
#include "ops/conv/conv_transpose.h"

namespace cnnx {

namespace {

using namespace dnnl;

struct DeconvDesc {
  memory::desc src_md, dst_md, user_weights_md, user_bias_md;
  deconvolution_forward::primitive_desc pd;
};

DeconvDesc describe(const ConvTransposeGeometry& g) {
  const memory::dim N = g.N, IC = g.C, OC = g.M, G = g.group;
  const size_t k = g.spatial_rank();
  memory::dims S = g.stride, DIL, P_L = g.pad_begin, P_R;
  for (size_t i = 0; i < k; ++i) {
    DIL.push_back(g.dilation[i] - 1);  // oneDNN counts the skipped cells
    require(g.pad_begin[i] >= 0, "an output_shape larger than the full output (negative pads)");
    int64_t pr = g.pad_end[i];
    require(pr + g.stride[i] - 1 >= 0, "output cells beyond the full output that no input reaches (negative pads)");
    if (pr < 0) pr = 0;
    P_R.push_back(pr);
  }
  memory::dims src_dims{N, IC}, dst_dims{N, OC};
  src_dims.insert(src_dims.end(), g.in.begin(), g.in.end());
  dst_dims.insert(dst_dims.end(), g.out.begin(), g.out.end());

  // Logical {[G,] OC/G, IC/G, K...}; memory order [G, IC/G, OC/G, K...].
  memory::dims wdims, wstrides;
  int64_t taps = 1;
  for (int64_t kk : g.kernel) taps *= kk;
  const memory::dim OCg = OC / G, ICg = IC / G;
  if (G > 1) {
    wdims = {G, OCg, ICg};
    wstrides = {ICg * OCg * taps, taps, OCg * taps};
  } else {
    wdims = {OC, IC};
    wstrides = {taps, OC * taps};
  }
  memory::dims kstrides(k);
  int64_t inner = 1;
  for (size_t i = k; i-- > 0;) {
    kstrides[i] = inner;
    inner *= g.kernel[i];
  }
  wdims.insert(wdims.end(), g.kernel.begin(), g.kernel.end());
  wstrides.insert(wstrides.end(), kstrides.begin(), kstrides.end());

  DeconvDesc d;
  d.src_md = plain_f32_desc(src_dims);
  d.dst_md = plain_f32_desc(dst_dims);
  d.user_weights_md = memory::desc(wdims, dt::f32, wstrides);
  if (g.has_bias) d.user_bias_md = memory::desc({OC}, dt::f32, tag::x);
  const deconvolution_forward::desc desc(prop_kind::forward_inference, algorithm::deconvolution_direct, d.src_md,
                                         memory::desc(wdims, dt::f32, tag::any), d.user_bias_md, d.dst_md, S, DIL,
                                         P_L, P_R);
  d.pd = deconvolution_forward::primitive_desc(desc, dnnl_attr(), dnnl_engine());
  return d;
}

class ConvTransposeDnnl : public CompiledKernel {
 public:
  ConvTransposeDnnl(const ConvTransposeGeometry& g, const std::vector<ValueInfo>& in, const CompileContext& context)
      : d_(describe(g)), has_bias_(g.has_bias) {
    deconv_ = DnnlPrimitive(d_.pd);
    if (in[1].constant) {
      const_weights_ = prepare_constant(context, d_.user_weights_md, *in[1].constant, d_.pd.weights_desc());
    } else {
      weights_in_ = DnnlReorder(d_.user_weights_md, d_.pd.weights_desc());
    }
  }

  bool reads_input_at_run(size_t input) const override { return input != 1 || !const_weights_.memory; }

  void run(const KernelIO& io) const override {
    DnnlMemoryArg weights = const_weights_.memory;
    if (!const_weights_.memory) {
      weights = dnnl_wrap(d_.user_weights_md, *io.in[1]);
      if (weights_in_) {
        const memory reordered(d_.pd.weights_desc(), dnnl_engine());
        weights_in_.run(io.context, weights, reordered);
        weights = reordered;
      }
    }
    DnnlArgs args{{DNNL_ARG_SRC, dnnl_wrap(d_.src_md, *io.in[0])},
                  {DNNL_ARG_WEIGHTS, weights},
                  {DNNL_ARG_DST, dnnl_wrap(d_.dst_md, *io.out[0])}};
    if (has_bias_) args.insert({DNNL_ARG_BIAS, dnnl_wrap(d_.user_bias_md, *io.in[2])});
    deconv_.execute(io.context, std::move(args));
  }

 private:
  DeconvDesc d_;
  bool has_bias_;
  DnnlPrimitive deconv_;
  DnnlReorder weights_in_;
  OwnedMemory const_weights_;
};

Compiled compile_f32(const ConvTransposeParams& p, const KernelArgs& a) {
  const ConvTransposeGeometry g = resolve_conv_transpose_geometry(p, a.in);
  for (size_t i = 0; i < g.spatial_rank(); ++i) {
    if (g.pad_begin[i] < 0) return Compiled::decline("output_shape is larger than the full output (negative begin pad)");
    if (g.pad_end[i] + g.stride[i] - 1 < 0)
      return Compiled::decline("output cells beyond the full output that no input reaches (negative end pad)");
  }
  return compile_or_refuse([&] { return std::make_unique<ConvTransposeDnnl>(g, a.in, a.context); });
}

}  // namespace

Kernel<ConvTransposeParams> conv_transpose_dnnl_kernel() {
  return dnnl_f32_kernel<ConvTransposeParams, compile_f32>();
}

}  // namespace cnnx
