// LRN (opsets 1, 13): local response normalization across channels of an (N x C x D1 ... Dk) float32 input,
// k >= 1. For channel c the window is [c - floor((size-1)/2), c + ceil((size-1)/2)] clipped to [0, C-1]:
//
//   Y = X / (bias + alpha / size * sum over the window of X^2) ^ beta
#pragma once

#include <limits>

#include "engine/op.h"

namespace cnnx {

struct LrnParams : OpParams {
  float alpha = 1e-4f;
  float beta = 0.75f;
  float bias = 1.0f;
  int64_t size = 1;  // required attribute, >= 1; even sizes put the extra channel after c
};

// y = x * f with f > 0, so errors are relative. Another engine sums the `size` squares in float32 (relative
// error <= size * u of the sum, u = 2^-24), adds bias (u), raises to beta (beta * that, plus ~2 ulp for
// powf or exp(beta * log)) and divides (0.5 ulp): about (size + 4) u for beta <= 1, ~6e-7 at AlexNet's
// size 5; 2e-6 covers window sizes up to ~30. The absolute term only admits subnormal outputs, whose
// spacing is coarser than 2^-24 relative.
constexpr Tolerance kLrnTolerance{std::numeric_limits<float>::min(), 2e-6};

LrnParams parse_lrn(const Node& node);
std::vector<ValueInfo> infer_lrn(const LrnParams& p, const std::vector<ValueInfo>& in);
// Sums the window's squares in double, one rounding per output (ops/norm/lrn_ref.cc).
void lrn_ref(const LrnParams& p, const KernelIO& io);
// oneDNN lrn_across_channels; declines even sizes, whose window differs (ops/norm/lrn_dnnl.cc).
Kernel<LrnParams> lrn_dnnl_kernel();

}  // namespace cnnx
