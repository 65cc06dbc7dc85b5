// The activation table's oneDNN steps as oneDNN types, for *_dnnl.cc files.
#pragma once

#include "dnnl/dnnl_runtime.h"
#include "ops/common/activation.h"

namespace cnnx {

inline dnnl::algorithm dnnl_algorithm(EltwiseAlgorithm a) {
  switch (a) {
    case EltwiseAlgorithm::relu: return dnnl::algorithm::eltwise_relu;
    case EltwiseAlgorithm::logistic: return dnnl::algorithm::eltwise_logistic;
    case EltwiseAlgorithm::tanh: return dnnl::algorithm::eltwise_tanh;
    case EltwiseAlgorithm::linear: return dnnl::algorithm::eltwise_linear;
    case EltwiseAlgorithm::clip_v2: return dnnl::algorithm::eltwise_clip_v2;
    case EltwiseAlgorithm::hardswish: return dnnl::algorithm::eltwise_hardswish;
    case EltwiseAlgorithm::swish: return dnnl::algorithm::eltwise_swish;
    case EltwiseAlgorithm::exp: return dnnl::algorithm::eltwise_exp;
    case EltwiseAlgorithm::log: return dnnl::algorithm::eltwise_log;
    case EltwiseAlgorithm::sqrt: return dnnl::algorithm::eltwise_sqrt;
    case EltwiseAlgorithm::abs: return dnnl::algorithm::eltwise_abs;
    case EltwiseAlgorithm::round: return dnnl::algorithm::eltwise_round;
    case EltwiseAlgorithm::elu: return dnnl::algorithm::eltwise_elu;
    case EltwiseAlgorithm::soft_relu: return dnnl::algorithm::eltwise_soft_relu;
    case EltwiseAlgorithm::mish: return dnnl::algorithm::eltwise_mish;
    case EltwiseAlgorithm::pow: return dnnl::algorithm::eltwise_pow;
    case EltwiseAlgorithm::gelu_erf: return dnnl::algorithm::eltwise_gelu_erf;
    case EltwiseAlgorithm::gelu_tanh: return dnnl::algorithm::eltwise_gelu_tanh;
  }
  return dnnl::algorithm::undef;
}

// Whether oneDNN 2.6 gives another result than ONNX's for a NaN or denormal input of these steps
// (ops/common/special_values.h): relu with alpha 0 and clip are maxps/minps (NaN becomes a number), exp clamps
// its argument before the polynomial (NaN becomes +inf), log reads a denormal as the smallest normal. The
// other algorithms keep NaN through their arithmetic or a compare-and-blend, and denormals as the reference
// (the case table feeds both to every row).
inline bool mishandles_special_inputs(const std::vector<EltwiseStep>& steps) {
  for (const EltwiseStep& s : steps)
    if ((s.algorithm == EltwiseAlgorithm::relu && s.alpha == 0) || s.algorithm == EltwiseAlgorithm::clip_v2 ||
        s.algorithm == EltwiseAlgorithm::exp || s.algorithm == EltwiseAlgorithm::log)
      return true;
  return false;
}

}  // namespace cnnx
