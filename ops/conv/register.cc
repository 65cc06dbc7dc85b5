#include "ops/conv/conv.h"
#include "ops/conv/fused_conv.h"
#include "ops/families.h"

namespace cnnx {

void register_conv_ops(OpRegistry& r) {
  OpDef conv;
  conv.type = "Conv";
  conv.since = 1;  // opsets 1, 11 differ only in documentation and type constraints for float32
  conv.parse = parser<ConvParams>(parse_conv);
  conv.infer = inferer<ConvParams>(infer_conv);
  conv.tolerance = kConvTolerance;
  conv.kernels = {conv_dnnl_kernel(), conv_ref_kernel()};
  r.add(std::move(conv));
  register_fused_conv(r);
}

}  // namespace cnnx
