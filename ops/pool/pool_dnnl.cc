// oneDNN kernels of the pooling ops: pooling_v2_forward (pooling_forward plus dilation) over the one
// PoolGeometry the reference kernel uses, 1 to 3 spatial dims, on plain N C [D] [H] W tensors or in the
// blocked layout the input arrives in (pooling is memory-bound: it never reorders).
//
// What the primitive computes against ONNX, and where the kernel declines:
//   MaxPool          pooling_max: padding is never a candidate, as in ONNX. The Indices output declines
//                    (oneDNN's workspace is not ONNX's flat index); storage_order only matters for Indices.
//   AveragePool      count_include_pad = 0: pooling_avg_exclude_padding, dividing by the taps inside the
//                    input. count_include_pad = 1: pooling_avg_include_padding, dividing by the kernel volume,
//                    which is ONNX's divisor unless a ceil_mode window overhangs the padded input (declines).
//   Global*Pool      a window of the whole spatial plane, no padding.
// oneDNN's output size is always the floor formula, so a ceil_mode window that overhangs in + pad_end gets
// the extra right padding it reaches into; padding never counts for max and exclude_padding, so only the
// include_padding divisor notices.
//
// Known differences of MaxPool / GlobalMaxPool (data-dependent, so they cannot decline; seen with oneDNN 2.6):
// NaN inputs are skipped (the max of the other cells; the reference gives NaN), and a window whose cells are
// all -inf (or NaN and -inf) gives -FLT_MAX, oneDNN's starting value, instead of -inf.
// MaxPool of int8/uint8 (what fold-qdq makes of DQ -> MaxPool -> Q) is exact: padding is never a candidate.
// In a native bfloat16 plan, an input arriving stored in bfloat16 channels-last or channel-blocked is pooled so,
// and the output stored in bfloat16 too, where only its rounding reads it (CompileContext::store_bfloat16):
// oneDNN's bf16 pooling has one element type for src and dst, accumulates in float32 and rounds the result
// once, which is the float32 pooling and the rounding after it, but for subnormal results, which its
// conversion (vcvtneps2bf16) flushes to zero as oneDNN's other bf16 kernels do. Otherwise the input is taken
// in float32 (the plan converts it); so is a plain one (oneDNN's plain pooling is scalar code).
#include "ops/pool/pool.h"

#include "dnnl/layouts.h"
#include "dnnl/primitive_kernel.h"

namespace cnnx {

namespace {

using namespace dnnl;

// The pooling as oneDNN sees it: the plain src/dst descriptors and the primitive descriptor.
struct PoolDesc {
  memory::desc src_md, dst_md;
  pooling_v2_forward::primitive_desc pd;
};

// A plain descriptor of `shape` of element type `type`.
memory::desc plain_desc(const Shape& shape, memory::data_type type) {
  const memory::desc f32 = plain_f32_desc(shape);
  const dnnl_blocking_desc_t& b = f32.data.format_desc.blocking;
  return memory::desc(f32.dims(), type, memory::dims(b.strides, b.strides + f32.data.ndims));
}

PoolDesc describe(algorithm algo, const Shape& x_shape, const PoolGeometry& g, const Layout& arriving = {},
                  memory::data_type type = memory::data_type::f32) {
  memory::dims dst_dims{x_shape[0], x_shape[1]}, K, S, DIL, P_L, P_R;
  for (const PoolAxis& a : g.axes) {
    dst_dims.push_back(a.out);
    K.push_back(a.kernel);
    S.push_back(a.stride);
    // oneDNN dilation counts the skipped cells between taps: oneDNN dilation = ONNX dilation - 1.
    DIL.push_back(a.dilation - 1);
    // Pads may differ per side (explicit asymmetric pads, or SAME_* with an odd total): padding_l / padding_r.
    P_L.push_back(a.pad_begin);
    // oneDNN's floor output size reaches an overhanging ceil_mode window only with the overhang as padding.
    P_R.push_back(a.last_window_overhangs() ? a.start(a.out - 1) + a.window_extent() - a.in : a.pad_end);
  }
  PoolDesc d;
  // Plain in, plain out; a blocked input keeps its layout family (the primitive picks dst with `any`).
  d.src_md = follow(arriving, plain_desc(x_shape, type));
  d.dst_md = is_plain(arriving) ? plain_desc(dst_dims, type) : memory::desc(dst_dims, type, memory::format_tag::any);
  const pooling_v2_forward::desc desc(prop_kind::forward_inference, algo, d.src_md, d.dst_md, S, K, DIL, P_L, P_R);
  d.pd = pooling_v2_forward::primitive_desc(desc, dnnl_attr(), dnnl_engine());
  d.dst_md = d.pd.dst_desc();
  return d;
}

// The layout input 0 is taken in: as offered, but float32 where the file comment says so.
Layout taken_layout(const KernelArgs& a) {
  const Layout offered = a.offered.in.empty() ? Layout() : a.offered.in[0];  // plain when none was offered
  if (!stores_bfloat16(offered)) return offered;
  const Layout f32 = float32_layout(offered);
  const bool bf16 = a.context.precision == Precision::bf16 && a.context.store_bfloat16 && !is_plain(f32);
  return bf16 ? offered : f32;
}

// The kernel pooling with `algo` over `g`, input 0 of `x_shape` arriving in `arriving`; declines when oneDNN
// refuses the descriptor.
Compiled compile_pool(algorithm algo, const Shape& x_shape, const PoolGeometry& g, const Layout& arriving,
                      DType dtype = DType::f32) {
  return compile_or_refuse([&] {
    const memory::data_type type = stores_bfloat16(arriving) ? memory::data_type::bf16
                                   : dtype == DType::u8      ? memory::data_type::u8
                                   : dtype == DType::i8      ? memory::data_type::s8
                                                             : memory::data_type::f32;
    const PoolDesc d = describe(algo, x_shape, g, arriving, type);
    return std::make_unique<DnnlPrimitiveKernel>(
        d.pd, DnnlTensorArgs{{DNNL_ARG_SRC, in(0), d.src_md}, {DNNL_ARG_DST, out(0), d.dst_md}},
        KernelLayouts{{arriving}, {layout_of(d.dst_md)}});
  });
}

// "" when input 0 is a float32 tensor (or int8/uint8 for max pooling, `any_int8`: the max of integers is
// exact in any layout) oneDNN pools (1 to 3 spatial dims); otherwise why not.
std::string declines_input(const std::vector<ValueInfo>& in, bool any_int8 = false) {
  std::vector<ValueInfo> as_f32 = {in[0]};
  if (any_int8 && (in[0].dtype == DType::u8 || in[0].dtype == DType::i8)) as_f32[0].dtype = DType::f32;
  std::string why = dnnl_declines_inputs(as_f32, 0, 1);
  if (why.empty() && (in[0].rank() < 3 || in[0].rank() > 5))
    why = "input 0 has " + std::to_string(in[0].rank() - 2) + " spatial dims; oneDNN pools 1 to 3";
  return why;
}

Shape spatial_of(const ValueInfo& x) { return Shape(x.shape.begin() + 2, x.shape.end()); }

// The algorithm computing `p`, or why none does (p's geometry resolved on `g`).
std::string choose_algorithm(const PoolParams& p, const PoolGeometry& g, algorithm& algo) {
  if (p.kind == PoolKind::max) {
    if (p.wants_indices) return "the Indices output is requested (oneDNN gives no ONNX flat indices)";
    algo = algorithm::pooling_max;
    return "";
  }
  if (!p.count_include_pad) {
    algo = algorithm::pooling_avg_exclude_padding;
    return "";
  }
  for (const PoolAxis& a : g.axes)
    if (a.last_window_overhangs())
      return "ceil_mode window overhangs the padding: oneDNN's divisor would count cells beyond input + pads";
  algo = algorithm::pooling_avg_include_padding;
  return "";
}

// Global pooling: one window of the whole spatial plane, stride 1, no padding.
PoolGeometry global_geometry(const Shape& spatial) {
  PoolWindow w;
  w.kernel = spatial;
  w.strides.assign(spatial.size(), 1);
  w.dilations.assign(spatial.size(), 1);
  w.pads.assign(2 * spatial.size(), 0);
  return resolve_pool_geometry(w, spatial);
}

}  // namespace

Kernel<PoolParams> pool_dnnl_kernel() {
  return {"dnnl", [](const std::shared_ptr<const PoolParams>& p, const KernelArgs& a) -> Compiled {
            std::string why = declines_input(a.in, p->kind == PoolKind::max);
            if (!why.empty()) return Compiled::decline(why);
            const PoolGeometry g = resolve_pool_geometry(p->window, spatial_of(a.in[0]));
            algorithm algo{};
            why = choose_algorithm(*p, g, algo);
            if (!why.empty()) return Compiled::decline(why);
            // oneDNN 2.6 pools int8 with jit code only channels-last (plain runs its reference loop, ~1000x
            // slower): a plain int8 input is reordered there first.
            Layout arriving = taken_layout(a);
            if (a.in[0].dtype != DType::f32 && is_plain(arriving)) {
              const Shape& x = a.in[0].shape;
              const memory::format_tag cl = x.size() == 3 ? memory::format_tag::nwc
                                            : x.size() == 4 ? memory::format_tag::nhwc : memory::format_tag::ndhwc;
              arriving = layout_of(memory::desc(memory::dims(x.begin(), x.end()),
                                                a.in[0].dtype == DType::u8 ? memory::data_type::u8 : memory::data_type::s8, cl));
            }
            return compile_pool(algo, a.in[0].shape, g, arriving, a.in[0].dtype);
          }};
}

// No padding: exclude_padding and include_padding both divide by the plane size.
template <algorithm algo>
Compiled compile_global_pool(const std::shared_ptr<const NoParams>&, const KernelArgs& a) {
  const std::string why = declines_input(a.in);
  if (!why.empty()) return Compiled::decline(why);
  return compile_pool(algo, a.in[0].shape, global_geometry(spatial_of(a.in[0])), taken_layout(a));
}

Kernel<NoParams> global_pool_dnnl_kernel(bool is_max) {
  return {"dnnl", is_max ? compile_global_pool<algorithm::pooling_max>
                         : compile_global_pool<algorithm::pooling_avg_exclude_padding>};
}

}  // namespace cnnx
