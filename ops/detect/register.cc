// Detection heads' ops: NonMaxSuppression (exact: it selects and indexes) and RoiAlign.
#include "ops/detect/non_max_suppression.h"
#include "ops/detect/roi_align.h"
#include "ops/families.h"

namespace cnnx {

void register_detect_ops(OpRegistry& r) {
  OpSpec<NmsParams> nms{"NonMaxSuppression", 10, parse_nms, infer_nms, kExact, {ref_kernel(nms_ref)}};
  nms.hints.shapes_from_data = true;
  r.add(std::move(nms));
  r.add(OpSpec<RoiAlignParams>{"RoiAlign", 10, parse_roi_align, infer_roi_align, kRoiAlignTolerance,
                               {roi_align_native_kernel(), ref_kernel(roi_align_ref)}});
}

}  // namespace cnnx
