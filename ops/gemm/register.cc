#include "ops/families.h"
#include "ops/gemm/gemm.h"
#include "ops/gemm/matmul.h"
#include "ops/gemm/matrix_product.h"

namespace cnnx {

void register_gemm_ops(OpRegistry& r) {
  OpDef gemm;
  gemm.type = "Gemm";
  gemm.since = 1;
  gemm.parse = parser<GemmParams>(parse_gemm);
  gemm.infer = inferer<GemmParams>(infer_gemm);
  gemm.tolerance = kMatrixProductTolerance;
  gemm.kernels = {gemm_dnnl_kernel(), gemm_ref_kernel()};
  r.add(std::move(gemm));

  OpDef matmul;
  matmul.type = "MatMul";
  matmul.since = 1;
  matmul.parse = parser<NoParams>(parse_matmul);
  matmul.infer = inferer<NoParams>(infer_matmul);
  matmul.tolerance = kMatrixProductTolerance;
  matmul.kernels = {matmul_dnnl_kernel(), matmul_ref_kernel()};
  r.add(std::move(matmul));
}

}  // namespace cnnx
