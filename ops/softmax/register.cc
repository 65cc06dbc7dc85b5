#include "ops/families.h"

namespace cnnx {

void register_softmax_ops(OpRegistry& r) {}

}  // namespace cnnx
