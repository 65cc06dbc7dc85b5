#include "ops/families.h"

namespace cnnx {

void register_unary_ops(OpRegistry& r);
void register_binary_ops(OpRegistry& r);

void register_eltwise_ops(OpRegistry& r) {
  register_unary_ops(r);
  register_binary_ops(r);
}

}  // namespace cnnx
