#include "ops/families.h"

namespace cnnx {

void register_shape_ops(OpRegistry& r) {}

}  // namespace cnnx
