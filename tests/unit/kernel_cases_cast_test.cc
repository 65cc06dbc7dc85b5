// Kernel cases of the cast family (ops/cast): Cast, CastLike and cnnx.internal RoundToFloat16 (ops/families.h).
// Each case runs every kernel of its op against the op's reference kernel; tests/unit/kernel_cases.h says how,
// and how a table is registered.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "ops/cast/round_to_float16.h"
#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

std::vector<KernelCase> cast_cases() {
  std::vector<KernelCase> cases;
  const Tensor ints3 = make_int_tensor({2, 3}, {1, -2, 3, -4, 5, -6});
  cases.push_back(KernelCase("Cast", 13, "float32 to int64").attr("to", int_attr(7))
                      .in(given(special_values(true))));
  cases.push_back(KernelCase("Cast", 13, "float32 to float64").attr("to", int_attr(11)).in(random_in({3, 4})));
  cases.push_back(KernelCase("Cast", 13, "int64 to float32").attr("to", int_attr(1)).in(given(ints3)));
  cases.push_back(KernelCase("Cast", 13, "float32 to float16").attr("to", int_attr(10))
                      .in(given(special_values(true))));
  cases.push_back(KernelCase("Cast", 13, "float32 to bfloat16").attr("to", int_attr(16)).in(random_in({3, 4})));
  cases.push_back(KernelCase("CastLike", 15, "float32 like int64").in(random_in({3, 4}, -9, 9)).in(given(ints3)));
  cases.push_back(KernelCase("Cast", 1, "to 'INT32'").attr("to", string_attr("INT32")).in(random_in({2, 3}, -5, 5)));
  cases.push_back(KernelCase("Cast", 5, "to 'DOUBLE'").attr("to", string_attr("DOUBLE")).in(random_in({3})));
  return cases;
}

std::vector<KernelCase> round_cases() {
  std::vector<KernelCase> cases;
  // RoundToFloat16 is made by the float16-compute lowering (passes/float16_compute.cc), never parsed.
  auto round = [](const char* what, DType to) {
    return KernelCase("RoundToFloat16", 1, what).in_domain(kInternalDomain)
        .params(dtype_name(to), [to](const Node&) -> ParamsPtr {
          auto p = std::make_shared<RoundToFloat16Params>();
          p->to = to;
          return p;
        });
  };
  // bf16_storage stores bfloat16 in native bfloat16 plans only (ops/cast/round_to_bfloat16_storage.cc).
  const std::string float32_storage = "bfloat16 storage is for native bfloat16 plans";
  // Ties to even, the overflow edge (65504 is float16's max; 65520 rounds to inf), subnormals and their ties,
  // signed zeros, infinities and NaNs with payloads (quiet and signalling): the vector path against the scalar.
  const float qnan = std::nanf("0x1234"), snan = std::numeric_limits<float>::signaling_NaN();
  const Tensor special = make_tensor(
      {19}, {1.f + 0x1p-11f, 1.f + 0x3p-11f, 65504.f, 65519.f, 65520.f, -65520.f, 0x1p-24f, 0x1p-25f, 0x3p-25f,
             0x1p-26f, -0x1p-25f, 0.f, -0.f, INFINITY, -INFINITY, qnan, -qnan, snan, 1e-40f});
  for (DType to : {DType::f16, DType::bf16}) {
    cases.push_back(round("4-D", to).in(random_in({2, 3, 5, 7}, -3.f, 3.f)).runs("native", Takes::offered)
                        .declines("bf16_storage", float32_storage));
    cases.push_back(round("beyond float16's range: inf", to).in(random_in({3, 700}, -1e5f, 1e5f))
                        .declines("bf16_storage", float32_storage));
    cases.push_back(round("float16 subnormals", to).in(random_in({40000}, -1e-6f, 1e-6f)).declines("bf16_storage", float32_storage));
    cases.push_back(round("nChw8c through (padded channels)", to).in(random_in({1, 13, 4, 5}).blocked())
                        .runs("native", Takes::offered_through).declines("bf16_storage", float32_storage));
    cases.push_back(round("empty", to).in(random_in({2, 0, 3})).declines("bf16_storage", float32_storage));
    cases.push_back(round("special values", to).in(given(special)).declines("bf16_storage", float32_storage));
  }
  // In a native bfloat16 plan: stored in bfloat16 in the arrangement it arrives in, or viewed when it arrives so.
  const DType bf16 = DType::bf16;
  cases.push_back(round("native bf16: 4-D", bf16).native_bfloat16().in(random_in({2, 3, 5, 7}, -3.f, 3.f))
                      .runs("bf16_storage", Takes::offered));
  cases.push_back(round("native bf16: nChw16c (padded channels)", bf16).native_bfloat16()
                      .in(random_in({1, 13, 4, 5}).blocked()).runs("bf16_storage"));
  cases.push_back(round("native bf16: beyond bfloat16's range", bf16).native_bfloat16()
                      .in(random_in({3, 700}, -3e38f, 3e38f)));
  cases.push_back(round("native bf16: special values", bf16).native_bfloat16().in(given(special)));
  cases.push_back(round("native bf16: arrives stored in bfloat16", bf16).native_bfloat16()
                      .in(random_in({2, 3, 5, 7}).stored_bfloat16()).runs("bf16_storage", Takes::offered_through)
                      .declines("native", "arrives stored in bfloat16")
                      .without_special_values(kStoredBfloat16FlushesSubnormals));
  return cases;
}

}  // namespace

KERNEL_CASES("Cast, CastLike", cast_cases)
KERNEL_CASES("RoundToFloat16", round_cases)
