#include <vector>

#include "ops/common/broadcast.h"
#include "ops/gemm/matmul.h"
#include "ops/gemm/matrix_product.h"

namespace cnnx {

namespace {

class MatMulRef : public CompiledKernel {
 public:
  MatMulRef(MatMulGeometry g, bool bias) : g_(std::move(g)), bias_(bias) {
    // Strides in whole matrices: batch element o reads matrix off[0] of A and off[1] of B.
    strides_ = {broadcast_strides(g_.a_batch, g_.batch), broadcast_strides(g_.b_batch, g_.batch)};
  }

  void run(const KernelIO& io) const override {
    const Tensor& A = *io.in[0];
    const Tensor& B = *io.in[1];
    const int64_t M = g_.M, N = g_.N, K = g_.K;
    const float* a = A.data<float>();
    const float* b = B.data<float>();
    const float* bias = bias_ ? io.in[2]->data<float>() : nullptr;
    float* y = io.out[0]->data<float>();
    std::vector<double> sum(static_cast<size_t>(M * N));
    for_each_broadcast<2>(g_.batch, strides_, [&](int64_t o, const int64_t* off) {
      // A [K] is the row [1, K]; B [K] is the column [K, 1]: both are row-major views as they are.
      matrix_product(M, N, K, MatrixView{a + off[0] * M * K, K, 1}, MatrixView{b + off[1] * K * N, N, 1}, sum.data());
      float* yo = y + o * M * N;
      for (int64_t i = 0; i < M * N; ++i) yo[i] = float(bias ? sum[size_t(i)] + double(bias[i % N]) : sum[size_t(i)]);
    });
  }

 private:
  MatMulGeometry g_;
  bool bias_;
  std::vector<std::vector<int64_t>> strides_;
};

}  // namespace

Kernel<MatMulParams> matmul_ref_kernel() {
  return {"ref", [](const std::shared_ptr<const MatMulParams>& p, const KernelArgs& a) -> Compiled {
            MatMulGeometry g = resolve_matmul_geometry(a.in);
            require(is_concrete(g.output_shape()) && g.K >= 0, "MatMul needs concrete shapes to run");
            return std::make_unique<MatMulRef>(std::move(g), p->bias);
          }};
}

}  // namespace cnnx
