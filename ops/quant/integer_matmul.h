// The exact integer matrix product behind MatMulInteger and QLinearMatMul: numpy matmul (ops/gemm/matmul.h's
// MatMulGeometry: 1-D operands, broadcast batch dims) of A and B (int8/uint8) after subtracting zero points,
//
//   acc[.., m, n] = sum_k (A[.., m, k] - a_zp[m]) * (B[.., k, n] - b_zp[n])
//
// summed in int64 (exact: |terms| < 2^16, K < 2^47). a_zp holds one value or one per row m; b_zp one value or
// one per column n.
#pragma once

#include <vector>

#include "engine/tensor.h"
#include "ops/gemm/matmul.h"

namespace cnnx {

// The sums in the output's row-major order (the output shape is g.output_shape()).
std::vector<int64_t> integer_matmul(const Tensor& A, const Tensor& B, const MatMulGeometry& g,
                                    const std::vector<int64_t>& a_zp, const std::vector<int64_t>& b_zp);

// resolve_matmul_geometry for concrete A and B.
MatMulGeometry matmul_geometry_of(const Tensor& A, const Tensor& B);

}  // namespace cnnx
