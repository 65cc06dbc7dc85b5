// The one rule for special values (README, "Special values"): every kernel of an op gives ONNX's result on
// NaN, +-inf, -0 and denormals. oneDNN 2.6 computes some of its algorithms with maxps/minps or a clamped
// polynomial, which turn a NaN input into a number (relu with alpha 0: 0; clip: its lower bound; exp: +inf;
// binary max/min: the other operand when the first is NaN) or a denormal into the smallest normal (log), and
// its softmax leaves a row holding +inf partly finite. The kernels running them mend those elements afterwards
// from their input, which they then keep (they do not run in place): a pass over data still in cache, cheaper
// than declining to the reference kernels.
#pragma once

#include <cmath>
#include <cstdint>

#include "ops/common/activation.h"

namespace cnnx {

// Whether every element of a float32 tensor is finite.
bool all_finite(const Tensor& t);

// y[i] = max(x[i], 0), NaN kept (x and y may be one buffer): Relu in one pass.
void relu_keeping_nan(const float* x, float* y, int64_t n);

// y[i] = x[i] wherever x[i] is NaN, for n elements (x and y hold one layout; padding is never NaN).
void restore_nan(const float* x, float* y, int64_t n);

// y[i] = the row's reference formula of x[i], rounded once, wherever x[i] is NaN, infinite or denormal (x and
// y hold one layout; padding is 0, none of those).
void recompute_special_inputs(const ActivationDef& row, const ActivationArgs& args, const float* x, float* y,
                              int64_t n);

// Softmax and LogSoftmax over rows of `len` elements `inner` apart (outer x inner rows): a row of x holding
// NaN or +inf, or only -inf, is all NaN in ONNX (its maximum or its sum is NaN); such rows of y are filled
// with NaN.
void nan_softmax_rows(const float* x, float* y, int64_t outer, int64_t len, int64_t inner);

}  // namespace cnnx
