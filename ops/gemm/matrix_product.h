// The one inner loop of Gemm and MatMul: a float32 matrix product summed in double.
#pragma once

#include <cstdint>

#include "engine/op.h"

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
// (<= 0.5 ulp). An engine summing in float32 in any order is off by at most ~K * eps * sum|terms| and
// typically ~sqrt(K) * eps * |result| for sign-mixed data (rounding errors random-walk). Classifier heads
// reach K ~ 25k (VGG's 512*7*7): sqrt(K) * 2^-24 ~ 1e-5, so rel 4e-5 leaves a ~4x margin; alpha, beta and the
// C term add a few roundings. The absolute term covers results that cancel to ~0 for terms of O(1).
constexpr Tolerance kMatrixProductTolerance{1e-5, 4e-5};

}  // namespace cnnx
