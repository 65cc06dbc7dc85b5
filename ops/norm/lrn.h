// LRN (opsets 1, 13): local response normalization across channels of an (N x C x D1 ... Dk) float32 input,
// k >= 1. For channel c the window is [c - floor((size-1)/2), c + ceil((size-1)/2)] clipped to [0, C-1]:
//
//   Y = X / (bias + alpha / size * sum over the window of X^2) ^ beta
#pragma once

#include "engine/op.h"

namespace cnnx {

struct LrnParams : OpParams {
  float alpha = 1e-4f;
  float beta = 0.75f;
  float bias = 1.0f;
  int64_t size = 1;  // required attribute, >= 1; even sizes put the extra channel after c
};

// oneDNN lrn_across_channels; declines even sizes, whose window differs (ops/norm/lrn_dnnl.cc).
KernelDef lrn_dnnl_kernel();

}  // namespace cnnx
