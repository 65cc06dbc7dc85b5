// RoundToFloat16 (domain cnnx.internal): each float32 element rounded to the nearest float16 (or bfloat16)
// value, ties to even, and kept as float32: what Cast(to float16) then Cast(to float32) computes, in one step
// with no 16-bit buffer between. Made only by the float16-compute lowering (passes/float16_compute.cc) for a
// value between two ops that compute in float32 (fuse-conv folds one after a Conv into FusedConvFloat16);
// never read from a model. Exact (kExact): one correctly rounded conversion and one exact widening per element
// (engine/float16.h). In a native bfloat16 plan the bf16 rounding stores its value in bfloat16 (dnnl/layouts.h).
#pragma once

#include <cstdint>
#include <cstring>

#include "engine/op.h"

namespace cnnx {

struct RoundToFloat16Params : OpParams {
  DType to = DType::f16;  // f16 or bf16
};

// Throws: the op is made by the lowering, which sets the params itself.
RoundToFloat16Params parse_round_to_float16(const Node& node);
std::vector<ValueInfo> infer_round_to_float16(const RoundToFloat16Params& p, const std::vector<ValueInfo>& in);
void round_to_float16_ref(const RoundToFloat16Params& p, const KernelIO& io);
// Elementwise over the buffer as it arrives (plain or blocked, padding included), in place, split among the
// step's threads (ops/cast/round_to_float16_native.cc).
Kernel<RoundToFloat16Params> round_to_float16_native_kernel();
// To bfloat16 in a native bfloat16 plan: the value stored in bfloat16 (ops/cast/round_to_bfloat16_storage.cc).
Kernel<RoundToFloat16Params> round_to_bfloat16_storage_kernel();
// The float32 elements both kernels sweep: those of `shape`, or of its buffer in a blocked float32 `layout`,
// padding included.
inline size_t float32_buffer_elements(const Layout& layout, const Shape& shape) {
  return is_plain(layout) ? size_t(checked_numel(shape)) : layout.desc()->bytes() / sizeof(float);
}

// True for a RoundToFloat16 node (the lowering's, in kInternalDomain).
bool is_round_to_float16(const Node& node);

// y[i] = x[i] rounded to `to` (f16 or bf16), for n elements; x and y may be the same array.
void round_to_float16(DType to, const float* x, float* y, size_t n);
// The bits of a float32 (bit_cast), and those rounded to bfloat16 as engine/float16.cc's conversion there and
// back rounds (ties to even, a carry past the largest finite value gives inf, NaN quieted with its sign), in
// the upper half: what round_to_float16 computes for bf16, branch-free so that loops over it vectorize.
inline uint32_t float_bits(float x) {
  uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
// The float32 value stored in bfloat16 `bits` (the upper half of its bits), exactly.
inline float bfloat16_bits_value(uint16_t bits) {
  const uint32_t b = uint32_t(bits) << 16;
  float x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
inline uint32_t bfloat16_rounded_bits(uint32_t b) {
  const uint32_t nearest = (b + 0x7fffu + ((b >> 16) & 1u)) & 0xffff0000u;
  const uint32_t quiet_nan = (b | 0x00400000u) & 0xffff0000u;
  return (b & 0x7fffffffu) > 0x7f800000u ? quiet_nan : nearest;
}
// y[i] = the bits of x[i] rounded to bfloat16 as round_to_float16 rounds, for n elements (bfloat16 storage,
// dnnl/layouts.h), and back: y[i] = x[i] widened, exactly. Branch-free loops the compiler vectorizes.
void float_to_bfloat16_bits(const float* x, uint16_t* y, size_t n);
void bfloat16_bits_to_float(const uint16_t* x, float* y, size_t n);
// A copy of the float32 tensor `t` with every element rounded to bfloat16 (kept as float32).
Tensor rounded_to_bfloat16(const Tensor& t);

}  // namespace cnnx
