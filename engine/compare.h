// Comparing a kernel's output with the reference: the rule every check in cnnx uses (verify mode,
// `cnnx check`, kernel cases, node tests). Element i passes when
//   |got - want| <= abs + rel * |want| + terms_rel * magnitude[i]      (engine/op.h, Tolerance)
// NaN must meet NaN and an infinity the same infinity.
#pragma once

#include <string>
#include <vector>

#include "engine/op.h"
#include "engine/tensor.h"

namespace cnnx {

struct Difference {
  bool within = true;        // every element within tolerance (and shapes and types equal)
  double max_abs = 0;        // max |got - want| over finite pairs
  double max_rel = 0;        // max |got - want| / |want| over finite pairs with want != 0
  double max_ratio = 0;      // max |got - want| / allowed over finite pairs (1: at the bound; inf: any
                             // difference where none is allowed)
  int64_t worst = -1;        // the element furthest beyond tolerance, -1 when none is
  std::string detail;        // what went wrong, for messages; empty when within
};

// `magnitude`: per element of `want`, what tol.terms_rel scales (term_magnitudes below: sqrt(K + 2) sum |terms|);
// nullptr counts it as 0, the stricter rule, for callers that cannot compute it (a whole graph's output).
Difference compare(const Tensor& got, const Tensor& want, Tolerance tol, const Tensor* magnitude = nullptr);

// Per output of a node of op `def` with `params`, run on `inputs` (plain; nullptr for omitted ones) of infos
// `in` and outputs `out`: the magnitudes its tolerance's terms_rel scales, sqrt(K + 2) * sum |terms| for the
// node's sum length K (OpHints::terms: the reference kernel run once more, on the inputs' absolute values; K:
// OpHints::flops over 2 per output element). Empty when the op's terms_rel is 0.
std::vector<Tensor> term_magnitudes(const OpDef& def, const ParamsPtr& params, const std::vector<ValueInfo>& in,
                                    const std::vector<ValueInfo>& out, const std::vector<const Tensor*>& inputs);

}  // namespace cnnx
