// RoiAlign: the reference kernel (the oracle the native kernel is checked against): on the calling thread.
#include "ops/detect/roi_align.h"

namespace cnnx {

void roi_align_ref(const RoiAlignParams& p, const KernelIO& io) { roi_align_run(p, io, false); }

}  // namespace cnnx
