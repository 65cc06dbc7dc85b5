// Elementwise unary ops: Relu, LeakyRelu, Sigmoid, Tanh, HardSigmoid, HardSwish, Clip.
#pragma once

#include <limits>

#include "engine/op.h"

namespace cnnx {

// LeakyRelu (alpha), HardSigmoid (alpha, beta). HardSwish is HardSigmoid with alpha = 1/6, beta = 0.5, times x.
struct AlphaBetaParams : OpParams {
  float alpha = 0;
  float beta = 0;
};

// Clip before opset 11 takes its bounds as attributes; from 11 on as optional inputs 1 and 2, read at run
// time (attribute_bounds is then false).
struct ClipParams : OpParams {
  bool attribute_bounds = false;
  float min = std::numeric_limits<float>::lowest();
  float max = std::numeric_limits<float>::max();
};

// oneDNN eltwise_forward kernels (ops/eltwise/unary_dnnl.cc), float32 only.
KernelDef relu_dnnl_kernel();
KernelDef leaky_relu_dnnl_kernel();
KernelDef sigmoid_dnnl_kernel();
KernelDef tanh_dnnl_kernel();
KernelDef hard_sigmoid_dnnl_kernel();
KernelDef hard_swish_dnnl_kernel();
// Declines bounds that are runtime tensors (the primitive is made once) and min > max (see the .cc).
KernelDef clip_dnnl_kernel();

}  // namespace cnnx
