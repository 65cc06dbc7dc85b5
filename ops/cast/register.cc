// The cast family: element type conversions. Cast and CastLike convert each element with one correctly
// rounded (or exact) IEEE operation (cast.h), so they are exact (kExact) against their own definition; so is
// cnnx.internal RoundToFloat16, the rounding the reduced-precision lowerings insert.
#include "ops/families.h"
#include "ops/cast/cast.h"
#include "ops/cast/cast_like.h"
#include "ops/cast/round_to_float16.h"

namespace cnnx {

void register_cast_ops(OpRegistry& r) {
  r.add(OpSpec<CastParams>{"Cast", 1, parse_cast, infer_cast, kExact, {ref_kernel(cast_ref)}});
  r.add(OpSpec<NoParams>{"CastLike", 15, parse_cast_like, infer_cast_like, kExact, {ref_kernel(cast_like_ref)}});
  // Made only by the float16-compute lowering (passes/float16_compute.cc), never read from a model.
  OpSpec<RoundToFloat16Params> round{"RoundToFloat16", 1, parse_round_to_float16, infer_round_to_float16, kExact,
                                     {round_to_bfloat16_storage_kernel(), round_to_float16_native_kernel(), ref_kernel(round_to_float16_ref)}};
  round.domain = kInternalDomain;
  r.add(std::move(round));
}

}  // namespace cnnx
