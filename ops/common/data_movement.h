// What the ops that move elements share (ops/tensor, ops/index, and some of ops/reduce and ops/norm): moving
// elements of any type as bits, reading integer arguments, axis lists and dim arithmetic that tolerates dims
// still unknown at load time (kUnknownDim).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/op.h"
#include "ops/common/node_checks.h"

namespace cnnx {

// Calls f(U{}) with an unsigned integer type as wide as one element of type `t`. Shape ops move elements
// without looking at them, so every element type is copied as bits (bool included: a stored bool byte that
// is neither 0 nor 1 is never loaded as a C++ bool).
template <class F>
decltype(auto) visit_bits(DType t, F&& f) {
  switch (dtype_size(t)) {
    case 1: return f(uint8_t{});
    case 2: return f(uint16_t{});
    case 4: return f(uint32_t{});
    case 8: return f(uint64_t{});
    default: break;
  }
  fail("element type ", dtype_name(t), " cannot be copied");
}

// The `axis` attribute (default 0) of a node with `inputs` inputs, one output and no other attribute (Gather,
// GatherElements), after check_node.
int64_t parse_axis_node(const Node& node, size_t inputs);

// The values of an int32/int64 scalar or 1-D tensor (a kernel's shape argument); empty for nullptr.
std::vector<int64_t> ints_of(const Tensor* t, const char* what);

// Copies every byte of `in` into `out` (a new shape for the same elements). Throws unless the sizes match.
void copy_bytes(const Tensor& in, Tensor& out);

// dst (contiguous, shape `shape`) = src[base + sum_a idx[a] * strides[a]], elements of `t`.
// Strides are in elements and may be negative (Slice with negative steps); the caller guarantees every
// address read lies inside src.
void strided_copy(DType t, const void* src, int64_t base, const std::vector<int64_t>& strides, void* dst,
                  const Shape& shape);

// Each axis mapped into [0, rank); throws naming `what` for an axis out of range or given twice.
std::vector<int64_t> normalize_axes(const std::vector<int64_t>& axes, int64_t rank, const char* what);

// Product of dims [begin, end): kUnknownDim when one of them is unknown (and none is 0); overflow-checked.
int64_t product_or_unknown(const Shape& shape, size_t begin, size_t end);

// Every dim of a rank-`rank` shape unknown: what infer says when a shape argument is not known yet.
inline ValueInfo unknown_dims(DType dtype, int64_t rank) {
  return ValueInfo::of(dtype, Shape(size_t(rank), kUnknownDim));
}

}  // namespace cnnx
