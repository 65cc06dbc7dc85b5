// MatMulInteger: the reference kernel (ops/quant/integer_matmul.h's exact sums, stored as int32).
#include "ops/quant/integer_matmul.h"
#include "ops/quant/matmul_integer.h"

namespace cnnx {

void matmul_integer_ref(const NoParams&, const KernelIO& io) {
  const Tensor& A = *io.in[0];
  const Tensor& B = *io.in[1];
  const MatMulGeometry g = matmul_geometry_of(A, B);
  const std::vector<int64_t> acc =
      integer_matmul(A, B, g, zero_points_of(io.optional_in(2), g.M, "a_zero_point"),
                     zero_points_of(io.optional_in(3), g.N, "b_zero_point"));
  int32_t* y = io.out[0]->data<int32_t>();
  for (size_t i = 0; i < acc.size(); ++i) y[i] = int32_t(uint32_t(uint64_t(acc[i])));
}

}  // namespace cnnx
