#include "ops/families.h"
#include "ops/pool/adaptive_pool.h"
#include "ops/pool/global_mean.h"
#include "ops/pool/pool.h"

namespace cnnx {

void register_pool_op_defs(OpRegistry& r);  // ops/pool/pool.cc

// The definitions of ops/pool/pool.cc, completed here: GlobalAveragePool runs the global mean kernel first
// (ops/pool/global_mean.h), AveragePool says when its settings are ones engines disagree on.
void register_pool_ops(OpRegistry& r) {
  OpRegistry defs;
  register_pool_op_defs(defs);
  for (const std::string& type : defs.names()) {
    OpDef d = defs.find("", type, kMaxOpset);
    if (type == "GlobalAveragePool") d.kernels.insert(d.kernels.begin(), global_mean_kernel());
    if (type == "AveragePool")
      d.caution = [](const OpParams& p, const std::vector<ValueInfo>& in) {
        return average_pool_caution(static_cast<const PoolParams&>(p), in);
      };
    r.add(std::move(d));
  }
  for (OpDef& d : adaptive_pool_ops()) r.add(std::move(d));
}

}  // namespace cnnx
