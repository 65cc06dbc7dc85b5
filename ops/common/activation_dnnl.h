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

}  // namespace cnnx
