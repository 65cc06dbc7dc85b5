// What is known about a value before it is computed: element type, shape and, for constants, the data.
#pragma once

#include <memory>

#include "engine/tensor.h"

namespace cnnx {

struct ValueInfo {
  DType dtype = DType::undefined;
  Shape shape;              // dims may be kUnknownDim at load time
  bool rank_known = false;  // false: nothing is known about the shape
  std::shared_ptr<const Tensor> constant;  // the data, when known before running

  static ValueInfo of(DType dtype, Shape shape) { return {dtype, std::move(shape), true, nullptr}; }
  static ValueInfo of(const Tensor& t) { return {t.dtype(), t.shape(), true, std::make_shared<Tensor>(t)}; }
  static ValueInfo unknown(DType dtype) { return {dtype, {}, false, nullptr}; }
  int64_t rank() const { return int64_t(shape.size()); }
  bool concrete() const { return rank_known && is_concrete(shape); }
};

}  // namespace cnnx
