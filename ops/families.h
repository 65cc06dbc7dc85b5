// One registration function per op family, each in its folder's register.cc with one OpSpec line per op;
// builtin_ops() (ops/builtin_ops.cc) calls them all. Every op folder holds, per op, `<op>.h` (params and
// declarations), `<op>.cc` (parse, shape inference and the spec's other pieces), `<op>_ref.cc` (the reference
// kernel) and `<op>_dnnl.cc` (the oneDNN kernel, where there is one); helpers a family shares keep their own
// files (ops/common/ for those of several families).
#pragma once

#include "engine/op_registry.h"

namespace cnnx {

void register_conv_ops(OpRegistry& r);     // ops/conv: Conv, ConvTranspose, cnnx.internal FusedConv, FusedConvFloat16
void register_gemm_ops(OpRegistry& r);     // ops/gemm: Gemm, MatMul, Einsum, cnnx.internal FusedMatMul
void register_pool_ops(OpRegistry& r);     // ops/pool: AveragePool, MaxPool, GlobalAveragePool, GlobalMaxPool,
                                           // MaxUnpool,
                                           // org.pytorch.aten adaptive_avg_pool{1,2,3}d
void register_reduce_ops(OpRegistry& r);   // ops/reduce: ReduceMean, ReduceSum, ReduceMax, ReduceMin, ReduceProd,
                                           // ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSum, ReduceLogSumExp,
                                           // ArgMax, ArgMin, CumSum, TopK
void register_eltwise_ops(OpRegistry& r);  // ops/eltwise: one op per activation-table row (ops/common/activation.h)
                                           // Clip and Not (unary.h); Add, Sub, Mul, Div, Pow, Mod, comparisons,
                                           // And, Or, Xor, Sum, Max, Min, Mean, Where (binary.h); PRelu,
                                           // IsNaN, IsInf
void register_norm_ops(OpRegistry& r);     // ops/norm: BatchNormalization, LRN, LayerNormalization,
                                           // InstanceNormalization, GroupNormalization, LpNormalization,
                                           // MeanVarianceNormalization
void register_softmax_ops(OpRegistry& r);  // ops/softmax: Softmax, LogSoftmax, Hardmax
void register_resize_ops(OpRegistry& r);   // ops/resize: Resize, Upsample, GridSample
void register_rnn_ops(OpRegistry& r);      // ops/rnn: LSTM, GRU, RNN (recurrent layers)
void register_detect_ops(OpRegistry& r);   // ops/detect: NonMaxSuppression, RoiAlign
void register_control_ops(OpRegistry& r);  // ops/control: If, Loop, Scan (subgraphs, engine/subgraph.h)
void register_tensor_ops(OpRegistry& r);   // ops/tensor: ops that move elements or compute shapes, without
                                           // arithmetic on elements: Shape, Size, Reshape, Flatten, Squeeze,
                                           // Unsqueeze, Expand, Transpose, Concat, Split, Slice, Pad, Tile,
                                           // DepthToSpace, SpaceToDepth, Constant, ConstantOfShape, EyeLike,
                                           // Range, Identity, Dropout, cnnx.internal ChannelShuffle
void register_index_ops(OpRegistry& r);    // ops/index: ops that select or place elements by index or by data:
                                           // Gather, GatherElements, GatherND, ScatterND, ScatterElements,
                                           // Scatter, NonZero, Compress, Unique, OneHot, Trilu, ReverseSequence
void register_cast_ops(OpRegistry& r);     // ops/cast: Cast, CastLike, cnnx.internal RoundToFloat16
void register_quant_ops(OpRegistry& r);    // ops/quant: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
                                           // QLinearConv, QLinearMatMul, ConvInteger, MatMulInteger;
                                           // com.microsoft QLinearAdd, QLinearMul, QLinearSigmoid,
                                           // QLinearLeakyRelu, QLinearGlobalAveragePool, QLinearAveragePool,
                                           // QLinearConcat, QLinearSoftmax, QGemm, MatMulIntegerToFloat,
                                           // DynamicQuantizeMatMul; cnnx.internal FusedQLinearConv

}  // namespace cnnx
