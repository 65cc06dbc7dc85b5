// Constant: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/tensor/constant.h"

#include <algorithm>

#include "ops/common/data_movement.h"

namespace cnnx {

void constant_ref(const ConstantParams& p, const KernelIO& io) { copy_bytes(p.value, *io.out[0]); }

}  // namespace cnnx
