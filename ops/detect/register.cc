// Detection heads' ops: NonMaxSuppression. Exact: they select and index.
#include "ops/detect/non_max_suppression.h"
#include "ops/families.h"

namespace cnnx {

void register_detect_ops(OpRegistry& r) {
  OpSpec<NmsParams> nms{"NonMaxSuppression", 10, parse_nms, infer_nms, kExact, {ref_kernel(nms_ref)}};
  nms.hints.shapes_from_data = true;
  r.add(std::move(nms));
}

}  // namespace cnnx
