#include "ops/families.h"
#include "ops/reduce/reduce_mean.h"

namespace cnnx {

void register_reduce_ops(OpRegistry& r) {
  OpDef mean;
  mean.type = "ReduceMean";
  mean.since = 1;
  mean.parse = parser<ReduceMeanParams>(parse_reduce_mean);
  mean.infer = inferer<ReduceMeanParams>(infer_reduce_mean);
  mean.tolerance = kReduceMeanTolerance;
  mean.kernels = {ref_kernel<ReduceMeanParams>(reduce_mean_ref)};
  r.add(std::move(mean));
}

}  // namespace cnnx
