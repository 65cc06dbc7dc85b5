#include "ops/eltwise/binary.h"
#include "ops/eltwise/unary.h"
#include "ops/families.h"

namespace cnnx {

void register_eltwise_ops(OpRegistry& r) {
  register_unary_ops(r);   // one op per activation-table row, and Clip
  register_binary_ops(r);  // Add, Sub, Mul, Div, Pow, Mod, comparisons, And/Or/Xor, Sum/Max/Min/Mean, Where
}

}  // namespace cnnx
