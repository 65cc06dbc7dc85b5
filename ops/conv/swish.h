// Swish (SiLU), x * sigmoid(x), in place over a float32 buffer: what FusedConv's oneDNN kernel runs after
// a float32 convolution when the fused activation is Swish (the fuse-conv pass's Sigmoid + Mul).
//
// Why not oneDNN's eltwise_swish post-op: oneDNN 2.6 computes the logistic with a division (vdivps, one
// 16-lane division per ~16 cycles), and inside the convolution's loop that division is the bottleneck. On
// efficientnet_b0's 16->96 1x1 at 112x112, single thread: 0.43 ms without the post-op, 1.06-1.58 ms with it,
// 0.99 ms with this pass after it.
// A bfloat16 convolution takes the post-op all the same (ops/conv/conv_dnnl.cc): measured on AVX512_BF16 it
// beats the pass, most where the dst is stored in bfloat16 (written once from the accumulators, where the pass
// would read and write a float32 dst).
//
// Accuracy: exp(-x) as 2^n times Cephes's expf polynomial on [-ln2/2, ln2/2], the reciprocal by rcp14 and one
// Newton step: within 3e-7 relative of x / (1 + exp(-x)) for x >= -87 wherever that is a normal float (worst
// 2.73e-7, at x = -16.64, over all floats), within half the smallest denormal where it is denormal; above 87
// sigmoid's argument is clamped (sigmoid(87) is 1 in float32 anyway). Below -87 the result is 0: the true value is smaller than
// 1.5e-36 in magnitude, and computing it would go through denormals, each of them a slow microcode assist.
// (It is x * 0: -0 for finite x, NaN for -inf, as Sigmoid then Mul give.)
// NaN stays NaN, +inf stays +inf. With AVX2 and FMA (no AVX-512), the same polynomial 8 lanes at a time and
// an exact division; without AVX2 it is the formula itself, in double, with the same rule below -87.
#pragma once

#include <cstdint>

namespace cnnx {

// x[i] = x[i] * sigmoid(x[i]) for i < n, on OpenMP's current thread count (one thread below 16k floats).
void swish_in_place(float* x, int64_t n);
// FusedConvFloat16's sweep: x[i] = r(swish(x[i])) (r(x[i]) without `swish`), r the rounding to float16 kept as
// float32 (ops/cast/round_to_float16.h), in one pass, a block at a time while it is in L1; threads as above.
void swish_round_to_float16_in_place(float* x, int64_t n, bool swish);

}  // namespace cnnx
