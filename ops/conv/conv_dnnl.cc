// oneDNN Conv: convolution_forward (direct algorithm) over the one ConvGeometry the reference kernel uses.
// The primitive picks its own src/weights/dst layouts (format_tag::any); the engine's tensors are plain
// N C [D] [H] W, so src is reordered in and dst out when the primitive chose a blocked layout. Weights with
// constant data are reordered once at compile time and kept; others are reordered per run.
#include "ops/conv/conv.h"

#include "engine/dnnl_runtime.h"

namespace cnnx {

namespace {

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

// The convolution as oneDNN sees it: the user's plain descriptors and the primitive descriptor.
struct ConvDesc {
  memory::desc user_src_md, user_weights_md, user_bias_md, user_dst_md;
  convolution_forward::primitive_desc pd;
};

ConvDesc describe(const ConvGeometry& g) {
  const memory::dim N = g.N, IC = g.C, OC = g.M, G = g.group;
  // Spatial dims, outermost first (1 to 3 of D, H, W): input, kernel, output sizes, strides, pads.
  const memory::dims I = g.in, K = g.kernel, O = g.out, S = g.stride;
  // Pads may differ per side (explicit asymmetric pads, or SAME_* with an odd total): padding_l / padding_r.
  const memory::dims P_L = g.pad_begin, P_R = g.pad_end;
  // oneDNN dilation counts the skipped cells between taps: oneDNN dilation = ONNX dilation - 1.
  memory::dims DIL;
  for (int64_t d : g.dilation) DIL.push_back(d - 1);

  memory::dims src_dims{N, IC}, dst_dims{N, OC};
  src_dims.insert(src_dims.end(), I.begin(), I.end());
  dst_dims.insert(dst_dims.end(), O.begin(), O.end());
  // Groups are a leading weights dim: ONNX's W [OC, IC/G, K...] is oneDNN's [G, OC/G, IC/G, K...] (same bytes).
  memory::dims weights_dims = G == 1 ? memory::dims{OC, IC} : memory::dims{G, OC / G, IC / G};
  weights_dims.insert(weights_dims.end(), K.begin(), K.end());

  ConvDesc d;
  d.user_src_md = plain_f32_desc(src_dims);
  d.user_weights_md = plain_f32_desc(weights_dims);
  d.user_dst_md = plain_f32_desc(dst_dims);
  if (g.has_bias) d.user_bias_md = memory::desc({OC}, dt::f32, tag::x);  // a zero desc means "no bias"

  const memory::desc conv_src_md(src_dims, dt::f32, tag::any);
  const memory::desc conv_weights_md(weights_dims, dt::f32, tag::any);
  const memory::desc conv_dst_md(dst_dims, dt::f32, tag::any);
  const convolution_forward::desc conv_desc(prop_kind::forward_inference, algorithm::convolution_direct,
                                            conv_src_md, conv_weights_md, d.user_bias_md, conv_dst_md, S, DIL,
                                            P_L, P_R);
  d.pd = convolution_forward::primitive_desc(conv_desc, dnnl_attr(), dnnl_engine());
  return d;
}

class ConvDnnl : public CompiledKernel {
 public:
  ConvDnnl(const ConvGeometry& g, const std::vector<ValueInfo>& in)
      : d_(describe(g)), x_shape_(in[0].shape), w_shape_(in[1].shape), has_bias_(g.has_bias) {
    const auto& pd = d_.pd;
    conv_ = convolution_forward(pd);
    scratchpad_md_ = pd.scratchpad_desc();
    src_in_ = DnnlReorder(d_.user_src_md, pd.src_desc());
    dst_out_ = DnnlReorder(pd.dst_desc(), d_.user_dst_md);
    if (in[1].constant) {
      // Constant weights: into the primitive's layout once (a plain copy when it kept the plain layout).
      memory user_weights = dnnl_wrap(d_.user_weights_md, *in[1].constant);
      const_weights_ = memory(pd.weights_desc(), dnnl_engine());
      reorder(user_weights, const_weights_).execute(dnnl_stream(), user_weights, const_weights_);
      dnnl_stream().wait();
    } else {
      weights_in_ = DnnlReorder(d_.user_weights_md, pd.weights_desc());
    }
  }

  void run(const KernelIO& io) const override {
    const Tensor& X = *io.in[0];
    const Tensor& W = *io.in[1];
    if (!(X.shape() == x_shape_ && W.shape() == w_shape_))
      fail("Conv was planned for X ", to_string(x_shape_), " and W ", to_string(w_shape_), ", got ",
           to_string(X.shape()), " and ", to_string(W.shape()));
    const auto& pd = d_.pd;
    const memory user_src = dnnl_wrap(d_.user_src_md, X);
    const memory user_dst = dnnl_wrap(d_.user_dst_md, *io.out[0]);

    memory conv_src = user_src;
    if (src_in_) {
      conv_src = memory(pd.src_desc(), dnnl_engine());
      src_in_.run(user_src, conv_src);
    }
    memory conv_weights = const_weights_;
    if (!conv_weights) {
      const memory user_weights = dnnl_wrap(d_.user_weights_md, W);
      conv_weights = user_weights;
      if (weights_in_) {
        conv_weights = memory(pd.weights_desc(), dnnl_engine());
        weights_in_.run(user_weights, conv_weights);
      }
    }
    const memory conv_dst = dst_out_ ? memory(pd.dst_desc(), dnnl_engine()) : user_dst;

    DnnlArgs args{{DNNL_ARG_SRC, conv_src}, {DNNL_ARG_WEIGHTS, conv_weights}, {DNNL_ARG_DST, conv_dst}};
    if (has_bias_) args.insert({DNNL_ARG_BIAS, dnnl_wrap(d_.user_bias_md, *io.in[2])});
    dnnl_execute(conv_, scratchpad_md_, std::move(args));
    if (dst_out_) dst_out_.run(conv_dst, user_dst);
  }

 private:
  ConvDesc d_;
  Shape x_shape_, w_shape_;
  bool has_bias_;
  convolution_forward conv_;
  memory::desc scratchpad_md_;
  DnnlReorder src_in_, dst_out_, weights_in_;
  memory const_weights_;  // empty unless W was constant at compile time
};

}  // namespace

KernelDef conv_dnnl_kernel() {
  KernelDef k;
  k.name = "dnnl";
  k.declines = [](const OpParams& p, const std::vector<ValueInfo>& in) {
    std::string why = dnnl_declines_inputs(in);
    if (!why.empty()) return why;
    return dnnl_refuses([&] { describe(resolve_conv_geometry(static_cast<const ConvParams&>(p), in)); });
  };
  k.compile = [](const ParamsPtr& p, const std::vector<ValueInfo>& in, const std::vector<ValueInfo>&,
                 const std::vector<Layout>&) {
    const ConvGeometry g = resolve_conv_geometry(static_cast<const ConvParams&>(*p), in);
    return std::unique_ptr<CompiledKernel>(new ConvDnnl(g, in));
  };
  return k;
}

}  // namespace cnnx
