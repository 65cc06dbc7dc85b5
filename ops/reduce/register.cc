#include "ops/families.h"

namespace cnnx {

void register_reduce_ops(OpRegistry& r) {}

}  // namespace cnnx
