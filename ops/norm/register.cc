#include "ops/families.h"

namespace cnnx {

void register_batch_norm_op(OpRegistry& r);  // ops/norm/batch_norm.cc
void register_lrn_op(OpRegistry& r);         // ops/norm/lrn.cc

void register_norm_ops(OpRegistry& r) {
  register_batch_norm_op(r);
  register_lrn_op(r);
}

}  // namespace cnnx
