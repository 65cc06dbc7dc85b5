// Expand: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/tensor/expand.h"

#include "ops/common/broadcast.h"
#include "ops/common/data_movement.h"

namespace cnnx {

void expand_ref(const NoParams&, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& y = *io.out[0];
  const Shape out = expand_shape(x.shape(), ints_of(io.in[1], "shape"));
  if (out != y.shape()) fail("output shape ", to_string(y.shape()), " does not match ", to_string(out));
  strided_copy(x.dtype(), x.raw(), 0, broadcast_strides(x.shape(), out), y.raw(), out);
}

}  // namespace cnnx
