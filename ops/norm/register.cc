#include "ops/families.h"
#include "ops/norm/batch_norm.h"
#include "ops/norm/lrn.h"

namespace cnnx {

void register_norm_ops(OpRegistry& r) {
  r.add(OpSpec<BatchNormParams>{"BatchNormalization", 7, parse_batch_norm, infer_batch_norm, kBatchNormTolerance,
                                {batch_norm_dnnl_kernel(), ref_kernel<BatchNormParams>(batch_norm_ref)}});
  r.add(OpSpec<LrnParams>{"LRN", 1, parse_lrn, infer_lrn, kLrnTolerance,
                          {lrn_dnnl_kernel(), ref_kernel<LrnParams>(lrn_ref)}});
}

}  // namespace cnnx
