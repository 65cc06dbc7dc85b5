#include "ops/families.h"
#include "ops/reduce/reduce_mean.h"

namespace cnnx {

void register_reduce_ops(OpRegistry& r) {
  r.add(OpSpec<ReduceMeanParams>{"ReduceMean", 1, parse_reduce_mean, infer_reduce_mean, kReduceMeanTolerance,
                                 {ref_kernel<ReduceMeanParams>(reduce_mean_ref)}});
}

}  // namespace cnnx
