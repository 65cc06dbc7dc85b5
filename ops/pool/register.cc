#include "ops/families.h"

namespace cnnx {

void register_pool_op_defs(OpRegistry& r);  // ops/pool/pool.cc

void register_pool_ops(OpRegistry& r) { register_pool_op_defs(r); }

}  // namespace cnnx
