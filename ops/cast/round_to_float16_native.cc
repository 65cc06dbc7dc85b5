// RoundToFloat16: the native kernel. Elementwise, so it takes its input in the layout it arrives in (a
// convolution's channel-blocked output needs no reorder on either side) and rounds the whole buffer,
// padding included (zeros stay zeros), in place when the plan allows; threads take contiguous chunks.
#include "dnnl/layouts.h"
#include "ops/cast/round_to_float16.h"
#include "ops/common/chunks.h"

namespace cnnx {

namespace {

class RoundNative final : public CompiledKernel {
 public:
  RoundNative(DType to, const Layout& layout, size_t elements)
      : to_(to), layouts_{{layout}, {layout}}, elements_(elements) {}

  void run(const KernelIO& io) const override {
    const float* x = static_cast<const float*>(io.in[0]->raw());
    float* y = static_cast<float*>(io.out[0]->raw());
    for_each_chunk(int64_t(elements_),
                   [&](int64_t begin, int64_t n) { round_to_float16(to_, x + begin, y + begin, size_t(n)); });
  }
  const KernelLayouts* layouts() const override { return &layouts_; }
  int in_place_input() const override { return 0; }

 private:
  DType to_;
  KernelLayouts layouts_;
  size_t elements_;  // in the buffer, padding included
};

Compiled compile_round_native(const std::shared_ptr<const RoundToFloat16Params>& p, const KernelArgs& a) {
  if (a.in[0].dtype != DType::f32) return Compiled::decline("input 0 is not float32");
  const Layout& arriving = a.offered.in[0];
  if (stores_bfloat16(arriving)) return Compiled::decline("input 0 arrives stored in bfloat16, not float32");
  return std::make_unique<RoundNative>(p->to, arriving, float32_buffer_elements(arriving, a.in[0].shape));
}

}  // namespace

Kernel<RoundToFloat16Params> round_to_float16_native_kernel() { return {"native", compile_round_native}; }

}  // namespace cnnx
