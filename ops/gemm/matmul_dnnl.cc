// oneDNN MatMul: the matmul primitive with batch broadcasting. A 1-D A [K] is the row [1, K] and a 1-D B [K]
// the column [K, 1] (the bytes as they are); oneDNN wants src, weights and dst of one rank, so the batch dims
// of each operand are left-padded with 1s (numpy aligns them on the right), and a batch dim of 1 in either
// operand broadcasts.
#include "dnnl/dnnl_runtime.h"
#include "ops/gemm/matmul.h"

namespace cnnx {

namespace {

using namespace dnnl;

struct MatMulDesc {
  memory::desc src_md, weights_md, bias_md, dst_md;  // bias_md zero: none
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

MatMulDesc describe(const MatMulGeometry& g, bool bias) {
  const bool fold_batch = g.b_batch.empty();
  const memory::dim M = fold_batch ? checked_numel(g.batch) * g.M : g.M, N = g.N, K = g.K;
  const size_t batch_rank = fold_batch ? 0 : g.batch.size();
  MatMulDesc d;
  d.src_md = plain_f32_desc(operand(fold_batch ? Shape{} : g.a_batch, batch_rank, M, K));
  d.weights_md = plain_f32_desc(operand(g.b_batch, batch_rank, K, N));
  d.dst_md = plain_f32_desc(operand(fold_batch ? Shape{} : g.batch, batch_rank, M, N));
  if (bias) {
    d.bias_md = plain_f32_desc(operand({}, batch_rank, 1, N));
    d.pd = matmul::primitive_desc(matmul::desc(d.src_md, d.weights_md, d.bias_md, d.dst_md), dnnl_attr(), dnnl_engine());
  } else {
    d.pd = matmul::primitive_desc(matmul::desc(d.src_md, d.weights_md, d.dst_md), dnnl_attr(), dnnl_engine());
  }
  return d;
}

class MatMulDnnl : public CompiledKernel {
 public:
  explicit MatMulDnnl(MatMulDesc d) : d_(std::move(d)) {
    matmul_ = matmul(d_.pd);
    scratchpad_md_ = d_.pd.scratchpad_desc();
  }

  void run(const KernelIO& io) const override {
    DnnlArgs args = {{DNNL_ARG_SRC, dnnl_wrap(d_.src_md, *io.in[0])},
                     {DNNL_ARG_WEIGHTS, dnnl_wrap(d_.weights_md, *io.in[1])},
                     {DNNL_ARG_DST, dnnl_wrap(d_.dst_md, *io.out[0])}};
    if (!d_.bias_md.is_zero()) args[DNNL_ARG_BIAS] = dnnl_wrap(d_.bias_md, *io.in[2]);
    dnnl_execute(matmul_, scratchpad_md_, std::move(args));
  }

 private:
  MatMulDesc d_;
  matmul matmul_;
  memory::desc scratchpad_md_;
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
            MatMulDesc d;
            why = dnnl_refuses([&] { d = describe(g, p->bias); });
            if (!why.empty()) return Compiled::decline(why);
            return std::make_unique<MatMulDnnl>(std::move(d));
          }};
}

}  // namespace cnnx
