// RoiAlign: the native kernel, the reference's arithmetic with each chunk's R x C output planes split over the
// team (Faster R-CNN's box head pools hundreds of RoIs of 256 channels each).
#include "ops/detect/roi_align.h"

namespace cnnx {

namespace {

class RoiAlignNative final : public CompiledKernel {
 public:
  explicit RoiAlignNative(std::shared_ptr<const RoiAlignParams> p) : p_(std::move(p)) {}
  void run(const KernelIO& io) const override { roi_align_run(*p_, io, true); }

 private:
  std::shared_ptr<const RoiAlignParams> p_;
};

Compiled compile_roi_align_native(const std::shared_ptr<const RoiAlignParams>& p, const KernelArgs& a) {
  for (size_t i = 0; i < 3; ++i)
    if (!a.in[i].concrete()) return Compiled::decline("input " + std::to_string(i) + " has no concrete shape");
  return std::make_unique<RoiAlignNative>(p);
}

}  // namespace

Kernel<RoiAlignParams> roi_align_native_kernel() { return {"native", compile_roi_align_native}; }

}  // namespace cnnx
