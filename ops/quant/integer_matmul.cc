// The exact integer matrix product (plain loops over broadcast batches).
#include "ops/quant/integer_matmul.h"

namespace cnnx {

namespace {

// The element offset of batch `b` (row-major over `batch`) in an operand with batch dims `own` (broadcast
// against `batch`, aligned at the end) and matrices of `matrix` elements.
int64_t batch_offset(int64_t b, const Shape& batch, const Shape& own, int64_t matrix) {
  int64_t offset = 0, own_stride = matrix;
  for (size_t i = 0; i < batch.size(); ++i) {
    const size_t axis = batch.size() - 1 - i;
    const int64_t index = b % batch[axis];
    b /= batch[axis];
    if (i < own.size()) {
      const int64_t dim = own[own.size() - 1 - i];
      if (dim != 1) offset += index * own_stride;
      own_stride *= dim;
    }
  }
  return offset;
}

std::vector<int64_t> values_of(const Tensor& t) {
  std::vector<int64_t> v(size_t(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) v[size_t(i)] = t.int_at(i);
  return v;
}

}  // namespace

MatMulGeometry matmul_geometry_of(const Tensor& A, const Tensor& B) {
  return resolve_matmul_geometry({ValueInfo::of(A.dtype(), A.shape()), ValueInfo::of(B.dtype(), B.shape())});
}

std::vector<int64_t> integer_matmul(const Tensor& A, const Tensor& B, const MatMulGeometry& g,
                                    const std::vector<int64_t>& a_zp, const std::vector<int64_t>& b_zp) {
  const int64_t M = g.M, N = g.N, K = g.K;
  const std::vector<int64_t> a = values_of(A), b = values_of(B);
  const int64_t batches = numel_range(g.batch, 0, g.batch.size());
  std::vector<int64_t> acc(size_t(batches * M * N), 0);
  for (int64_t t = 0; t < batches; ++t) {
    const int64_t a0 = batch_offset(t, g.batch, g.a_batch, M * K);
    const int64_t b0 = batch_offset(t, g.batch, g.b_batch, K * N);
    for (int64_t m = 0; m < M; ++m) {
      const int64_t za = a_zp[a_zp.size() > 1 ? size_t(m) : 0];
      for (int64_t n = 0; n < N; ++n) {
        const int64_t zb = b_zp[b_zp.size() > 1 ? size_t(n) : 0];
        int64_t sum = 0;
        for (int64_t k = 0; k < K; ++k)
          sum += (a[size_t(a0 + m * K + k)] - za) * (b[size_t(b0 + k * N + n)] - zb);
        acc[size_t((t * M + m) * N + n)] = sum;
      }
    }
  }
  return acc;
}

}  // namespace cnnx
