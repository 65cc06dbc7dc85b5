#include "ops/families.h"

namespace cnnx {

void register_conv_ops(OpRegistry& r) {}

}  // namespace cnnx
