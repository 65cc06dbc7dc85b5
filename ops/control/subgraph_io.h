// What If and Loop share: reading their one-element boolean and integer inputs, the body's outputs copied
// into the node's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/op.h"

namespace cnnx {

// Throws unless `v` (when its shape is known) is one element of `dtype`: a condition or a trip count.
void require_one_element(const ValueInfo& v, DType dtype, const std::string& what);
// The value of a one-element bool tensor (any nonzero byte is true).
bool condition_value(const Tensor& t);
// Copies every byte of `from` into `to` at byte `offset` (to.bytes() - offset >= from.bytes(), checked).
void copy_into(const Tensor& from, Tensor& to, size_t offset = 0);

}  // namespace cnnx
