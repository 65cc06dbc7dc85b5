// The checks every op's parse starts with, in one call.
#pragma once

#include <cstddef>
#include <initializer_list>

#include "engine/op.h"

namespace cnnx {

// In this order: min_inputs..max_inputs inputs, one output, and no attribute outside `attrs` (require_inputs,
// require_outputs, Attributes::allow_only), each failing with their messages.
void check_node(const Node& node, size_t min_inputs, size_t max_inputs, std::initializer_list<const char*> attrs);

// The parse of an op without attributes: kMinInputs..kMaxInputs inputs and one output (check_node).
template <size_t kMinInputs, size_t kMaxInputs>
NoParams parse_no_attributes(const Node& node) {
  check_node(node, kMinInputs, kMaxInputs, {});
  return {};
}

}  // namespace cnnx
