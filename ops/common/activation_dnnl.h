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
  }
  return dnnl::algorithm::undef;
}

}  // namespace cnnx
