// oneDNN Gemm, two ways.
// - A layer (B constant, A not transposed, alpha 1, C absent or a constant row): the inner product
//   primitive. B is reordered once into the layout the primitive picks, and beta * C is its bias. With a
//   batch of 1 this is a matrix-vector product bound by reading B, and the picked layout reads B faster than
//   B as stored (a classifier's 1280x1000 Gemm: 0.28 -> 0.15 ms in efficientnet_b0). Where oneDNN's choice
//   is its GEMM (x64:gemm:jit, as on AVX2 machines), which packs B itself on every call whatever its order and
//   picks an order per batch size, and B as stored runs that same GEMM, B is read as stored: no copy, and the
//   plans of other batch sizes share it. (A brgemm kernel given B as stored would copy it on every run: those
//   keep their own layout.) alpha is not folded into B: alpha * B may overflow where alpha * (A B) does not.
// - Anything else: the matmul primitive on A' [M, K] x B' [K, N]. Transposes are strides of the memory
//   descriptors (a transposed operand is read in place), alpha is the output scale, and beta * C is the sum
//   post-op over dst pre-filled with C broadcast to [M, N]: dst = alpha * A'B' + beta * dst.
#include "ops/common/broadcast.h"
#include "dnnl/primitive_kernel.h"
#include "ops/common/special_values.h"
#include "ops/gemm/gemm.h"

namespace cnnx {

namespace {

using namespace dnnl;

struct GemmDesc {
  memory::desc a_md, b_md, dst_md;
  matmul::primitive_desc pd;
};

GemmDesc describe(const GemmParams& p, const GemmGeometry& g) {
  const memory::dim M = g.M, N = g.N, K = g.K;
  GemmDesc d;
  // A' (m, k) is A[m][k], or A[k][m] when transA: stored [K, M], so m steps by 1 and k by M.
  d.a_md = memory::desc({M, K}, dt::f32, p.trans_a ? memory::dims{1, M} : memory::dims{K, 1});
  // B' (k, n) is B[k][n], or B[n][k] when transB: stored [N, K], so k steps by 1 and n by K.
  d.b_md = memory::desc({K, N}, dt::f32, p.trans_b ? memory::dims{1, K} : memory::dims{N, 1});
  d.dst_md = plain_f32_desc({M, N});
  primitive_attr attr = dnnl_attr();
  if (p.alpha != 1.f) attr.set_output_scales(0, {p.alpha});  // mask 0: one scale for the whole output
  if (g.has_c) {
    post_ops ops;
    ops.append_sum(p.beta);  // dst = scaled product + beta * (dst as it was: C)
    attr.set_post_ops(ops);
  }
  d.pd = matmul::primitive_desc(matmul::desc(d.a_md, d.b_md, d.dst_md), attr, dnnl_engine());
  return d;
}

// C broadcasts along rows: one value per output column (or a single value).
bool c_is_row(const GemmGeometry& g) {
  const Shape& c = g.c_shape;
  return c.empty() || (c.size() == 1 && (c[0] == 1 || c[0] == g.N)) || (c.size() == 2 && c[0] == 1);
}

bool is_layer(const GemmParams& p, const GemmGeometry& g, const std::vector<ValueInfo>& in) {
  return in[1].constant && !p.trans_a && p.alpha == 1.f && (!g.has_c || (in[2].constant && c_is_row(g)));
}

class GemmLayer : public CompiledKernel {
 public:
  GemmLayer(const GemmParams& p, const GemmGeometry& g, const std::vector<ValueInfo>& in,
            const CompileContext& context) {
    const memory::dim M = g.M, N = g.N, K = g.K;
    src_md_ = plain_f32_desc({M, K});
    dst_md_ = plain_f32_desc({M, N});
    const memory::desc bias_md = plain_f32_desc({N});
    // B' as [N, K]: B itself when transB, else B read transposed (strides).
    const memory::desc user_weights_md({N, K}, dt::f32, p.trans_b ? memory::dims{K, 1} : memory::dims{1, N});
    // A native bfloat16 plan's bf16 node (CompileContext::precision): bf16 src and weights (A reordered per run,
    // exactly: its values are bfloat16's), float32 bias and dst.
    const dt compute = context.precision == Precision::bf16 ? dt::bf16 : dt::f32;
    auto describe = [&](const memory::desc& weights_md) {
      return inner_product_forward::primitive_desc(
          inner_product_forward::desc(prop_kind::forward_inference, with_data_type(src_md_, compute), weights_md,
                                      bias_md, dst_md_),
          dnnl_attr(), dnnl_engine());
    };
    pd_ = describe(memory::desc({N, K}, compute, memory::format_tag::any));
    const std::string own = pd_.impl_info_str();
    if (compute == dt::f32 && pd_.weights_desc() != user_weights_md && own.find("gemm:jit") != std::string::npos) try {
        inner_product_forward::primitive_desc as_stored = describe(user_weights_md);
        if (as_stored.impl_info_str() == own) pd_ = as_stored;
      } catch (const dnnl::error&) {
      }
    ip_ = DnnlPrimitive(pd_);
    weights_ = prepare_constant(context, user_weights_md, *in[1].constant, pd_.weights_desc());
    src_read_ = DnnlBfloat16Operand(src_md_, pd_.src_desc());

    bias_ = OwnedMemory(bias_md, context);
    float* bias = static_cast<float*>(bias_.buffer.get());
    const float* c = g.has_c ? in[2].constant->data<float>() : nullptr;
    const bool one_c = g.has_c && in[2].constant->numel() == 1;
    for (int64_t n = 0; n < N; ++n) bias[n] = c ? p.beta * c[one_c ? 0 : n] : 0.f;
  }

  bool reads_input_at_run(size_t input) const override { return input == 0; }  // B and C copied in

  void run(const KernelIO& io) const override {
    std::optional<DnnlWorkspace> bf16_src;
    const DnnlMemoryArg src = src_read_.convert(io.context, dnnl_wrap(src_md_, *io.in[0]), bf16_src);
    ip_.execute(io.context, {{DNNL_ARG_SRC, src},
                  {DNNL_ARG_WEIGHTS, weights_.memory},
                  {DNNL_ARG_BIAS, bias_.memory},
                  {DNNL_ARG_DST, dnnl_wrap(dst_md_, *io.out[0])}});
  }

 private:
  memory::desc src_md_, dst_md_;
  inner_product_forward::primitive_desc pd_;
  DnnlPrimitive ip_;
  OwnedMemory weights_, bias_;  // prepared at compile time
  DnnlBfloat16Operand src_read_;  // A as the primitive reads it (bf16 runs: in bfloat16)
};

// The matmul Y = A * B, after C (broadcast to [M, N]) is copied into Y for its sum post-op.
class GemmDnnl : public DnnlPrimitiveKernel {
 public:
  GemmDnnl(GemmGeometry g, const GemmDesc& d)
      : DnnlPrimitiveKernel(
            d.pd, {{DNNL_ARG_SRC, in(0), d.a_md}, {DNNL_ARG_WEIGHTS, in(1), d.b_md}, {DNNL_ARG_DST, out(0), d.dst_md}}),
        g_(std::move(g)) {
    if (g_.has_c) c_strides_ = broadcast_strides(g_.c_shape, {g_.M, g_.N});
  }

  void run(const KernelIO& io) const override {
    const Tensor* C = io.optional_in(2);
    if (C) {
      const float* c = C->data<float>();
      float* y = io.out[0]->data<float>();
      for (int64_t i = 0; i < g_.M; ++i)
        for (int64_t j = 0; j < g_.N; ++j) y[i * g_.N + j] = c[i * c_strides_[0] + j * c_strides_[1]];
    }
    execute(io);
  }

 private:
  GemmGeometry g_;
  std::vector<int64_t> c_strides_;  // element (i, j) of C broadcast to [M, N]
};

}  // namespace

// The kernel's compile step once dnnl_f32_kernel has checked the inputs.
static Compiled compile_f32(const GemmParams& p, const KernelArgs& a) {
  GemmGeometry g = resolve_gemm_geometry(p, a.in);
  // ONNX computes alpha * A'B' + beta * C whatever alpha and beta are: a NaN or inf in a term scaled by
  // 0 makes NaN. oneDNN drops a product scaled by 0 and a sum post-op of scale 0.
  if (p.alpha == 0) return Compiled::decline("alpha is 0 (oneDNN drops the product, and its NaN or inf)");
  if (g.has_c && p.beta == 0 && !(a.in[2].constant && all_finite(*a.in[2].constant)))
    return Compiled::decline("beta is 0 and C may hold NaN or inf (oneDNN drops the scaled C)");
  // The matmul, which takes every case, is what must exist; the inner product is tried first.
  GemmDesc d;
  const std::string why = dnnl_refuses([&] { d = describe(p, g); });
  if (!why.empty()) return Compiled::decline(why);
  if (is_layer(p, g, a.in)) {
    try {
      return std::make_unique<GemmLayer>(p, g, a.in, a.context);
    } catch (const dnnl::error&) {
      // No inner product for this case: the matmul below runs it.
    }
  }
  return std::make_unique<GemmDnnl>(std::move(g), std::move(d));
}

Kernel<GemmParams> gemm_dnnl_kernel() { return dnnl_f32_kernel<GemmParams, compile_f32>(); }

}  // namespace cnnx
