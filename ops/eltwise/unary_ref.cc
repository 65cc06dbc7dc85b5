// The activation-table ops, Clip and Not: the reference kernels (plain loops; the oracle the op's other kernels are
// checked against).
#include "ops/eltwise/unary.h"

#include <cmath>

namespace cnnx {

void activation_ref(const ActivationParams& p, const KernelIO& io) {
  if (io.in[0]->dtype() != DType::f32) {  // an integer type the row's integer column takes (infer checked)
    visit_dtype(io.in[0]->dtype(), [&](auto zero) {
      using T = decltype(zero);
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        const T* x = io.in[0]->data<T>();
        T* y = io.out[0]->data<T>();
        for (int64_t i = 0, n = io.in[0]->numel(); i < n; ++i) y[i] = T(p.activation->integer(int64_t(x[i])));
      } else {
        fail(p.activation->name, " does not take ", dtype_name(io.in[0]->dtype()));
      }
    });
    return;
  }
  const float* x = io.in[0]->data<float>();
  float* y = io.out[0]->data<float>();
  for (int64_t i = 0, n = io.in[0]->numel(); i < n; ++i) y[i] = float(p.activation->reference(x[i], p.args));
}

namespace {

template <class T>
void clip_ref(const ClipParams& p, const KernelIO& io) {
  T lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
  if (p.attribute_bounds) {  // float only (checked in infer_clip)
    lo = T(p.min);
    hi = T(p.max);
  } else {
    if (io.optional_in(1) && io.in[1]->numel()) lo = io.in[1]->data<T>()[0];
    if (io.optional_in(2) && io.in[2]->numel()) hi = io.in[2]->data<T>()[0];
  }
  const T* x = io.in[0]->data<T>();
  T* y = io.out[0]->data<T>();
  // ONNX: min(max(x, lo), hi); with lo > hi every element becomes hi. NaN stays NaN.
  for (int64_t i = 0; i < io.in[0]->numel(); ++i) {
    T v = x[i];
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    y[i] = v;
  }
}

}  // namespace

void not_ref(const NoParams&, const KernelIO& io) {
  const bool* x = io.in[0]->data<bool>();
  bool* y = io.out[0]->data<bool>();
  for (int64_t i = 0, n = io.in[0]->numel(); i < n; ++i) y[i] = !x[i];
}

void clip_ref_any(const ClipParams& p, const KernelIO& io) {
  visit_dtype(io.in[0]->dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool>) fail("Clip does not take bool");
    else clip_ref<T>(p, io);
  });
}

}  // namespace cnnx
