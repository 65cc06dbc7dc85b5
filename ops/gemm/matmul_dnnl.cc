// oneDNN MatMul: the matmul primitive with batch broadcasting. A 1-D A [K] is the row [1, K] and a 1-D B [K]
// the column [K, 1] (the bytes as they are); oneDNN wants src, weights and dst of one rank, so the batch dims
// of each operand are left-padded with 1s (numpy aligns them on the right), and a batch dim of 1 in either
// operand broadcasts. Batched operands arriving in a dense permuted layout (a Transpose's view) are read in
// it, strides and all, and a batched dst is written in the dense layout its reader wishes (the one that makes
// a Transpose after it a view). FusedMatMul's residual is a sum post-op (dst holds the residual: its own
// buffer when the plan grants it, else copied in first) and its activation eltwise post-ops.
//
// A constant 2-D B (a Linear layer's weights) is reordered once into the layout the primitive picks
// (format_tag::any): as stored, brgemm copies it into that layout on every run (~8% of ViT's matmul time).
// The model then releases its own copy (dnnl/prepared_weights.h), so peak RSS holds the weights once.
// In a native bfloat16 plan (CompileContext::precision bf16), such a product runs oneDNN's bf16 matmul: B
// prepared in bf16, A read stored in bfloat16 (dnnl/layouts.h: plain, the plan converts it so), float32 bias,
// and dst stored in bfloat16 where only its rounding reads it (CompileContext::store_bfloat16; not with a
// residual arriving float32, which would be rounded twice), else float32. Other products read float32 layouts.
#include <cstring>

#include "dnnl/primitive_kernel.h"
#include "ops/common/activation_dnnl.h"
#include "ops/gemm/matmul.h"

namespace cnnx {

namespace {

using namespace dnnl;

struct MatMulDesc {
  memory::desc src_md, weights_md, bias_md, dst_md;  // bias_md zero: none
  memory::desc user_weights_md;                      // B as stored, when weights_md is the primitive's choice
  matmul::primitive_desc pd;
};

// batch (left-padded with 1s to `rank` dims) followed by rows, cols.
Shape operand(const Shape& batch, size_t rank, int64_t rows, int64_t cols) {
  Shape s(rank - batch.size(), 1);
  s.insert(s.end(), batch.begin(), batch.end());
  s.push_back(rows);
  s.push_back(cols);
  return s;
}

// The fusion as post-ops: sum first (dst holds the residual), then the activation's eltwise steps.
primitive_attr fusion_attr(const MatMulFusion& f) {
  primitive_attr attr = dnnl_attr();
  post_ops ops;
  if (f.residual) ops.append_sum(1.f);
  std::vector<EltwiseStep> steps;
  if (f.activation) require(f.activation->dnnl(f.args, steps).empty(), "the fuse-matmul-bias pass took an activation oneDNN refuses");
  for (const EltwiseStep& s : steps) ops.append_eltwise(1.f, dnnl_algorithm(s.algorithm), s.alpha, s.beta);
  attr.set_post_ops(ops);
  return attr;
}

// A batched A or B arriving in a dense layout other than plain (a Transpose's view: K transposed for Q K^T,
// heads split from tokens) is read in it when it has the operand's dims as oneDNN sees them; `a_layout` and
// `b_layout` are those layouts, or plain; `dst_layout` likewise the dense layout dst is written in.
// `prepared_b`: B is a constant the kernel reorders once into the layout the primitive picks, in `b_type`
// (bf16: A is read in bfloat16 too, and dst in `dst_type`).
MatMulDesc describe(const MatMulGeometry& g, const MatMulParams& p, const Layout& a_layout = {},
                    const Layout& b_layout = {}, const Layout& dst_layout = {}, bool prepared_b = false,
                    memory::data_type b_type = memory::data_type::f32,
                    memory::data_type dst_type = memory::data_type::f32) {
  const bool fold_batch = g.b_batch.empty();
  const memory::dim M = fold_batch ? checked_numel(g.batch) * g.M : g.M, N = g.N, K = g.K;
  const size_t batch_rank = fold_batch ? 0 : g.batch.size();
  MatMulDesc d;
  d.src_md = plain_f32_desc(operand(fold_batch ? Shape{} : g.a_batch, batch_rank, M, K));
  d.weights_md = plain_f32_desc(operand(g.b_batch, batch_rank, K, N));
  if (!is_plain(a_layout)) d.src_md = md_of(a_layout);
  if (!is_plain(b_layout)) d.weights_md = md_of(b_layout);
  if (prepared_b) {
    d.user_weights_md = d.weights_md;
    d.weights_md = memory::desc(d.weights_md.dims(), b_type, memory::format_tag::any);
  }
  if (prepared_b) d.src_md = with_data_type(d.src_md, b_type);
  d.dst_md = plain_f32_desc(operand(fold_batch ? Shape{} : g.batch, batch_rank, M, N));
  if (!is_plain(dst_layout)) d.dst_md = md_of(dst_layout);
  d.dst_md = with_data_type(d.dst_md, dst_type);
  const primitive_attr attr = fusion_attr(p.fusion);
  if (p.bias) {
    d.bias_md = plain_f32_desc(operand({}, batch_rank, 1, N));
    d.pd = matmul::primitive_desc(matmul::desc(d.src_md, d.weights_md, d.bias_md, d.dst_md), attr, dnnl_engine());
  } else {
    d.pd = matmul::primitive_desc(matmul::desc(d.src_md, d.weights_md, d.dst_md), attr, dnnl_engine());
  }
  if (prepared_b) d.weights_md = d.pd.weights_desc();
  return d;
}

class MatMulDnnl : public CompiledKernel {
 public:
  // `layouts`: the layouts A, B and dst are read and written in (the others plain). `b`: B's data when
  // `d` prepares it (user_weights_md set).
  MatMulDnnl(MatMulDesc d, bool residual, KernelLayouts layouts, const Tensor* b, const CompileContext& context)
      : d_(std::move(d)), residual_(residual), layouts_(std::move(layouts)) {
    matmul_ = DnnlPrimitive(d_.pd);
    if (b) weights_ = prepare_constant(context, d_.user_weights_md, *b, d_.weights_md);
  }

  const KernelLayouts* layouts() const override { return &layouts_; }
  // The sum post-op adds what dst holds: dst may be the residual's own buffer.
  int in_place_input() const override { return residual_ ? 3 : -1; }
  bool reads_input_at_run(size_t input) const override { return input != 1 || !weights_.memory; }

  void run(const KernelIO& io) const override {
    if (residual_ && io.out[0]->raw() != io.in[3]->raw()) std::memcpy(io.out[0]->raw(), io.in[3]->raw(), d_.dst_md.get_size());
    DnnlArgs args = {{DNNL_ARG_SRC, dnnl_wrap(d_.src_md, *io.in[0])},
                     {DNNL_ARG_WEIGHTS, weights_.memory ? DnnlMemoryArg(weights_.memory) : dnnl_wrap(d_.weights_md, *io.in[1])},
                     {DNNL_ARG_DST, dnnl_wrap(d_.dst_md, *io.out[0])}};
    if (!d_.bias_md.is_zero()) args.insert({DNNL_ARG_BIAS, dnnl_wrap(d_.bias_md, *io.in[2])});
    matmul_.execute(io.context, std::move(args));
  }

 private:
  MatMulDesc d_;
  bool residual_;
  KernelLayouts layouts_;
  DnnlPrimitive matmul_;
  OwnedMemory weights_;  // B prepared at compile time, or empty
};

}  // namespace

Kernel<MatMulParams> matmul_dnnl_kernel() {
  return {"dnnl", [](const std::shared_ptr<const MatMulParams>& p, const KernelArgs& a) -> Compiled {
            std::string why = dnnl_declines_inputs(a.in);
            if (!why.empty()) return Compiled::decline(why);
            const MatMulGeometry g = resolve_matmul_geometry(a.in);
            if (g.batch.size() + 2 > DNNL_MAX_NDIMS)
              return Compiled::decline("batch rank " + std::to_string(g.batch.size()) + " + 2 is beyond oneDNN's " +
                                       std::to_string(DNNL_MAX_NDIMS) + " dims");
            // A and B in the dense layouts they arrive in, when batched with their full rank (no 1s to pad)
            // and oneDNN has a JIT kernel for them; plain otherwise (the plan reorders).
            KernelLayouts layouts{std::vector<Layout>(a.in.size()), {Layout()}};
            if (!g.b_batch.empty())
              for (size_t i = 0; i < 2; ++i) {
                const Layout arriving = float32_layout(a.offered.in[i]);
                if (!is_plain(arriving) && !has_inner_blocks(arriving) && size_t(a.in[i].rank()) == g.batch.size() + 2)
                  layouts.in[i] = arriving;
              }
            if (!is_plain(layouts.in[0]) || !is_plain(layouts.in[1])) {
              if (!runs_without_reference([&] { return describe(g, *p, layouts.in[0], layouts.in[1]).pd; }))
                layouts.in[0] = layouts.in[1] = Layout();
            }
            // dst in the dense layout its reader wishes (a Transpose then is a view), likewise; the residual
            // the sum post-op adds is read in it too.
            const Layout wish = a.offered.out.empty() ? Layout() : a.offered.out[0];  // float32's
            if (!g.b_batch.empty() && !is_plain(wish) && !has_inner_blocks(wish) &&
                md_of(wish).dims() == memory::dims(a.out[0].shape.begin(), a.out[0].shape.end()) &&
                size_t(a.out[0].rank()) == g.batch.size() + 2 &&
                runs_without_reference([&] { return describe(g, *p, layouts.in[0], layouts.in[1], wish).pd; })) {
              layouts.out[0] = wish;
              if (p->fusion.residual) layouts.in[3] = wish;
            }
            MatMulDesc d;
            why = dnnl_refuses([&] { d = describe(g, *p, layouts.in[0], layouts.in[1], layouts.out[0]); });
            if (!why.empty()) return Compiled::decline(why);
            // A constant 2-D B into the primitive's own layout, where oneDNN runs that without its reference.
            // In bfloat16 (the file comment): A read stored in bfloat16, dst stored so where it may be.
            const bool prepare_b = a.in[1].constant && a.in[1].rank() == 2 && g.b_batch.empty();
            const bool bf16 = a.context.precision == Precision::bf16;
            const bool residual_stored = !p->fusion.residual || stores_bfloat16(a.offered.in.at(3));
            const memory::data_type b_type = bf16 ? memory::data_type::bf16 : memory::data_type::f32;
            const memory::data_type dst_type =
                bf16 && a.context.store_bfloat16 && residual_stored ? memory::data_type::bf16 : memory::data_type::f32;
            // bf16 dst where oneDNN runs it without its reference, else float32 (B stays prepared in bf16:
            // the plan left its rounding to this kernel, bfloat16_kernel_converts).
            MatMulDesc prepared;
            auto prepares = [&](memory::data_type dst) {
              return runs_without_reference([&] {
                return (prepared = describe(g, *p, layouts.in[0], layouts.in[1], layouts.out[0], true, b_type, dst)).pd;
              });
            };
            if (prepare_b && (prepares(dst_type) || (dst_type != memory::data_type::f32 && prepares(memory::data_type::f32)))) {
              if (bf16) {  // plain in bfloat16, with the values' own dims (the primitive folds A's batch)
                layouts.in[0] = bfloat16_layout(Layout(), a.in[0].shape);
                if (prepared.dst_md.data_type() == memory::data_type::bf16)
                  layouts.out[0] = bfloat16_layout(Layout(), a.out[0].shape);
                if (p->fusion.residual) layouts.in[3] = layouts.out[0];
              }
              return std::make_unique<MatMulDnnl>(std::move(prepared), p->fusion.residual, std::move(layouts),
                                                  a.in[1].constant.get(), a.context);
            }
            return std::make_unique<MatMulDnnl>(std::move(d), p->fusion.residual, std::move(layouts), nullptr,
                                                a.context);
          }};
}

}  // namespace cnnx
