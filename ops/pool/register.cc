// The pooling family: AveragePool, MaxPool, GlobalAveragePool, GlobalMaxPool (ops/pool/pool.h) and PyTorch's
// adaptive average pooling (ops/pool/adaptive_pool.h).
#include "ops/common/node_checks.h"
#include "ops/families.h"
#include "ops/pool/adaptive_pool.h"
#include "ops/pool/global_mean.h"
#include "ops/pool/max_unpool.h"
#include "ops/pool/pool.h"

namespace cnnx {

void register_pool_ops(OpRegistry& r) {
  // AveragePool warns at load about settings engines disagree on (ops/pool/pool_caution.cc).
  OpSpec<PoolParams> average_pool{"AveragePool", 1, parse_average_pool, infer_pool, kPoolAverageTolerance,
                                  {pool_dnnl_kernel(), pool_ref_kernel()}};
  average_pool.hints.caution = average_pool_caution;
  r.add(std::move(average_pool));
  r.add(OpSpec<PoolParams>{"MaxPool", 1, parse_max_pool, infer_pool, kExact,
                           {max_pool_native_kernel(), pool_dnnl_kernel(), pool_ref_kernel()}});
  // The bandwidth-bound, deterministic mean (ops/pool/global_mean.h) before oneDNN's pooling.
  r.add(OpSpec<NoParams>{"GlobalAveragePool", 1, parse_no_attributes<1, 1>, infer_global_average_pool, kPoolAverageTolerance,
                         {global_mean_kernel(), global_pool_dnnl_kernel(false),
                          ref_kernel(global_average_pool_ref)}});
  r.add(OpSpec<NoParams>{"GlobalMaxPool", 1, parse_no_attributes<1, 1>, infer_global_max_pool, kExact,
                         {global_pool_dnnl_kernel(true), ref_kernel(global_max_pool_ref)}});
  // Y's shape may come from output_shape's data: an int64 graph input there is planned with its data.
  r.add(OpSpec<MaxUnpoolParams>{"MaxUnpool", 9, parse_max_unpool, infer_max_unpool, kExact,
                                {ref_kernel(max_unpool_ref)}});

  // org.pytorch.aten, opset import version 1.
  OpSpec<AdaptivePoolParams> adaptive1{"adaptive_avg_pool1d", 1, parse_adaptive_avg_pool1d, infer_adaptive_pool,
                                       kPoolAverageTolerance, {adaptive_pool_kernel(), adaptive_pool_ref_kernel()}};
  adaptive1.domain = kAtenDomain;
  r.add(std::move(adaptive1));
  OpSpec<AdaptivePoolParams> adaptive2{"adaptive_avg_pool2d", 1, parse_adaptive_avg_pool2d, infer_adaptive_pool,
                                       kPoolAverageTolerance, {adaptive_pool_kernel(), adaptive_pool_ref_kernel()}};
  adaptive2.domain = kAtenDomain;
  r.add(std::move(adaptive2));
  OpSpec<AdaptivePoolParams> adaptive3{"adaptive_avg_pool3d", 1, parse_adaptive_avg_pool3d, infer_adaptive_pool,
                                       kPoolAverageTolerance, {adaptive_pool_kernel(), adaptive_pool_ref_kernel()}};
  adaptive3.domain = kAtenDomain;
  r.add(std::move(adaptive3));
}

}  // namespace cnnx
