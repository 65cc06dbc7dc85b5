// RoundToFloat16 to bfloat16 in a native bfloat16 plan (the "bf16_storage" kernel): the value stored in bfloat16
// (dnnl/layouts.h) in the arrangement it arrives in, element for element (padding included: a blocked layout
// and its bfloat16 twin have the same elements), rounded as the reference rounds; threads take contiguous
// chunks. A value its producer stored in bfloat16 already is viewed as it is (rounding is idempotent).
// Elsewhere it declines: float32 storage is the native kernel's.
#include "dnnl/layouts.h"
#include "ops/cast/round_to_float16.h"
#include "ops/common/chunks.h"

namespace cnnx {

namespace {

class StoreBfloat16 final : public CompiledKernel {
 public:
  StoreBfloat16(const Layout& in, const Layout& out, size_t elements) : layouts_{{in}, {out}}, elements_(elements) {}

  void run(const KernelIO& io) const override {
    const float* x = static_cast<const float*>(io.in[0]->raw());
    uint16_t* y = static_cast<uint16_t*>(io.out[0]->raw());
    for_each_chunk(int64_t(elements_),
                   [&](int64_t begin, int64_t n) { float_to_bfloat16_bits(x + begin, y + begin, size_t(n)); });
  }
  const KernelLayouts* layouts() const override { return &layouts_; }

 private:
  KernelLayouts layouts_;
  size_t elements_;  // in the buffer, padding included
};

Compiled compile_store_bfloat16(const std::shared_ptr<const RoundToFloat16Params>& p, const KernelArgs& a) {
  if (p->to != DType::bf16 || a.context.precision != Precision::bf16)
    return Compiled::decline("stores float32: bfloat16 storage is for native bfloat16 plans");
  if (a.in[0].dtype != DType::f32) return Compiled::decline("input 0 is not float32");
  const Layout& arriving = a.offered.in[0];
  const Shape& shape = a.in[0].shape;
  if (stores_bfloat16(arriving)) return make_reorder(arriving, arriving, shape);  // a view
  return std::make_unique<StoreBfloat16>(arriving, bfloat16_layout(arriving, shape),
                                         float32_buffer_elements(arriving, shape));
}

}  // namespace

Kernel<RoundToFloat16Params> round_to_bfloat16_storage_kernel() { return {"bf16_storage", compile_store_bfloat16}; }

}  // namespace cnnx
