// The one inner loop of Gemm and MatMul: a float32 matrix product summed in double.
#pragma once

#include <cstdint>

#include "engine/op.h"
#include "ops/common/sum_of_products.h"

namespace cnnx {

// A read-only float32 matrix: element (i, j) is data[i * row_stride + j * col_stride]. Transposes are views.
struct MatrixView {
  const float* data = nullptr;
  int64_t row_stride = 0, col_stride = 0;
  float at(int64_t i, int64_t j) const { return data[i * row_stride + j * col_stride]; }
};

// out[i * N + j] = sum_k a(i, k) * b(k, j) for a [M, K] and b [K, N], each product and sum in double.
// Loops are ordered so the innermost one walks contiguous memory of b when it can.
void matrix_product(int64_t M, int64_t N, int64_t K, MatrixView a, MatrixView b, double* out);

// Gemm and MatMul outputs are dot products of K float32 terms. The reference sums in double and rounds once
// (<= 0.5 ulp). An engine summing in float32 is off by an amount that scales with the terms' magnitude
// sqrt(K) and sum |a b| (+ |bias|, |beta C|): terms_rel (ops/common/sum_of_products.h has the derivation, with
// each node's own K). abs and rel cover the final rounding, alpha, beta and the C term's roundings,
// results near 0 and FusedMatMul's activation.
constexpr Tolerance kMatrixProductTolerance{1e-5, 4e-5, kSumOfProductsTermsRel};

}  // namespace cnnx
