#include "ops/eltwise/binary.h"
#include "ops/eltwise/is_nan_inf.h"
#include "ops/eltwise/prelu.h"
#include "ops/eltwise/unary.h"
#include "ops/families.h"

namespace cnnx {

void register_eltwise_ops(OpRegistry& r) {
  register_unary_ops(r);   // one op per activation-table row, and Clip
  register_binary_ops(r);  // Add, Sub, Mul, Div, Pow, Mod, comparisons, And/Or/Xor, Sum/Max/Min/Mean, Where
  // Opsets 1, 6, 7, 9 and 16 differ in type constraints and the legacy consumed_inputs (ops/eltwise/prelu.h).
  OpSpec<PReluParams> prelu{"PRelu", 1, parse_prelu, infer_prelu, kPReluTolerance,
                            {prelu_dnnl_kernel(), ref_kernel(prelu_ref)}};
  prelu.hints.caution = prelu_caution;  // a per-channel slope below opset 7 (ops/eltwise/prelu.h)
  r.add(std::move(prelu));
  r.add(OpSpec<IsNanInfParams>{"IsNaN", 9, parse_is_nan, infer_is_nan_inf, kExact, {ref_kernel(is_nan_inf_ref)}});
  r.add(OpSpec<IsNanInfParams>{"IsInf", 10, parse_is_inf, infer_is_nan_inf, kExact, {ref_kernel(is_nan_inf_ref)}});
}

}  // namespace cnnx
