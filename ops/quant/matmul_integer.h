// MatMulInteger (opset 10): Y int32 = (A - a_zero_point) (B - b_zero_point), numpy matmul (ops/gemm/matmul.h)
// of A and B (int8/uint8). a_zero_point (A's type) is one value or one per row of A ([M], per-row
// quantization); b_zero_point (B's type) one value or one per column of B ([N]); omitted: 0. Sums exact in
// int64, stored as int32 (ops/quant/integer_matmul.h; wrapping as ConvInteger's do). Exact (kExact).
#pragma once

#include "engine/op.h"

namespace cnnx {

std::vector<ValueInfo> infer_matmul_integer(const NoParams& p, const std::vector<ValueInfo>& in);
void matmul_integer_ref(const NoParams& p, const KernelIO& io);

// A zero point input's values (one, or one per row or column), checked against `count` rows or columns; {0}
// when omitted.
std::vector<int64_t> zero_points_of(const Tensor* zp, int64_t count, const char* name);

}  // namespace cnnx
