// One registration function per op family, each in its folder's register.cc with one OpSpec line per op;
// builtin_ops() (ops/builtin_ops.cc) calls them all.
#pragma once

#include "engine/op_registry.h"

namespace cnnx {

void register_conv_ops(OpRegistry& r);     // Conv
void register_gemm_ops(OpRegistry& r);     // Gemm, MatMul
void register_pool_ops(OpRegistry& r);     // AveragePool, MaxPool, Global{Average,Max}Pool, org.pytorch.aten adaptive_avg_pool{1,2,3}d
void register_reduce_ops(OpRegistry& r);   // ReduceMean, ReduceSum, ReduceMax, ..., ArgMax, ArgMin
void register_eltwise_ops(OpRegistry& r);  // one op per activation-table row (ops/common/activation.h), Clip,
                                           // Add, Sub, Mul, Div, Sum
void register_norm_ops(OpRegistry& r);     // BatchNormalization, LRN, LayerNormalization,
                                           // InstanceNormalization, GroupNormalization
void register_softmax_ops(OpRegistry& r);  // Softmax
void register_resize_ops(OpRegistry& r);   // Resize, Upsample
void register_shape_ops(OpRegistry& r);    // Flatten, Reshape, Squeeze, Unsqueeze, Transpose, Concat, Slice,
                                           // Gather, Shape, Cast, Constant, Identity, Dropout, Pad

}  // namespace cnnx
