// Comparing a kernel's output with the reference: the rule every check in cnnx uses (verify mode,
// `cnnx check`, node tests). Element i passes when |got - want| <= abs + rel * |want|; NaN must meet NaN
// and an infinity the same infinity.
#pragma once

#include <string>

#include "engine/op.h"
#include "engine/tensor.h"

namespace cnnx {

struct Difference {
  bool within = true;        // every element within tolerance (and shapes and types equal)
  double max_abs = 0;        // max |got - want| over finite pairs
  double max_rel = 0;        // max |got - want| / |want| over finite pairs with want != 0
  int64_t worst = -1;        // the element furthest beyond tolerance, -1 when none is
  std::string detail;        // what went wrong, for messages; empty when within
};

Difference compare(const Tensor& got, const Tensor& want, Tolerance tol);

}  // namespace cnnx
