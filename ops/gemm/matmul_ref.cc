#include <vector>

#include "ops/common/broadcast.h"
#include "ops/gemm/matmul.h"
#include "ops/gemm/matrix_product.h"

namespace cnnx {

namespace {

class MatMulRef : public CompiledKernel {
 public:
  MatMulRef(MatMulGeometry g, std::shared_ptr<const MatMulParams> p) : g_(std::move(g)), p_(std::move(p)) {
    // Strides in whole matrices: batch element o reads matrix off[0] of A and off[1] of B.
    strides_ = {broadcast_strides(g_.a_batch, g_.batch), broadcast_strides(g_.b_batch, g_.batch)};
  }

  void run(const KernelIO& io) const override {
    const Tensor& A = *io.in[0];
    const Tensor& B = *io.in[1];
    const int64_t M = g_.M, N = g_.N, K = g_.K;
    const float* a = A.data<float>();
    const float* b = B.data<float>();
    const float* bias = p_->bias ? io.in[2]->data<float>() : nullptr;
    const float* residual = p_->fusion.residual ? io.in[3]->data<float>() : nullptr;
    const ActivationDef* act = p_->fusion.activation;
    float* y = io.out[0]->data<float>();
    std::vector<double> sum(static_cast<size_t>(M * N));
    for_each_broadcast<2>(g_.batch, strides_, [&](int64_t o, const int64_t* off) {
      // A [K] is the row [1, K]; B [K] is the column [K, 1]: both are row-major views as they are.
      matrix_product(M, N, K, MatrixView{a + off[0] * M * K, K, 1}, MatrixView{b + off[1] * K * N, N, 1}, sum.data());
      float* yo = y + o * M * N;
      const float* ro = residual ? residual + o * M * N : nullptr;
      for (int64_t i = 0; i < M * N; ++i) {
        double v = sum[size_t(i)];
        if (bias) v += double(bias[i % N]);
        if (ro) v += double(ro[i]);
        yo[i] = float(act ? act->reference(v, p_->fusion.args) : v);
      }
    });
  }

 private:
  MatMulGeometry g_;
  std::shared_ptr<const MatMulParams> p_;
  std::vector<std::vector<int64_t>> strides_;
};

}  // namespace

Kernel<MatMulParams> matmul_ref_kernel() {
  return {"ref", [](const std::shared_ptr<const MatMulParams>& p, const KernelArgs& a) -> Compiled {
            MatMulGeometry g = resolve_matmul_geometry(a.in);
            require(is_concrete(g.output_shape()) && g.K >= 0, "MatMul needs concrete shapes to run");
            return std::make_unique<MatMulRef>(std::move(g), p);
          }};
}

}  // namespace cnnx
