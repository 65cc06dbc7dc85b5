#include "ops/builtin_ops.h"

#include "ops/families.h"

namespace cnnx {

namespace {

void register_builtin_ops(OpRegistry& r) {
  register_conv_ops(r);
  register_gemm_ops(r);
  register_pool_ops(r);
  register_reduce_ops(r);
  register_eltwise_ops(r);
  register_norm_ops(r);
  register_softmax_ops(r);
  register_tensor_ops(r);
  register_index_ops(r);
  register_cast_ops(r);
  register_resize_ops(r);
  register_rnn_ops(r);
  register_control_ops(r);
  register_detect_ops(r);
  register_quant_ops(r);
}

}  // namespace

const OpRegistry& builtin_ops() {
  static const OpRegistry registry = [] {
    OpRegistry r;
    register_builtin_ops(r);
    return r;
  }();
  return registry;
}

}  // namespace cnnx
