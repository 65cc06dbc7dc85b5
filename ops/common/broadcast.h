// ONNX multidirectional (numpy-style) broadcasting: shape rule and an element loop over broadcast inputs.
#pragma once

#include <vector>

#include "engine/shape.h"
#include "engine/tensor.h"

namespace cnnx {

// The broadcast shape of `shapes` (right-aligned; each dim pair equal, or one of them 1). Unknown dims stay
// unknown unless another input fixes them. Throws when two known dims differ and neither is 1.
Shape broadcast_shapes(const std::vector<Shape>& shapes);

// Strides (in elements) for reading a tensor of shape `in` as if it had shape `out` (0 on broadcast dims).
std::vector<int64_t> broadcast_strides(const Shape& in, const Shape& out);

// Calls f(out_index, offset_0, offset_1, ...) for every element of `out_shape`, where offset_k is the
// element of input k that broadcasts to it. Row-major order.
template <size_t N, class F>
void for_each_broadcast(const Shape& out_shape, const std::vector<std::vector<int64_t>>& strides, F f) {
  const size_t rank = out_shape.size();
  const int64_t total = checked_numel(out_shape);
  if (total == 0) return;
  std::vector<int64_t> index(rank, 0);
  int64_t offset[N] = {};
  const int64_t inner = rank ? out_shape[rank - 1] : 1;
  int64_t inner_stride[N];
  for (size_t k = 0; k < N; ++k) inner_stride[k] = rank ? strides[k][rank - 1] : 0;
  for (int64_t o = 0; o < total; o += inner) {
    int64_t off[N];
    for (size_t k = 0; k < N; ++k) off[k] = offset[k];
    for (int64_t j = 0; j < inner; ++j) {
      f(o + j, off);
      for (size_t k = 0; k < N; ++k) off[k] += inner_stride[k];
    }
    // Advance the outer index (all dims but the last), carrying like an odometer.
    for (size_t d = rank ? rank - 1 : 0; d-- > 0;) {
      for (size_t k = 0; k < N; ++k) offset[k] += strides[k][d];
      if (++index[d] < out_shape[d]) break;
      for (size_t k = 0; k < N; ++k) offset[k] -= strides[k][d] * out_shape[d];
      index[d] = 0;
    }
  }
}

}  // namespace cnnx
