#include "ops/families.h"

namespace cnnx {

void register_gemm_ops(OpRegistry& r) {}

}  // namespace cnnx
