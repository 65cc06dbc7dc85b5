// IsNaN and IsInf: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include <cmath>

#include "ops/eltwise/is_nan_inf.h"

namespace cnnx {

namespace {

template <class T>
void classify(const IsNanInfParams& p, const Tensor& x, Tensor& y) {
  const T* v = x.data<T>();
  bool* out = y.data<bool>();
  for (int64_t i = 0, n = x.numel(); i < n; ++i)
    out[i] = p.nan ? std::isnan(v[i]) : std::isinf(v[i]) && (v[i] < 0 ? p.negative : p.positive);
}

}  // namespace

void is_nan_inf_ref(const IsNanInfParams& p, const KernelIO& io) {
  if (io.in[0]->dtype() == DType::f64) classify<double>(p, *io.in[0], *io.out[0]);
  else classify<float>(p, *io.in[0], *io.out[0]);
}

}  // namespace cnnx
