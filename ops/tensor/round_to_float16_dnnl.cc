// RoundToFloat16 to bfloat16 in a native bfloat16 plan: the value is stored in bfloat16 (dnnl/layouts.h), in the
// arrangement it arrives in, by one oneDNN reorder (to nearest even, as the reference rounds); a value its
// producer stored in bfloat16 already is viewed as it is (rounding is idempotent). Elsewhere it declines: float32
// storage is the native kernel's.
#include "dnnl/dnnl_runtime.h"
#include "ops/tensor/round_to_float16.h"

namespace cnnx {

namespace {

Compiled compile_round_dnnl(const std::shared_ptr<const RoundToFloat16Params>& p, const KernelArgs& a) {
  if (p->to != DType::bf16 || a.context.precision != Precision::bf16)
    return Compiled::decline("stores float32: bfloat16 storage is for native bfloat16 plans");
  if (a.in[0].dtype != DType::f32) return Compiled::decline("input 0 is not float32");
  const Layout& arriving = a.offered.in[0];
  const Layout stored = stores_bfloat16(arriving) ? arriving : bfloat16_layout(arriving, a.in[0].shape);
  return make_reorder(arriving, stored, a.in[0].shape);
}

}  // namespace

Kernel<RoundToFloat16Params> round_to_float16_dnnl_kernel() { return {"dnnl", compile_round_dnnl}; }

}  // namespace cnnx
