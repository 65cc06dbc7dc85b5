// The graph passes cnnx ships (listed, in order, in passes/pass.cc).
#pragma once

#include "engine/graph.h"
#include "passes/pass.h"

namespace cnnx {

// Every op reading float16/bfloat16 that has no such kernel (all but Cast, CastLike and the copies,
// engine/float16_compute.h) runs in float32 between Casts that keep the values between ops 16-bit;
// passes/float16_compute.cc.
void compute_float16_in_float32(Graph& graph, PassDeclines& declines);
// Identity, Dropout at inference (no mask read, no runtime training_mode) and Pad with all-zero pads:
// readers read the input.
void drop_identity(Graph& graph, PassDeclines& declines);
// DequantizeLinear(x), DequantizeLinear(W) [, DequantizeLinear(B int32)] -> Conv [-> Relu | Clip] -> QuantizeLinear
// (constant scales and zero points, each value read only by the next node) as one QLinearConv, or FusedQLinearConv
// with the activation as a clamp of y; DQ(A), DQ(B) -> Add [-> Relu | Clip] -> Q as FusedQLinearAdd; DQ -> MaxPool
// -> Q of one scale and zero point as MaxPool of the int8 tensor; passes/fold_qdq.cc.
void fold_qdq(Graph& graph, PassDeclines& declines);
// Transpose of a Conv's output (or of an op moved so) -> elementwise op (Mul/Add/Sub/Div with a constant that does not widen it, Relu, Clip with constant
// bounds) reading it as its only reader: the op first (the constant permuted back), then the Transpose;
// passes/elementwise_before_transpose.cc.
void elementwise_before_transpose(Graph& graph, PassDeclines& declines);
// Transpose -> Transpose as one Transpose (none when they cancel), and identity Transposes dropped;
// passes/cancel_transposes.cc.
void cancel_transposes(Graph& graph, PassDeclines& declines);
// Transpose -> Reduce* (constant axes, the Transpose read only by it) as the Reduce* of the Transpose's input
// over the axes permuted back, then a Transpose of the result (none when it keeps the order);
// passes/reduce_before_transpose.cc.
void reduce_before_transpose(Graph& graph, PassDeclines& declines);
// Pad (constant mode, float32, known pads and value) -> Transpose read by a Conv or AveragePool, the Pad read
// only by the Transpose: the Transpose, then the Pad with its pads permuted (for fold-pad);
// passes/pad_through_transpose.cc.
void pad_through_transpose(Graph& graph, PassDeclines& declines);
// Pad (constant 0, known pads >= 0 on the spatial axes only) -> Conv or AveragePool (explicit pads; count_include_pad,
// or no pads of its own; no ceil_mode) reading it as its only reader: the Conv or pool with the Pad's cells as
// its own pads; passes/fold_pad.cc.
void fold_pad(Graph& graph, PassDeclines& declines);
// 1x1 Conv (stride 1, no pads; with a bias only when every pool window divides by its taps in the input) read only
// by an AveragePool or GlobalAveragePool that shrinks the map: the pool first, then the Conv on the pooled
// map; passes/pool_before_pointwise_conv.cc.
void pool_before_pointwise_conv(Graph& graph, PassDeclines& declines);
// Conv -> BatchNormalization (inference, constant W, B and statistics, Conv output read only by the BN):
// one Conv with W' = W * s and B' = (B - mean) * s + beta, s = scale / sqrt(var + epsilon).
void fold_batch_norm(Graph& graph, PassDeclines& declines);
// Conv -> Mul / Add / Sub of float32 constants per output channel (BatchNormalization as tf2onnx writes it),
// the intermediate values read only by the next node: one Conv with the scale in W and the offset in B;
// passes/fold_mul_add.cc.
void fold_mul_add(Graph& graph, PassDeclines& declines);
// LayerNorm spelled out (ReduceMean -> Sub -> Pow -> ReduceMean -> Add(eps) -> Sqrt -> Div [-> Mul -> Add]) as
// one LayerNormalization; passes/fuse_layer_norm.cc.
void fuse_layer_norm(Graph& graph, PassDeclines& declines);
// GELU spelled out with Erf or Tanh as one cnnx.internal Gelu or GeluTanh; passes/fuse_gelu.cc.
void fuse_gelu(Graph& graph, PassDeclines& declines);
// x * HardSigmoid(x) (alpha 1/6, beta 1/2), the HardSigmoid read only there, as one HardSwish;
// passes/fuse_hardswish.cc.
void fuse_hardswish(Graph& graph, PassDeclines& declines);
// MatMul(A, constant B) -> Add(constant bias per column) [-> Add(residual)] [-> activation] as one cnnx.internal
// FusedMatMul; passes/fuse_matmul_bias.cc.
void fuse_matmul_bias(Graph& graph, PassDeclines& declines);
// Transposes into or out of an Einsum folded into its equation; passes/einsum_transposes.cc.
void fold_einsum_transposes(Graph& graph, PassDeclines& declines);
// Conv (one group, constant weights) reading a channel Concat, directly or through a MaxPool / AveragePool read
// only by it, as one Conv per part summed by Adds, when every reader of the Concat is such a Conv and their
// outputs' re-reads come to at most the Concat's bytes; passes/split_conv_over_concat.cc.
void split_conv_over_concat(Graph& graph, PassDeclines& declines);
// In float16 graphs: the RoundToFloat16 steps inside what fuse-conv fuses (Conv -> Add(residual) ->
// activation or x * Sigmoid(x)) dropped, the group rounded once at its end, within a derived bound of the
// op-by-op result; passes/float16_round_once.cc.
void round_fused_groups_once(Graph& graph, PassDeclines& declines);
// Conv [-> Add(residual)] [-> activation] [-> RoundToFloat16 to float16] as one FusedConv (FusedConvFloat16
// with the rounding; ops/conv/fused_conv.h) when each intermediate
// value is read only by the next node; then BatchNormalization -> Relu as one BatchNormalization that
// applies the Relu (BatchNormParams::then_relu).
void fuse_conv(Graph& graph, PassDeclines& declines);
// AveragePool / ReduceMean (also over a Reshape or Flatten view) / adaptive_avg_pool to 1 that compute a
// global average pool, as one GlobalAveragePool (+ Reshape to the original shape); passes/global_average_pool.cc.
void rewrite_global_average_pool(Graph& graph, PassDeclines& declines);
// [Concat of g parts ->] Reshape [N, g, C/g, ...] -> Transpose (dims 1, 2 swapped) -> Reshape [N, C, ...]
// (ShuffleNet), the intermediate values read only by the next node: one ChannelShuffle
// (ops/tensor/channel_shuffle.h) reading the parts.
void fuse_channel_shuffle(Graph& graph, PassDeclines& declines);

}  // namespace cnnx
