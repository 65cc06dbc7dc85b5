// ArgMax, ArgMin (opsets 1, 11, 12, 13): the int64 index of the largest (smallest) element along `axis`.
//
//   axis               (default 0) negative values count from the back: from opset 11 on, and below with a
//                      warning at load (arg_reduce_caution; ONNX Runtime reads them so at every opset).
//   keepdims           (default 1) keeps the reduced dim as size 1; otherwise it is removed.
//   select_last_index  (opset 12+, default 0) on ties, the last index instead of the first.
// NaN counts as larger (ArgMax) or smaller (ArgMin) than every number, like numpy's argmax/argmin: the first
// (or last) NaN wins. Reducing a dim of size 0 is an error (no index exists).
// Reference kernel only: oneDNN 2.6 has no arg-max/arg-min primitive (its reduction returns values, not indices).
#pragma once

#include "engine/op.h"

namespace cnnx {

struct ArgReduceParams : OpParams {
  bool is_max = true;
  int64_t axis = 0;
  bool keepdims = true;
  bool select_last_index = false;
  bool negative_axis = true;  // opset 11+ documents them; below, arg_reduce_caution warns of them
};

ArgReduceParams parse_arg_reduce(bool is_max, const Node& node);
std::vector<ValueInfo> infer_arg_reduce(const ArgReduceParams& p, const std::vector<ValueInfo>& in);
void arg_reduce_ref(const ArgReduceParams& p, const KernelIO& io);
// A warning for a negative axis below opset 11 (README "Exporter leniencies"); empty otherwise.
std::string arg_reduce_caution(const ArgReduceParams& p, const std::vector<ValueInfo>& in);
// The axis reduced, normalized (negative from the back), and the output shape reducing it.
int64_t arg_reduce_axis(const ArgReduceParams& p, int64_t rank);
Shape arg_reduce_shape(const ArgReduceParams& p, const Shape& in, int64_t axis);

}  // namespace cnnx
