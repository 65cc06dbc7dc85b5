#include "ops/common/special_values.h"

#include <limits>

namespace cnnx {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// Whether ONNX's softmax of the row is all NaN: it holds NaN or +inf (x - max or the sum is NaN), or is all -inf.
bool nan_row(const float* x, int64_t len, int64_t inner) {
  bool only_minus_inf = len > 0;
  for (int64_t k = 0; k < len; ++k) {
    const float v = x[k * inner];
    if (v != v || v == kInf) return true;
    only_minus_inf = only_minus_inf && v == -kInf;
  }
  return only_minus_inf;
}

}  // namespace

bool all_finite(const Tensor& t) {
  const float* x = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i)
    if (!std::isfinite(x[i])) return false;
  return true;
}

void relu_keeping_nan(const float* x, float* y, int64_t n) {
#pragma omp parallel for simd if (n >= (int64_t(1) << 16))
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] < 0 ? 0.f : x[i];  // a NaN compares false: kept
}

void restore_nan(const float* x, float* y, int64_t n) {
#pragma omp parallel for simd if (n >= (int64_t(1) << 16))
  for (int64_t i = 0; i < n; ++i)
    if (x[i] != x[i]) y[i] = x[i];
}

void recompute_special_inputs(const ActivationDef& row, const ActivationArgs& args, const float* x, float* y,
                              int64_t n) {
  constexpr float kSmallestNormal = std::numeric_limits<float>::min();
#pragma omp parallel for if (n >= (int64_t(1) << 16))
  for (int64_t i = 0; i < n; ++i)
    if (!(std::fabs(x[i]) >= kSmallestNormal && std::fabs(x[i]) <= std::numeric_limits<float>::max()) && x[i] != 0)
      y[i] = float(row.reference(x[i], args));  // NaN, +-inf or denormal
}

void nan_softmax_rows(const float* x, float* y, int64_t outer, int64_t len, int64_t inner) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
#pragma omp parallel for if (outer * len * inner >= (int64_t(1) << 16))
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t first = o * len * inner + i;
      if (nan_row(x + first, len, inner))
        for (int64_t k = 0; k < len; ++k) y[first + k * inner] = nan;
    }
}

}  // namespace cnnx
