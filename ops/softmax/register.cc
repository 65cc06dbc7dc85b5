#include "ops/families.h"
#include "ops/softmax/softmax.h"

namespace cnnx {

void register_softmax_ops(OpRegistry& r) {
  r.add(OpSpec<SoftmaxParams>{"Softmax", 1, parse_softmax, infer_softmax, kSoftmaxTolerance,
                              {softmax_dnnl_kernel(), ref_kernel(softmax_ref)}});
  r.add(OpSpec<SoftmaxParams>{"LogSoftmax", 1, parse_log_softmax, infer_softmax, kLogSoftmaxTolerance,
                              {softmax_dnnl_kernel(), ref_kernel(softmax_ref)}});
  // No oneDNN kernel: oneDNN 2.6 has no argmax or one-hot primitive.
  r.add(OpSpec<SoftmaxParams>{"Hardmax", 1, parse_hardmax, infer_softmax, kHardmaxTolerance,
                              {ref_kernel(softmax_ref)}});
}

}  // namespace cnnx
