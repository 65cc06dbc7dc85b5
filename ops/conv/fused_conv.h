// FusedConv (domain cnnx.internal): a Conv with what follows it folded into one kernel, made only by the
// fuse-conv graph pass (passes/fuse_conv.cc), never read from a model:
//
//   Y = activation(Conv(X, W, B) + R)      inputs X, W, B (optional), R (optional, Y's shape)
//
// FusedConvFloat16 (same params, to_float16 set) is a FusedConv whose Y is then rounded to float16 and kept as
// float32: the float16-compute lowering's RoundToFloat16 after it (ops/cast/round_to_float16.h), absorbed
// by fuse-conv so that the sweep that already touches Y after the primitive (Swish's) rounds it too, or one
// runs in the same step. Its tolerance is FusedConv's plus one float16 ulp (ops/conv/register.cc).
//
// The oneDNN kernel runs the residual add as a sum post-op and the activation as eltwise post-ops, so the
// convolution's output is written once; the reference kernel runs the reference Conv, then the add and the
// activation in double, with each op's ONNX semantics (NaN stays NaN).
#pragma once

#include <string>

#include "ops/common/activation.h"
#include "ops/conv/conv.h"

namespace cnnx {

struct ConvFusion {
  bool residual = false;                       // input 3 is added before the activation
  const ActivationDef* activation = nullptr;   // a fusable row of the activation table, or none
  ActivationArgs args;
  bool to_float16 = false;                     // Y rounded to float16 at the end (FusedConvFloat16)
  std::string summary() const;                 // "Conv+Add+Relu", "Conv+Swish+RoundToFloat16"
};

struct FusedConvParams : OpParams {
  ConvParams conv;
  ConvFusion fusion;
};

std::vector<ValueInfo> infer_fused_conv(const FusedConvParams& p, const std::vector<ValueInfo>& in);
// The reference Conv, then the add and the activation in double (ops/conv/fused_conv_ref.cc).
Kernel<FusedConvParams> fused_conv_ref_kernel();
// Conv's kernel taking the fusion as post-ops (ops/conv/conv_dnnl.cc).
Kernel<FusedConvParams> fused_conv_dnnl_kernel();

}  // namespace cnnx
