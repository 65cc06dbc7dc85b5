// Elementwise unary ops: one per row of the activation table (ops/common/activation.h: Relu, Sigmoid, Exp,
// Elu, Round...; float32, and integers for the rows with an integer column), Clip, whose bounds are attributes
// before opset 11 and inputs from 11 on, and Not (bool).
#pragma once

#include <limits>

#include "engine/op_registry.h"
#include "ops/common/activation.h"

namespace cnnx {

// Clip before opset 11 takes its bounds as attributes; from 11 on as optional inputs 1 and 2, read at run
// time (attribute_bounds is then false).
struct ClipParams : OpParams {
  bool attribute_bounds = false;
  float min = std::numeric_limits<float>::lowest();
  float max = std::numeric_limits<float>::max();
};

// Clip's bounds as activation args when they are known before running (attributes, or constant inputs
// holding one float each); false when a bound is a runtime tensor.
bool clip_bounds(const ClipParams& p, const std::vector<ValueInfo>& in, ActivationArgs& bounds);

// oneDNN eltwise_forward (ops/eltwise/unary_dnnl.cc), float32 only: the row's steps.
Kernel<ActivationParams> activation_dnnl_kernel();
// Declines bounds that are runtime tensors (the primitive is made once) and those the Clip row refuses.
Kernel<ClipParams> clip_dnnl_kernel();

// One op per activation-table row that has one, and Clip (ops/eltwise/unary.cc).
void register_unary_ops(OpRegistry& r);
// The reference kernels (unary_ref.cc): the activation table's double formula, Clip on any numeric type, Not.
void activation_ref(const ActivationParams& p, const KernelIO& io);
void clip_ref_any(const ClipParams& p, const KernelIO& io);
void not_ref(const NoParams& p, const KernelIO& io);

}  // namespace cnnx
