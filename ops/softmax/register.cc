#include "ops/families.h"

namespace cnnx {

void register_softmax_op(OpRegistry& r);  // ops/softmax/softmax.cc

void register_softmax_ops(OpRegistry& r) { register_softmax_op(r); }

}  // namespace cnnx
