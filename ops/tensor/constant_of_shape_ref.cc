// ConstantOfShape: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/tensor/constant_of_shape.h"

#include <algorithm>

#include "ops/common/data_movement.h"

namespace cnnx {

void constant_of_shape_ref(const ConstantOfShapeParams& p, const KernelIO& io) {
  Tensor& y = *io.out[0];
  require(y.dtype() == p.value.dtype(), "output type ", dtype_name(y.dtype()), " is not the value's");
  visit_bits(y.dtype(), [&](auto bits) {
    using U = decltype(bits);
    std::fill_n(static_cast<U*>(y.raw()), y.numel(), *static_cast<const U*>(p.value.raw()));
  });
}

}  // namespace cnnx
