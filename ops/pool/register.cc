#include "ops/families.h"
#include "ops/pool/adaptive_pool.h"
#include "ops/pool/pool.h"

namespace cnnx {

void register_pool_ops(OpRegistry& r) {
  for (OpDef& d : pool_ops()) r.add(std::move(d));           // ops/pool/pool.cc
  for (OpDef& d : adaptive_pool_ops()) r.add(std::move(d));  // ops/pool/adaptive_pool.cc
}

}  // namespace cnnx
