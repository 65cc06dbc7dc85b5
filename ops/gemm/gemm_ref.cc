#include <vector>

#include "ops/common/broadcast.h"
#include "ops/gemm/gemm.h"
#include "ops/gemm/matrix_product.h"

namespace cnnx {

namespace {

class GemmRef : public CompiledKernel {
 public:
  GemmRef(std::shared_ptr<const GemmParams> p, GemmGeometry g) : p_(std::move(p)), g_(std::move(g)) {
    if (g_.has_c) c_strides_ = broadcast_strides(g_.c_shape, {g_.M, g_.N});
  }

  void run(const KernelIO& io) const override {
    const Tensor& A = *io.in[0];
    const Tensor& B = *io.in[1];
    const Tensor* C = io.optional_in(2);
    const int64_t M = g_.M, N = g_.N, K = g_.K;
    // Transposes are views: A' (i, k) and B' (k, j) over the row-major stored matrices.
    const MatrixView a = p_->trans_a ? MatrixView{A.data<float>(), 1, M} : MatrixView{A.data<float>(), K, 1};
    const MatrixView b = p_->trans_b ? MatrixView{B.data<float>(), 1, K} : MatrixView{B.data<float>(), N, 1};
    std::vector<double> sum(static_cast<size_t>(M * N));
    matrix_product(M, N, K, a, b, sum.data());
    const double alpha = p_->alpha, beta = p_->beta;
    const float* c = C ? C->data<float>() : nullptr;
    float* y = io.out[0]->data<float>();
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double v = alpha * sum[size_t(i * N + j)];
        if (c) v += beta * c[i * c_strides_[0] + j * c_strides_[1]];
        y[i * N + j] = float(v);
      }
  }

 private:
  std::shared_ptr<const GemmParams> p_;
  GemmGeometry g_;
  std::vector<int64_t> c_strides_;  // element (i, j) of C broadcast to [M, N]
};

}  // namespace

Kernel<GemmParams> gemm_ref_kernel() {
  return {"ref", [](const std::shared_ptr<const GemmParams>& p, const KernelArgs& a) -> Compiled {
            GemmGeometry g = resolve_gemm_geometry(*p, a.in);
            require(g.M >= 0 && g.N >= 0 && g.K >= 0 && (!g.has_c || is_concrete(g.c_shape)),
                    "Gemm needs concrete shapes to run");
            return std::make_unique<GemmRef>(p, std::move(g));
          }};
}

}  // namespace cnnx
