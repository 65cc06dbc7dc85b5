#include "ops/gemm/matrix_product.h"

#include <algorithm>

namespace cnnx {

void matrix_product(int64_t M, int64_t N, int64_t K, MatrixView a, MatrixView b, double* out) {
  std::fill(out, out + M * N, 0.0);
  if (b.col_stride == 1) {
    // Rows of b are contiguous: accumulate a(i, k) * row k of b into row i of out.
    for (int64_t i = 0; i < M; ++i) {
      double* o = out + i * N;
      for (int64_t k = 0; k < K; ++k) {
        const double av = a.at(i, k);
        const float* br = b.data + k * b.row_stride;
        for (int64_t j = 0; j < N; ++j) o[j] += av * br[j];
      }
    }
    return;
  }
  // Otherwise (b transposed) each output is a dot product along k.
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double sum = 0;
      for (int64_t k = 0; k < K; ++k) sum += double(a.at(i, k)) * b.at(k, j);
      out[i * N + j] = sum;
    }
}

}  // namespace cnnx
