#include <cmath>

#include "ops/families.h"
#include "ops/gemm/einsum.h"
#include "ops/gemm/gemm.h"
#include "ops/gemm/matmul.h"
#include "ops/gemm/matrix_product.h"

namespace cnnx {

void register_gemm_ops(OpRegistry& r) {
  // Magnitudes: |alpha| sum |a b| + |beta C|, the reference on |inputs| with |alpha| and |beta|.
  OpSpec<GemmParams> gemm{"Gemm", 1, parse_gemm, infer_gemm, kMatrixProductTolerance,
                          {gemm_dnnl_kernel(), gemm_ref_kernel()}};
  gemm.hints.terms = [](const GemmParams& p) {
    TermsRun<GemmParams> run{p, 1};
    run.params.alpha = std::fabs(p.alpha);
    run.params.beta = std::fabs(p.beta);
    return run;
  };
  gemm.hints.flops = gemm_flops;
  r.add(std::move(gemm));
  OpSpec<MatMulParams> matmul{"MatMul", 1, parse_matmul, infer_matmul, kMatrixProductTolerance,
                              {matmul_dnnl_kernel(), matmul_ref_kernel()}};
  matmul.hints.flops = matmul_flops;
  r.add(std::move(matmul));
  // The bias is one more rounding (oneDNN adds it in float32 to the accumulator; the reference in double),
  // and so are the residual add and the activation. The product's accumulation error (and the residual's
  // rounding) reaches the output through the activation, scaled by at most its slope: the magnitudes are
  // those of MatMul + bias + residual, times that slope (as FusedConv's).
  OpSpec<MatMulParams> fused{"FusedMatMul", 1, parse_fused_matmul, infer_matmul, kMatrixProductTolerance,
                             {matmul_dnnl_kernel(), matmul_ref_kernel()}};
  fused.domain = kInternalDomain;
  fused.hints.flops = matmul_flops;
  fused.hints.terms = terms_before_activation<MatMulParams>;
  r.add(std::move(fused));
  OpSpec<EinsumParams> einsum{"Einsum", 12, parse_einsum, infer_einsum, kEinsumTolerance,
                              {einsum_dnnl_kernel(), ref_kernel(einsum_ref)}};
  einsum.hints.flops = einsum_flops;
  r.add(std::move(einsum));
}

}  // namespace cnnx
