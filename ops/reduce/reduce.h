// The Reduce* ops: ReduceMean, ReduceSum, ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2, ReduceSumSquare,
// ReduceLogSum and ReduceLogSumExp (opsets 1, 11, 13, 18): one reduction of `data` over `axes`, differing only
// in the kind. Floating-point data is accumulated in double and rounded once; integer data (Sum, Prod, Max,
// Min, L1, SumSquare) in int64 with two's-complement wraparound, then narrowed.
//
//   axes as an attribute (default: every axis) before opset 18 (ReduceSum: before opset 13); negative axes
//               count from the back from opset 11 on. Opset 1 documents [0, rank) only, but paddle2onnx writes
//               axes=[-1] there (PaddleOCR's recognisers) and ONNX Runtime counts it from the back: so does
//               cnnx, with a warning at load (reduce_caution), the meaning being unambiguous.
//   axes input  the optional int64 input 1 from opset 18 (ReduceSum: 13), constant or computed at run time,
//               with noop_with_empty_axes (default 0) saying what empty axes mean: reduce every axis (0) or
//               return the input unchanged (1).
//   keepdims    (default 1) keeps reduced dims as size 1; otherwise they are removed.
// Out-of-range and duplicate axes are errors. Over zero elements (a reduced dim of size 0): Sum, L1, L2,
// SumSquare 0; Prod 1; Max -inf (the lowest integer); Min +inf (the highest); LogSum, LogSumExp -inf; Mean NaN.
// Max and Min propagate NaN. With runtime axes the output shape is known only once the axes are: infer gives
// unknown dims (keepdims = 1) or an unknown rank (keepdims = 0), and the kernel checks the output it was given
// against the axes it reads.
#pragma once

#include <vector>

#include "engine/op.h"

namespace cnnx {

enum class ReduceKind { mean, sum, max, min, prod, l1, l2, sum_square, log_sum, log_sum_exp };

struct ReduceParams : OpParams {
  ReduceKind kind = ReduceKind::mean;
  std::vector<int64_t> axes;     // the attribute (before the axes input), as written
  bool axes_from_input = false;  // opset 18+ (ReduceSum 13+)
  bool keepdims = true;
  bool noop_with_empty_axes = false;
  bool negative_axes = true;  // opset 11+ documents them; below, reduce_caution warns of them
};
using ReduceMeanParams = ReduceParams;

ReduceParams parse_reduce(ReduceKind kind, const Node& node);
inline ReduceParams parse_reduce_mean(const Node& node) { return parse_reduce(ReduceKind::mean, node); }
// reduced[d] for every dim of a rank-`rank` input, given the axes (the attribute's, or input 1's values).
// All false when axes are empty and noop_with_empty_axes is set (the op is then the identity).
std::vector<bool> resolve_reduce_axes(const ReduceParams& p, const std::vector<int64_t>& axes, int64_t rank);
// `in` with reduced dims set to 1 (keepdims) or removed. Unknown dims stay unknown.
Shape reduced_shape(const Shape& in, const std::vector<bool>& reduced, bool keepdims);
std::vector<ValueInfo> infer_reduce(const ReduceParams& p, const std::vector<ValueInfo>& in);
// The warning for negative axes below opset 11 (OpHints::caution), "" otherwise.
std::string reduce_caution(const ReduceParams& p, const std::vector<ValueInfo>& in);
void reduce_ref(const ReduceParams& p, const KernelIO& io);
// oneDNN reduction (ops/reduce/reduce_dnnl.cc): float32, constant axes; Sum, Mean, Prod, L1, L2, SumSquare.
Kernel<ReduceParams> reduce_dnnl_kernel();

// A mean of K float32 values: the reference sums in double and rounds once (<= 0.5 ulp). An engine summing in
// float32 is off by at most ~K * eps * mean|x|, typically ~sqrt(K) * eps * mean|x| (rounding errors
// random-walk). Spatial means in CNNs reach K ~ 3136 (56x56): sqrt(K) * 2^-24 ~ 3.3e-6, so rel 1e-5 leaves a 3x
// margin; the absolute term covers means that cancel to ~0 (error ~ sqrt(K) * eps * |x|, activations of O(1)).
// The same bound as AveragePool / GlobalAveragePool, which are the same operation spelled differently.
constexpr Tolerance kReduceMeanTolerance{1e-5, 1e-5};
// Sum, L1, SumSquare, L2, Prod, LogSum, LogSumExp: the same float32 accumulation argument as the mean (a sum's
// error relative to sum|x| is the mean's relative to mean|x|; Prod's K roundings give K * eps relative, K <=
// ~100 in practice: 6e-6; L2 = sqrt halves SumSquare's relative error; LogSum(Exp) turns a relative error r of
// the sum into an absolute error r of the log), so rel 1e-5 with abs 1e-5 for sums that cancel.
constexpr Tolerance kReduceSumTolerance{1e-5, 1e-5};
// Throws unless kind k takes element type t, naming the op and the types it takes.
void require_reduce_dtype(ReduceKind k, DType t);

}  // namespace cnnx
