#include "ops/reduce/reduce.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "ops/common/broadcast.h"

namespace cnnx {

namespace {

const char* reduce_op_name(ReduceKind k) {
  switch (k) {
    case ReduceKind::mean: return "ReduceMean";
    case ReduceKind::sum: return "ReduceSum";
    case ReduceKind::max: return "ReduceMax";
    case ReduceKind::min: return "ReduceMin";
    case ReduceKind::prod: return "ReduceProd";
    case ReduceKind::l1: return "ReduceL1";
    case ReduceKind::l2: return "ReduceL2";
    case ReduceKind::sum_square: return "ReduceSumSquare";
    case ReduceKind::log_sum: return "ReduceLogSum";
    case ReduceKind::log_sum_exp: return "ReduceLogSumExp";
  }
  return "Reduce";
}

// The element types a kind accepts: every kind takes float32/64; the ones exact on integers take int32/64
// (and Max/Min, selections, int8/uint8 too).
std::vector<DType> reduce_dtypes(ReduceKind k) {
  switch (k) {
    case ReduceKind::max:
    case ReduceKind::min: return {DType::f32, DType::f64, DType::i32, DType::i64, DType::i8, DType::u8};
    case ReduceKind::sum:
    case ReduceKind::prod:
    case ReduceKind::l1:
    case ReduceKind::sum_square: return {DType::f32, DType::f64, DType::i32, DType::i64};
    default: return {DType::f32, DType::f64};
  }
}

}  // namespace

void require_reduce_dtype(ReduceKind k, DType t) {
  const std::vector<DType> ok = reduce_dtypes(k);
  if (std::find(ok.begin(), ok.end(), t) != ok.end()) return;
  std::string names;
  for (DType a : ok) names += (names.empty() ? "" : " or ") + dtype_name(a);
  fail(reduce_op_name(k), ": input 0 has element type ", dtype_name(t), "; expected ", names);
}

ReduceParams parse_reduce(ReduceKind kind, const Node& node) {
  ReduceParams p;
  p.kind = kind;
  require_outputs(node, 1, 1);
  const int input_opset = kind == ReduceKind::sum ? 13 : 18;
  p.axes_from_input = node.opset >= input_opset;
  p.negative_axes = node.opset >= 11;
  for (const auto& [name, value] : node.attrs.all()) {
    if (name == "axes")
      require(!p.axes_from_input, "attribute 'axes' is input 1 from opset ", input_opset, " on; the model imports opset ", node.opset);
    else if (name == "noop_with_empty_axes")
      require(p.axes_from_input, "attribute 'noop_with_empty_axes' needs opset ", input_opset, " or newer; the model imports opset ",
              node.opset);
    else
      require(name == "keepdims", "unknown attribute '", name, "'");
  }
  if (!p.axes_from_input) require(node.inputs.size() <= 1, "input 1 (axes) needs opset ", input_opset, " or newer; the model imports opset ", node.opset);
  require_inputs(node, 1, p.axes_from_input ? 2 : 1);
  p.axes = node.attrs.get_ints("axes");
  p.keepdims = node.attrs.get_flag("keepdims", true);
  p.noop_with_empty_axes = node.attrs.get_flag("noop_with_empty_axes", false);
  return p;
}

std::vector<bool> resolve_reduce_axes(const ReduceParams& p, const std::vector<int64_t>& axes, int64_t rank) {
  if (axes.empty()) return std::vector<bool>(size_t(rank), !p.noop_with_empty_axes);
  std::vector<bool> reduced(size_t(rank), false);
  for (int64_t axis : axes) {
    const int64_t d = normalize_axis(axis, rank, "axis");
    require(!reduced[size_t(d)], "axis ", axis, " is listed twice in axes");
    reduced[size_t(d)] = true;
  }
  return reduced;
}

std::string reduce_caution(const ReduceParams& p, const std::vector<ValueInfo>&) {
  for (int64_t axis : p.axes)
    if (!p.negative_axes && axis < 0)
      return "axes " + list_string(p.axes) + " has a negative axis, which ONNX documents from opset 11 on; read from the " +
             "back, as ONNX Runtime does (paddle2onnx writes these)";
  return "";
}

Shape reduced_shape(const Shape& in, const std::vector<bool>& reduced, bool keepdims) {
  Shape out;
  for (size_t d = 0; d < in.size(); ++d) {
    if (!reduced[d]) out.push_back(in[d]);
    else if (keepdims) out.push_back(1);
  }
  return out;
}

std::vector<ValueInfo> infer_reduce(const ReduceParams& p, const std::vector<ValueInfo>& in) {
  require_reduce_dtype(p.kind, input(in, 0).dtype);
  const ValueInfo& x = in[0];
  std::vector<int64_t> axes = p.axes;
  if (p.axes_from_input && present(in, 1)) {
    require_dtype(in, 1, {DType::i64});
    require(in[1].rank() == 1, "input 1 (axes) must be 1-D, got shape ", to_string(in[1].shape));
    if (!constant_ints(in, 1, axes)) {
      // Runtime axes: which dims are reduced is known only when the node runs.
      if (!p.keepdims) return {ValueInfo::unknown(x.dtype)};
      Shape out = x.shape;
      for (int64_t& d : out) d = d == 1 ? 1 : kUnknownDim;
      return {ValueInfo::of(x.dtype, out)};
    }
  }
  return {ValueInfo::of(x.dtype, reduced_shape(x.shape, resolve_reduce_axes(p, axes, x.rank()), p.keepdims))};
}

}  // namespace cnnx
