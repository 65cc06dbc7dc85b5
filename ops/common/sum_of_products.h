// The accumulation part of the tolerance of every op whose outputs are sums of products (Conv, ConvTranspose,
// FusedConv, Gemm, MatMul, FusedMatMul, Einsum; and LSTM, GRU, RNN for their gates' sums, ops/rnn/recurrent.h):
// Tolerance::terms_rel (engine/op.h), which scales each output's sqrt(K + 2) M, M = sum_k |a_k * x_k| (+ |bias|)
// the reference kernel run on the inputs' absolute values.
//
// Derivation. An output is y = b + sum_{k=1..K} a_k x_k over float32 values. The reference forms each product
// exactly in double (24 + 24 bits < 53), sums in double (error <= K * 2^-53 * M, negligible) and rounds once
// (covered by the op's rel). An engine working in float32 rounds each product (or fuses it into an FMA) and
// each of the K additions, in any order or blocking (a tree of additions; oneDNN keeps per-output float32
// accumulators over K, blocked over channels and kernel positions). In the standard model each operation's
// result r_j is exact * (1 + d_j), |d_j| <= u = 2^-24, so to first order
//     error = sum_j d_j r_j,   |r_j| <= M for every partial sum (a sum of a subset of the terms),
//                              sum over the products of r_j^2 = sum_k (a_k x_k)^2 <= M^2.
// Worst case, every d_j at +u: |error| <= (K + 1) u M, i.e. 2.7e-4 M at K = 4608. Sound for anything, but a
// kernel 1% off would pass it at that K. Round-to-nearest errors on data that is not degenerate behave as
// mean-independent random variables (Higham & Mary, "A new approach to probabilistic rounding error analysis",
// SIAM J. Sci. Comput. 41(5), 2019: the sqrt(K) u rule of thumb made rigorous), so the error is a martingale
// with increments bounded by u |r_j|, and Azuma-Hoeffding gives
//     P(|error| > lambda u sqrt(K + 1) M) <= 2 exp(-lambda^2 / 2)      (sum of the bounds squared <= (K+1) u^2 M^2).
// lambda = 7: 5e-11 per element (a model checks ~1e7 elements: < 1e-3 false alarms per run, far fewer in
// practice, where most |r_j| are well below M). So terms_rel = 7 * 2^-24 = 4.2e-7, and the magnitude it scales
// is sqrt(K + 2) M with each node's own sum length K (engine/compare.h, term_magnitudes: OpHints::flops over 2
// per output; + 2 for a bias and a fused residual): 2.0e-5 M for a 3x3 convolution over 256 channels (K =
// 2304), 6.5e-5 M for VGG's classifier (K = 25088), 1.4e-6 M for a 3x3 depthwise one. Second-order terms
// (K u)^2 M stay below 4% of the first-order bound up to K = 2^15.
// What it still catches: a dropped term t_k fails wherever |t_k| > abs + rel |y| + 4.2e-7 sqrt(K + 2) M; with
// terms of similar size (|t_k| ~ M / K) that holds for K up to ~18000, and for the largest terms well beyond. A bias off
// by e fails wherever e exceeds the bound (e.g. ~1e-3 at M ~ 10). tests/unit/dot_tolerance_test.cc shows both.
// What it assumes: the rounding errors are not all of one sign. K equal positive terms summed sequentially
// (a constant input through an all-positive filter) can reach ~K u M / 4: beyond the bound from K ~ 800 in a
// single float32 accumulator (oneDNN's blocked accumulators each sum a part).
//
// The rest of a sum-of-products tolerance (each op's abs and rel) covers the final rounding to float32, a bias,
// alpha or beta * C applied after the sum, a fused activation's own error (up to the transcendental rows',
// 1e-6 + 4e-6 relative), and results near 0. They are wider than that derivation needs (4 u relative, 1e-35
// absolute for underflow) because tests compare whole graphs' outputs with one op's tolerance and no
// magnitudes; tightening them waits for those comparisons to use per-node checks.
#pragma once

namespace cnnx {

constexpr double kSumOfProductsTermsRel = 7 * 0x1p-24;

}  // namespace cnnx
