#include "ops/families.h"

namespace cnnx {

void register_pool_ops(OpRegistry& r) {}

}  // namespace cnnx
