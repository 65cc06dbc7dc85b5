#include "ops/families.h"
#include "ops/softmax/softmax.h"

namespace cnnx {

void register_softmax_ops(OpRegistry& r) {
  r.add(OpSpec<SoftmaxParams>{"Softmax", 1, parse_softmax, infer_softmax, kSoftmaxTolerance,
                              {softmax_dnnl_kernel(), ref_kernel<SoftmaxParams>(softmax_ref)}});
}

}  // namespace cnnx
