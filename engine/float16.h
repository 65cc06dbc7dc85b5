// The 16-bit float storage types: IEEE 754 binary16 (float16, ONNX FLOAT16) and bfloat16 (ONNX BFLOAT16),
// and their exact conversions to and from float32/float64.
//
// Contract (what ONNX's Cast specifies, and numpy/ONNX Runtime do):
//   to 16 bits     round to nearest, ties to even, in one rounding from the source value (a float64 source is
//                  rounded once, not through float32); magnitudes that round beyond the largest finite value
//                  give +-inf (float16: |x| >= 65520); subnormal results are produced (float16 down to 2^-24,
//                  bfloat16 down to 2^-133); +-0 keeps its sign; NaN stays a quiet NaN with its sign and the
//                  top bits of its payload.
//   from 16 bits   exact (every float16 and bfloat16 value is a float32 value).
// Tensors of these types hold the raw bit patterns (little-endian uint16), as ONNX raw_data stores them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/dtype.h"

namespace cnnx {

// One stored element; no arithmetic on purpose (compute in float32 and round back with the functions below).
struct float16 {
  uint16_t bits;
};
struct bfloat16 {
  uint16_t bits;
};
static_assert(sizeof(float16) == 2 && sizeof(bfloat16) == 2, "16-bit floats are stored as 2 bytes");

template <> constexpr DType dtype_of<float16>() { return DType::f16; }
template <> constexpr DType dtype_of<bfloat16>() { return DType::bf16; }

float float16_to_float(uint16_t bits);
float bfloat16_to_float(uint16_t bits);
uint16_t float_to_float16(float x);
uint16_t float_to_bfloat16(float x);
uint16_t double_to_float16(double x);
uint16_t double_to_bfloat16(double x);

// Whole arrays (n elements); `dtype` is DType::f16 or DType::bf16, else cnnx::Error.
void float16_family_to_float(DType dtype, const uint16_t* src, float* dst, size_t n);
void float_to_float16_family(DType dtype, const float* src, uint16_t* dst, size_t n);

}  // namespace cnnx
