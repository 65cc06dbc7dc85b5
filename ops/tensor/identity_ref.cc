// Identity and Dropout: the reference kernels (plain loops; the oracle the op's other kernels are checked against).
#include "ops/tensor/identity.h"

#include <algorithm>

#include "ops/common/data_movement.h"

namespace cnnx {

void identity_ref(const NoParams&, const KernelIO& io) { copy_bytes(*io.in[0], *io.out[0]); }

void dropout_ref(const DropoutParams& p, const KernelIO& io) {
  auto has = [&](size_t i) { return i < io.in.size() && io.in[i] != nullptr; };
  if (p.ratio_from_input && has(2) && bool_scalar_value(*io.in[2])) {
    const double ratio = has(1) ? io.in[1]->double_at(0) : 0.5;
    require(!(ratio > 0), kTrainingDropoutRefused);
  }
  copy_bytes(*io.in[0], *io.out[0]);
  if (io.out.size() > 1 && io.out[1]) {
    Tensor& mask = *io.out[1];
    // Nothing is dropped: every mask element is true (1).
    if (mask.dtype() == DType::f64) std::fill_n(mask.data<double>(), mask.numel(), 1.0);
    else if (mask.dtype() == DType::f32) std::fill_n(mask.data<float>(), mask.numel(), 1.0f);
    else std::fill_n(mask.data<bool>(), mask.numel(), true);
  }
}

}  // namespace cnnx
