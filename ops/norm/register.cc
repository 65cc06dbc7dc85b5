#include "ops/families.h"
#include "ops/norm/batch_norm.h"
#include "ops/norm/group_norm.h"
#include "ops/norm/layer_norm.h"
#include "ops/norm/lp_normalization.h"
#include "ops/norm/lrn.h"
#include "ops/norm/mean_variance_normalization.h"

namespace cnnx {

void register_norm_ops(OpRegistry& r) {
  OpSpec<BatchNormParams> batch_norm{"BatchNormalization", 1, parse_batch_norm, infer_batch_norm, kBatchNormTolerance,
                                     {batch_norm_native_kernel(), batch_norm_dnnl_kernel(), ref_kernel(batch_norm_ref)}};
  batch_norm.hints.caution = batch_norm_caution;  // is_test = 0 before opset 7 is training mode
  r.add(batch_norm);
  r.add(OpSpec<LrnParams>{"LRN", 1, parse_lrn, infer_lrn, kLrnTolerance, {lrn_dnnl_kernel(), ref_kernel(lrn_ref)}});
  r.add(OpSpec<LayerNormParams>{"LayerNormalization", 17, parse_layer_norm, infer_layer_norm, kLayerNormTolerance,
                                {layer_norm_dnnl_kernel(), ref_kernel(layer_norm_ref)}});
  r.add(OpSpec<GroupNormParams>{"InstanceNormalization", 1, parse_instance_norm, infer_group_norm, kGroupNormTolerance,
                                {group_norm_dnnl_kernel(), ref_kernel(group_norm_ref)}});
  r.add(OpSpec<GroupNormParams>{"GroupNormalization", 18, parse_group_norm, infer_group_norm, kGroupNormTolerance,
                                {group_norm_dnnl_kernel(), ref_kernel(group_norm_ref)}});
  r.add(OpSpec<LpNormParams>{"LpNormalization", 1, parse_lp_norm, infer_lp_norm, kLpNormTolerance,
                             {ref_kernel(lp_norm_ref)}});
  r.add(OpSpec<MvnParams>{"MeanVarianceNormalization", 9, parse_mvn, infer_mvn, kMvnTolerance, {ref_kernel(mvn_ref)}});
}

}  // namespace cnnx
