// ReduceMean (opsets 1, 11, 13, 18): the mean of `data` over `axes`, summed in double and rounded once.
//
//   opset < 18  axes is an attribute (default: every axis); negative axes count from the back from opset 11
//               on (opset 1 accepts [0, rank) only).
//   opset 18    axes is the optional int64 input 1, constant or computed at run time, and
//               noop_with_empty_axes (default 0) says what empty axes mean: reduce every axis (0) or return
//               the input unchanged (1).
//   keepdims    (default 1) keeps reduced dims as size 1; otherwise they are removed.
// Out-of-range and duplicate axes are errors. A mean over zero elements (a reduced dim of size 0) is NaN.
// With runtime axes the output shape is known only once the axes are: infer gives unknown dims (keepdims = 1)
// or an unknown rank (keepdims = 0), and the kernel checks the output it was given against the axes it reads.
#pragma once

#include <vector>

#include "engine/op.h"

namespace cnnx {

struct ReduceMeanParams : OpParams {
  std::vector<int64_t> axes;     // the attribute (opset < 18), as written
  bool axes_from_input = false;  // opset 18+
  bool keepdims = true;
  bool noop_with_empty_axes = false;
  bool negative_axes = true;  // opset 11+
};

ReduceMeanParams parse_reduce_mean(const Node& node);
// reduced[d] for every dim of a rank-`rank` input, given the axes (the attribute's, or input 1's values).
// All false when axes are empty and noop_with_empty_axes is set (the op is then the identity).
std::vector<bool> resolve_reduce_axes(const ReduceMeanParams& p, const std::vector<int64_t>& axes, int64_t rank);
// `in` with reduced dims set to 1 (keepdims) or removed. Unknown dims stay unknown.
Shape reduced_shape(const Shape& in, const std::vector<bool>& reduced, bool keepdims);
std::vector<ValueInfo> infer_reduce_mean(const ReduceMeanParams& p, const std::vector<ValueInfo>& in);
void reduce_mean_ref(const ReduceMeanParams& p, const KernelIO& io);

// A mean of K float32 values: the reference sums in double and rounds once (<= 0.5 ulp). An engine summing in
// float32 is off by at most ~K * eps * mean|x|, typically ~sqrt(K) * eps * mean|x| (rounding errors
// random-walk). Spatial means in CNNs reach K ~ 3136 (56x56): sqrt(K) * 2^-24 ~ 3.3e-6, so rel 1e-5 leaves a 3x
// margin; the absolute term covers means that cancel to ~0 (error ~ sqrt(K) * eps * |x|, activations of O(1)).
// The same bound as AveragePool / GlobalAveragePool, which are the same operation spelled differently.
constexpr Tolerance kReduceMeanTolerance{1e-5, 1e-5};

}  // namespace cnnx
