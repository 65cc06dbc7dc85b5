// Shape: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/tensor/shape_of.h"

#include <algorithm>

namespace cnnx {

void shape_of_ref(const ShapeParams& p, const KernelIO& io) {
  const Shape dims = shape_of_dims(p, io.in[0]->shape());
  Tensor& y = *io.out[0];
  if (y.shape() != Shape{int64_t(dims.size())})
    fail("output shape ", to_string(y.shape()), " should be [", dims.size(), "]");
  std::copy(dims.begin(), dims.end(), y.data<int64_t>());
}

void size_ref(const NoParams&, const KernelIO& io) { *io.out[0]->data<int64_t>() = io.in[0]->numel(); }

}  // namespace cnnx
