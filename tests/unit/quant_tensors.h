// Tensors for the quantized ops' tests (kernel_cases_quant_test.cc, quant_test.cc): int8/uint8/int32 data,
// random or given, and float32 scales.
#pragma once

#include <random>
#include <vector>

#include "tests/unit/op_harness.h"

namespace cnnx::testing {

// A tensor of `type` (int8, uint8 or int32) and `shape` holding `values` (converted).
inline Tensor typed_tensor(DType type, Shape shape, const std::vector<int64_t>& values) {
  Tensor t(type, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) {
    const int64_t v = values.at(size_t(i));
    if (type == DType::u8) t.data<uint8_t>()[i] = uint8_t(v);
    else if (type == DType::i8) t.data<int8_t>()[i] = int8_t(v);
    else t.data<int32_t>()[i] = int32_t(v);
  }
  return t;
}

// Random values of `type` over its whole range (int32: [-2^20, 2^20], a bias's size), seeded.
inline Tensor random_quantized(DType type, Shape shape, uint32_t seed) {
  std::mt19937 gen(seed);
  const int64_t lo = type == DType::u8 ? 0 : type == DType::i8 ? -128 : -(1 << 20);
  const int64_t hi = type == DType::u8 ? 255 : type == DType::i8 ? 127 : (1 << 20);
  std::uniform_int_distribution<int64_t> dist(lo, hi);
  std::vector<int64_t> v(size_t(checked_numel(shape)));
  for (int64_t& x : v) x = dist(gen);
  return typed_tensor(type, std::move(shape), v);
}

// A float32 scalar (shape []) or 1-D tensor.
inline Tensor scalar_f32(float v) { return make_tensor({}, {v}); }
inline Tensor floats_1d(std::vector<float> v) { return make_tensor({int64_t(v.size())}, v); }
// A zero point: a scalar of `type`, or 1-D.
inline Tensor zero_point(DType type, int64_t v) { return typed_tensor(type, {}, {v}); }
inline Tensor zero_points(DType type, std::vector<int64_t> v) { return typed_tensor(type, {int64_t(v.size())}, v); }

}  // namespace cnnx::testing
