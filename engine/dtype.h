// Element types. The numeric values are ONNX's TensorProto.DataType so the importer maps them one to one.
//
// f16 (IEEE binary16) and bf16 (bfloat16) are storage types: tensors hold them (initializers, graph inputs and
// outputs, .npy files, the values between ops of a float16 model), Cast converts to and from them
// (engine/float16.h), and kernels that copy bytes by element size move them. Arithmetic kernels do not take
// them: visit_dtype refuses them with an error naming the type, and the load-time pass `float16-compute`
// (passes/float16_compute.cc) runs such ops in float32 between Casts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "error.h"

namespace cnnx {

enum class DType : int32_t {
  undefined = 0,
  f32 = 1,
  u8 = 2,
  i8 = 3,
  i32 = 6,
  i64 = 7,
  boolean = 9,
  f16 = 10,
  f64 = 11,
  bf16 = 16,
};

// True for the 16-bit float storage types (f16, bf16).
constexpr bool is_float16_family(DType t) { return t == DType::f16 || t == DType::bf16; }
// True for every floating-point element type (f32, f64, f16, bf16).
constexpr bool is_floating(DType t) { return t == DType::f32 || t == DType::f64 || is_float16_family(t); }

// Size in bytes of one element; 0 for undefined.
size_t dtype_size(DType t);
// "float32", "int64", ...
std::string dtype_name(DType t);
// Maps an ONNX TensorProto.DataType value; returns DType::undefined for types cnnx does not hold.
DType dtype_from_onnx(int32_t onnx_type);

// Calls f(T{}) with the C++ type of `t`; throws cnnx::Error for undefined and for the storage-only types
// (f16, bf16), whose values a kernel reads through engine/float16.h instead.
template <class F>
decltype(auto) visit_dtype(DType t, F&& f) {
  switch (t) {
    case DType::f32: return f(float{});
    case DType::f64: return f(double{});
    case DType::i64: return f(int64_t{});
    case DType::i32: return f(int32_t{});
    case DType::i8: return f(int8_t{});
    case DType::u8: return f(uint8_t{});
    case DType::boolean: return f(bool{});
    default: break;
  }
  fail("element type ", dtype_name(t), " (", int(t), ") is not supported here");
}

// visit_dtype for kernels that order or add their elements (ArgMax, TopK): bool is refused as well.
template <class F>
decltype(auto) visit_numeric_dtype(DType t, F&& f) {
  using R = decltype(f(float{}));
  return visit_dtype(t, [&](auto zero) -> R {
    if constexpr (std::is_same_v<decltype(zero), bool>)
      fail("element type bool is not supported");
    else
      return f(zero);
  });
}

template <class T> constexpr DType dtype_of();
template <> constexpr DType dtype_of<float>() { return DType::f32; }
template <> constexpr DType dtype_of<double>() { return DType::f64; }
template <> constexpr DType dtype_of<int64_t>() { return DType::i64; }
template <> constexpr DType dtype_of<int32_t>() { return DType::i32; }
template <> constexpr DType dtype_of<int8_t>() { return DType::i8; }
template <> constexpr DType dtype_of<uint8_t>() { return DType::u8; }
template <> constexpr DType dtype_of<bool>() { return DType::boolean; }

}  // namespace cnnx
