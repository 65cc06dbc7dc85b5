// CumSum (opsets 11, 14): running sums of x along one axis, float32, float64, int32 or int64.
//
//   axis (input 1)  an int32/int64 scalar or 1-element 1-D tensor, read at run time; in [-rank, rank).
//   exclusive       (default 0) y[i] sums x[0..i) instead of x[0..i] (y[0] = 0).
//   reverse         (default 0) sums from the end: y[i] sums x[i..n) (or x(i..n) with exclusive).
// Opset 14 only adds float16/bfloat16, which cnnx does not load. Float sums are kept in double and each output
// rounded once; integer sums wrap around like the type's own two's-complement addition.
// Reference kernel only: oneDNN 2.6 has no scan (prefix-sum) primitive.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct CumSumParams : OpParams {
  bool exclusive = false;
  bool reverse = false;
};

CumSumParams parse_cumsum(const Node& node);
std::vector<ValueInfo> infer_cumsum(const CumSumParams& p, const std::vector<ValueInfo>& in);
void cumsum_ref(const CumSumParams& p, const KernelIO& io);

// Each output is a sum of up to n terms: the reference sums in double and rounds once; another engine's
// float32 running sum carries the error of a float32 sum (ops/reduce/reduce.h, kReduceSumTolerance).
constexpr Tolerance kCumSumTolerance{1e-5, 1e-5};

}  // namespace cnnx
