// Attribute values written in code, for the lab's graphs (engine/attributes.h holds what the importer reads,
// and int_attr / float_attr / string_attr).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/attributes.h"

namespace cnnx::lab {

inline Attribute ints_attr(std::vector<int64_t> v) {
  Attribute a;
  a.kind = Attribute::Kind::ints;
  a.ints = std::move(v);
  return a;
}

}  // namespace cnnx::lab
