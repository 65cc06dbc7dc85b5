// The accumulation part of the tolerance of every op whose outputs are sums of products (Conv, ConvTranspose,
// FusedConv, Gemm, MatMul, FusedMatMul, Einsum): Tolerance::terms_rel (engine/op.h), which scales each
// output's magnitude M = sum_k |a_k * x_k| (+ |bias|), the reference kernel run on the inputs' absolute values.
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
// practice, where most |r_j| are well below M). K up to 2^15 = 32768 covers real models (VGG's classifier
// 25088, 3x3x1024 convolutions 9216, ResNet's 3x3x512 4608): terms_rel = 7 * 2^-24 * sqrt(32769) = 7.6e-5.
// Second-order terms (K u)^2 M are below 4e-6 M at that K, inside the rounding-up to 7.6e-5.
//
// What it still catches: a dropped term t_k fails wherever |t_k| > abs + rel |y| + 7.6e-5 M; with terms of
// similar size (|t_k| ~ M / K) that holds for K up to ~13000, and for the largest terms well beyond. A bias off
// by e fails wherever e exceeds the bound (e.g. ~1e-3 at M ~ 10). tests/unit/dot_tolerance_test.cc shows both.
// What it assumes: the rounding errors are not all of one sign. K equal positive terms summed sequentially
// (a constant input through an all-positive filter) can reach ~K u M / 4: beyond the bound from K ~ 5000 in a
// single float32 accumulator.
#pragma once

namespace cnnx {

constexpr double kSumOfProductsTermsRel = 7.6e-5;

}  // namespace cnnx
