// oneDNN Conv and FusedConv: convolution_forward (direct algorithm) over the one ConvGeometry the reference
// kernel uses. The primitive picks its own src/weights/dst layouts (format_tag::any) and reports them: the
// plan hands src over in the chosen layout (reordering only when it arrives otherwise) and keeps dst in it
// for the next kernels. Two offers are taken when oneDNN runs them with the instruction set it would use for
// its own choice: src in the layout it arrives in (no reorder before) and the dst layout the readers wish for
// (a Transpose that is then a view: runtime/plan.cc, wished_layouts). Weights with constant data are reordered once at compile time and kept; others are
// reordered per run. FusedConv's residual add is a sum post-op (the residual is copied into dst first) and
// its activation eltwise post-ops, except Swish in float32: that runs after the primitive (ops/conv/swish.h says
// why), in the sweep that rounds FusedConvFloat16's dst to float16.
// A node the bfloat16 plan marks bf16 (CompileContext::precision, set where the CPU has native bfloat16) runs
// oneDNN's bf16 convolution: weights reordered to bf16 once, src read stored in bfloat16 (dnnl/layouts.h: the
// plan's rounding writes it so), float32 accumulation and bias, and dst stored in bfloat16 where only its
// rounding reads it (CompileContext::store_bfloat16), else float32. Not with a float16 rounding after the
// primitive, nor with a residual arriving float32 (rounding it would round twice). In bfloat16 Swish is the
// primitive's post-op: writing bf16 straight from the accumulators beats a float32 dst swept after it
// (efficientnet_b0 0.82-0.87x the time, AVX512_BF16, bench/README.md "Swish in bfloat16").
#include "ops/conv/conv.h"
#include "ops/conv/fused_conv.h"

#include <cstring>
#include <optional>
#include <string>

#include "dnnl/cpu_blocks.h"
#include "dnnl/primitive_kernel.h"
#include "ops/common/activation_dnnl.h"
#include "ops/conv/swish.h"

namespace cnnx {

namespace {

using namespace dnnl;

// The convolution as oneDNN sees it: the user's plain descriptors and the primitive descriptor, and the
// layout the plan is told dst has (the primitive's, but for first_layer's).
struct ConvDesc {
  memory::desc user_weights_md, user_bias_md;
  memory::desc src_md;  // the primitive's src layout, float32
  convolution_forward::primitive_desc pd;
  Layout dst_layout;
};

// How the primitive computes: the type of src and weights (f32, or bf16 with float32 bias), and of its dst (f32,
// or bf16 with bf16 src).
struct ConvTypes {
  dt compute = dt::f32, dst = dt::f32;
};

// Swish runs after a float32 primitive (swish_in_place), not as its post-op.
bool runs_swish_after(const ConvFusion& f, ConvTypes types) {
  std::vector<EltwiseStep> steps;
  if (f.activation) f.activation->dnnl(f.args, steps);
  return types.compute == dt::f32 && steps.size() == 1 && steps[0].algorithm == EltwiseAlgorithm::swish;
}

// The fusion as post-ops: sum first (dst holds the residual), then the activation, but for a Swish that
// runs_swish_after: run() sweeps dst with it after the primitive. That dst is always a buffer of its own, or a
// Concat part that is one contiguous run of the Concat's bytes described from offset 0 (runtime/plan.cc).
post_ops fusion_post_ops(const ConvFusion& f, ConvTypes types) {
  post_ops ops;
  if (f.residual) ops.append_sum(1.f);
  std::vector<EltwiseStep> steps;
  if (f.activation) require(f.activation->dnnl(f.args, steps).empty(), "the fuse-conv pass took an activation oneDNN refuses");
  const bool swish_after = runs_swish_after(f, types);
  for (const EltwiseStep& s : steps)
    if (s.algorithm != EltwiseAlgorithm::swish || !swish_after)
      ops.append_eltwise(1.f, dnnl_algorithm(s.algorithm), s.alpha, s.beta);
  return ops;
}

// `src_md` / `dst_md`: zero for the primitive's choice (format_tag::any), else that layout (of any type: the
// types are `types`').
ConvDesc describe(const ConvGeometry& g, ConvTypes types, const ConvFusion& fusion = {}, const memory::desc& src_md = {},
                  const memory::desc& dst_md = {}) {
  const memory::dim IC = g.C, OC = g.M, G = g.group;
  // Spatial dims, outermost first (1 to 3 of D, H, W): kernel sizes, strides, pads.
  const memory::dims K = g.kernel, S = g.stride;
  // Pads may differ per side (explicit asymmetric pads, or SAME_* with an odd total): padding_l / padding_r.
  const memory::dims P_L = g.pad_begin, P_R = g.pad_end;
  // oneDNN dilation counts the skipped cells between taps: oneDNN dilation = ONNX dilation - 1.
  memory::dims DIL;
  for (int64_t d : g.dilation) DIL.push_back(d - 1);

  const memory::dims src_dims = g.input_shape(), dst_dims = g.output_shape();
  // Groups are a leading weights dim: ONNX's W [OC, IC/G, K...] is oneDNN's [G, OC/G, IC/G, K...] (same bytes).
  memory::dims weights_dims = G == 1 ? memory::dims{OC, IC} : memory::dims{G, OC / G, IC / G};
  weights_dims.insert(weights_dims.end(), K.begin(), K.end());

  ConvDesc d;
  d.user_weights_md = plain_f32_desc(weights_dims);
  if (g.has_bias) d.user_bias_md = memory::desc({OC}, dt::f32, tag::x);  // a zero desc means "no bias"

  const memory::desc conv_src_md =
      src_md.is_zero() ? memory::desc(src_dims, types.compute, tag::any) : with_data_type(src_md, types.compute);
  const memory::desc conv_weights_md(weights_dims, types.compute, tag::any);
  const memory::desc conv_dst_md =
      dst_md.is_zero() ? memory::desc(dst_dims, types.dst, tag::any) : with_data_type(dst_md, types.dst);
  const convolution_forward::desc conv_desc(prop_kind::forward_inference, algorithm::convolution_direct,
                                            conv_src_md, conv_weights_md, d.user_bias_md, conv_dst_md, S, DIL,
                                            P_L, P_R);
  primitive_attr attr = dnnl_attr();
  attr.set_post_ops(fusion_post_ops(fusion, types));
  d.pd = convolution_forward::primitive_desc(conv_desc, attr, dnnl_engine());
  d.src_md = with_data_type(d.pd.src_desc(), dt::f32);
  d.dst_layout = layout_of(d.pd.dst_desc());
  return d;
}

// A first layer: src arrives plain (NCHW, as images do), with at most 4 channels, and the convolution makes
// as many as the channel block of the CPU's instruction set (cpu_channel_block(): 16 with AVX-512, 8 with
// AVX2). oneDNN's direct kernel reads NCHW itself and writes nChw<b>c, which for b channels puts every
// element where channels-last does (N, H, W, then the b channels): the plan is told dst is channels-last, the
// layout the next layers choose on AVX-512, and the input needs no reorder (3-5% of a small network:
// 3x224x224 floats reordered in 36 us on one thread, while this kernel is 7 us faster than channels-last's).
// Empty when oneDNN has no such kernel or would run it with another instruction set than its own choice `own`.
std::optional<ConvDesc> first_layer(const ConvGeometry& g, ConvTypes types, const ConvFusion& fusion, const ConvDesc& own) {
  const int64_t block = cpu_channel_block();
  if (g.C > 4 || g.M != block || g.group != 1 || g.in.size() != 2 || fusion.residual) return std::nullopt;
  const memory::dims dst_dims = g.output_shape();
  try {
    ConvDesc d = describe(g, types, fusion, plain_f32_desc(g.input_shape()), md_of(channel_blocked_layout(dst_dims, block)));
    if (implementation_isa(d.pd) != implementation_isa(own.pd)) return std::nullopt;
    d.dst_layout = layout_of(memory::desc(dst_dims, types.dst, tag::acdb));
    return d;
  } catch (const dnnl::error&) {
    return std::nullopt;
  }
}

// A grouped (not depthwise) convolution over a multiple of 512 channels whose own choice is oneDNN's AVX-512
// kernel in nChw16c. Its channels-last kernel (oneDNN 2.6's jit:avx512_core) reads each group's 16 channels
// pixel by pixel at the channel stride, a multiple of 2 KiB, so a row of pixels falls in one or two L1 sets
// and evicts itself: ResNeXt's 32 groups of 16 over 512 channels run 1.6x slower than in nChw16c at 28x28, 5x
// at 56x56 stride 2 (bench/README.md, "Grouped convolutions over 512 channels"). Other channel counts
// (RegNet's 144-400) run level in both. Measured with that kernel only: other instruction sets keep the rule off.
bool grouped_conv_aliases_channels_last(const ConvGeometry& g, const ConvDesc& own) {
  return g.group > 1 && g.group != g.C && g.C % 512 == 0 && implementation_isa(own.pd).rfind("avx512", 0) == 0 &&
         layout_of(own.src_md) == channel_blocked_layout(g.input_shape(), 16);
}

// The offered layouts (see the file comment) when oneDNN runs them with the instruction set of its own choice,
// tried in this order: src as it arrives with the wished dst; the wished dst alone (a view saves a copy of
// the whole output, a reorder of src is shared by its readers); the wished dst with src in its order (oneDNN
// 2.6's AVX2 depthwise kernel runs channels-last only when both are: ConvNeXt's 7x7 before its Transpose);
// src as it arrives alone; else its own choice.
// A src arriving in a layout other than plain is offered whatever it is: a grouped convolution's own choice
// (nChw4c, nChw8c) is barely faster than channels-last and costs two reorders, and the layout oneDNN picks
// for a few channels per group must not spread to the layers after it: 1x1 convolutions in nChw8c run AVX2
// code on AVX-512 machines at half the speed. The exception: a grouped convolution that aliases in
// channels-last (above) takes its own choice, reordering src where it arrives channels-last.
ConvDesc describe_offered(const ConvGeometry& g, ConvTypes types, const ConvFusion& fusion, const KernelLayouts& offered) {
  const Layout src = float32_layout(offered.in[0]);  // the arrangement it arrives in; `types` say the type
  const Layout wished_dst = offered.out.empty() ? Layout() : offered.out[0];
  // Given a channels-last src and left to choose dst, oneDNN pairs it with a blocked dst it has no kernel for.
  const Layout dst_like_src = is_plain(src) || has_inner_blocks(src) ? Layout() : layout_of(same_order_desc(src, g.output_shape()));
  ConvDesc own = describe(g, types, fusion);
  if (grouped_conv_aliases_channels_last(g, own)) return own;
  if (is_plain(src) && is_plain(wished_dst))
    if (std::optional<ConvDesc> d = first_layer(g, types, fusion, own)) return std::move(*d);
  const Layout src_like_wished_dst =
      is_plain(wished_dst) ? Layout() : layout_of(same_order_desc(wished_dst, g.input_shape()));
  const std::pair<Layout, Layout> tries[] = {{src, is_plain(wished_dst) ? dst_like_src : wished_dst},
                                             {Layout(), wished_dst},
                                             {src_like_wished_dst, wished_dst},
                                             {src, dst_like_src}};
  for (const auto& [try_src, try_dst] : tries) {
    if (is_plain(try_src) && is_plain(try_dst)) continue;
    try {
      ConvDesc d = describe(g, types, fusion, md_of(try_src), md_of(try_dst));
      if (implementation_isa(d.pd) == implementation_isa(own.pd)) return d;
    } catch (const dnnl::error&) {
    }
  }
  return own;
}

class ConvDnnl : public CompiledKernel {
 public:
  ConvDnnl(const ConvGeometry& g, const std::vector<ValueInfo>& in, const ConvFusion& fusion,
           const KernelLayouts& offered, const CompileContext& context)
      : types_(types(context, fusion, offered)), d_(describe_offered(g, types_, fusion, offered)), has_bias_(g.has_bias),
        residual_(fusion.residual), swish_(runs_swish_after(fusion, types_)), to_float16_(fusion.to_float16) {
    const auto& pd = d_.pd;
    conv_ = DnnlPrimitive(pd);
    src_md_ = pd.src_desc();
    dst_md_ = pd.dst_desc();
    // X and the residual (input 3) in the primitive's src and dst layouts; W and B plain.
    layouts_.in.assign(in.size(), Layout());
    layouts_.in[0] = layout_of(src_md_);
    if (residual_) layouts_.in[3] = d_.dst_layout;
    layouts_.out = {d_.dst_layout};
    if (in[1].constant) {
      // Constant weights: into the primitive's layout once (read as they are when it kept the plain layout).
      const_weights_ = prepare_constant(context, d_.user_weights_md, *in[1].constant, pd.weights_desc());
    } else {
      weights_in_ = DnnlReorder(d_.user_weights_md, pd.weights_desc());
    }
  }

  const KernelLayouts* layouts() const override { return &layouts_; }
  // The sum post-op adds what dst holds: dst may be the residual's own buffer.
  int in_place_input() const override { return residual_ ? 3 : -1; }
  bool reads_input_at_run(size_t input) const override { return input != 1 || !const_weights_.memory; }

  void run(const KernelIO& io) const override {
    const Tensor& X = *io.in[0];
    const Tensor& W = *io.in[1];
    const auto& pd = d_.pd;
    const DnnlMemoryArg conv_src = dnnl_wrap(src_md_, X);
    const DnnlMemoryArg conv_dst = dnnl_wrap(dst_md_, *io.out[0]);
    // The sum post-op adds what dst holds: the residual, in dst's layout (the plan made it so).
    if (residual_ && io.out[0]->raw() != io.in[3]->raw())
      std::memcpy(io.out[0]->raw(), io.in[3]->raw(), dst_md_.get_size());
    DnnlMemoryArg conv_weights = const_weights_.memory;
    if (!const_weights_.memory) {
      conv_weights = dnnl_wrap(d_.user_weights_md, W);
      if (weights_in_) {
        const memory reordered(pd.weights_desc(), dnnl_engine());
        weights_in_.run(io.context, conv_weights, reordered);
        conv_weights = reordered;
      }
    }
    DnnlArgs args{{DNNL_ARG_SRC, conv_src}, {DNNL_ARG_WEIGHTS, conv_weights}, {DNNL_ARG_DST, conv_dst}};
    if (has_bias_) args.insert({DNNL_ARG_BIAS, dnnl_wrap(d_.user_bias_md, *io.in[2])});
    conv_.execute(io.context, std::move(args));
    // Padding channels of a blocked dst hold zeros, and swish(0) = 0 = r(0): the whole buffer may be swept.
    const int64_t dst_floats = int64_t(dst_md_.get_size() / sizeof(float));
    if (to_float16_) swish_round_to_float16_in_place(io.out[0]->data<float>(), dst_floats, swish_);
    else if (swish_) swish_in_place(io.out[0]->data<float>(), dst_floats);
  }

 private:
  ConvTypes types_;
  ConvDesc d_;
  bool has_bias_, residual_, swish_, to_float16_;
  KernelLayouts layouts_;
  DnnlPrimitive conv_;
  memory::desc src_md_, dst_md_;  // queried once: run() would copy them out of pd each time
  DnnlReorder weights_in_;
  OwnedMemory const_weights_;  // empty unless W was constant at compile time

  // bf16 where the plan asks for it (CompileContext::precision: native bfloat16 only), else f32; dst stored in
  // bfloat16 as the file comment says.
  static ConvTypes types(const CompileContext& c, const ConvFusion& f, const KernelLayouts& offered) {
    if (c.precision != Precision::bf16) return {};
    const bool residual_stored = !f.residual || (offered.in.size() > 3 && stores_bfloat16(offered.in[3]));
    const bool store = c.store_bfloat16 && !f.to_float16 && residual_stored;
    return {dt::bf16, store ? dt::bf16 : dt::f32};
  }
};

// Declines non-float32 inputs and what oneDNN refuses; the residual and weights need no more checks.
Compiled compile_conv(const ConvParams& p, const ConvFusion& fusion, const KernelArgs& a) {
  const std::string why = dnnl_declines_inputs(a.in);
  if (!why.empty()) return Compiled::decline(why);
  const std::vector<ValueInfo> conv_in(a.in.begin(), a.in.begin() + std::min<size_t>(a.in.size(), 3));
  return compile_or_refuse(
      [&] { return std::make_unique<ConvDnnl>(resolve_conv_geometry(p, conv_in), a.in, fusion, a.offered, a.context); });
}

}  // namespace

Kernel<ConvParams> conv_dnnl_kernel() {
  return {"dnnl", [](const std::shared_ptr<const ConvParams>& p, const KernelArgs& a) {
            return compile_conv(*p, ConvFusion{}, a);
          }};
}

Kernel<FusedConvParams> fused_conv_dnnl_kernel() {
  return {"dnnl", [](const std::shared_ptr<const FusedConvParams>& p, const KernelArgs& a) {
            return compile_conv(p->conv, p->fusion, a);
          }};
}

}  // namespace cnnx
