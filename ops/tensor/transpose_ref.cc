// Transpose: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/tensor/transpose.h"

#include "ops/common/data_movement.h"

namespace cnnx {

void transpose_ref(const TransposeParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& y = *io.out[0];
  const std::vector<int64_t> perm = resolve_perm(p, x.rank());
  const std::vector<int64_t> x_strides = strides_of(x.shape());
  std::vector<int64_t> strides;  // per output axis, in the input
  Shape shape;
  for (int64_t a : perm) {
    strides.push_back(x_strides[size_t(a)]);
    shape.push_back(x.dim(a));
  }
  if (shape != y.shape()) fail("output shape ", to_string(y.shape()), " does not match ", to_string(shape));
  strided_copy(x.dtype(), x.raw(), 0, strides, y.raw(), shape);
}

}  // namespace cnnx
