// RoundToFloat16 (cnnx.internal): shape inference and the rounding both kernels call.
#include "ops/tensor/round_to_float16.h"

#include <algorithm>
#include <cstdint>

#include "engine/float16.h"

namespace cnnx {

RoundToFloat16Params parse_round_to_float16(const Node&) {
  fail("RoundToFloat16 is made by cnnx's float16-compute lowering, not read from models");
}

std::vector<ValueInfo> infer_round_to_float16(const RoundToFloat16Params& p, const std::vector<ValueInfo>& in) {
  require(is_float16_family(p.to), "rounds to float16 or bfloat16, not ", dtype_name(p.to));
  require_dtype(in, 0, {DType::f32});
  return {same_as_input(in)};
}

void round_to_float16(DType to, const float* x, float* y, size_t n) {
  constexpr size_t kChunk = 1024;  // the 16-bit values of one chunk, on the stack
  uint16_t narrow[kChunk];
  for (size_t i = 0; i < n; i += kChunk) {
    const size_t m = std::min(kChunk, n - i);
    float_to_float16_family(to, x + i, narrow, m);
    float16_family_to_float(to, narrow, y + i, m);
  }
}

}  // namespace cnnx
