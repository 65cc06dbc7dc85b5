// FusedConv (domain cnnx.internal): a Conv with what follows it folded into one kernel, made only by the
// fuse-conv graph pass (passes/fuse_conv.cc), never read from a model:
//
//   Y = activation(Conv(X, W, B) + R)      inputs X, W, B (optional), R (optional, Y's shape)
//
// The oneDNN kernel runs the residual add as a sum post-op and the activation as eltwise post-ops, so the
// convolution's output is written once; the reference kernel runs the reference Conv, then the add and the
// activation in double, with each op's ONNX semantics (NaN stays NaN).
#pragma once

#include <string>

#include "ops/conv/conv.h"

namespace cnnx {

class OpRegistry;

enum class Activation { none, relu, leaky_relu, clip, sigmoid, tanh, hard_sigmoid, hard_swish, swish };

struct ConvFusion {
  bool residual = false;                 // input 3 is added before the activation
  Activation activation = Activation::none;
  float alpha = 0, beta = 0;             // leaky_relu: alpha; clip: [alpha, beta]; hard_sigmoid: alpha*x+beta
  std::string summary() const;           // "Conv+Add+Relu"
};

struct FusedConvParams : OpParams {
  ConvParams conv;
  ConvFusion fusion;
};

// The activation as ONNX defines it (the reference computation).
double apply_activation(const ConvFusion& f, double x);

// Conv's kernels taking the fusion as post-ops (ops/conv/conv_dnnl.cc).
KernelDef fused_conv_dnnl_kernel();
void register_fused_conv(OpRegistry& r);

}  // namespace cnnx
