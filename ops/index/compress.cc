#include "ops/index/compress.h"

#include "ops/common/node_checks.h"

namespace cnnx {

CompressParams parse_compress(const Node& node) {
  check_node(node, 2, 2, {"axis"});
  CompressParams p;
  if (node.attrs.has("axis")) {
    p.axis = node.attrs.get_int("axis", 0);
    p.negative_axis_undocumented = node.opset < 11 && *p.axis < 0;
  }
  return p;
}

std::string compress_caution(const CompressParams& p, const std::vector<ValueInfo>&) {
  if (!p.negative_axis_undocumented) return "";
  return "axis " + std::to_string(*p.axis) + " is negative, which ONNX documents from opset 11 on; read from the back, " +
         "as ONNX Runtime does";
}

std::vector<ValueInfo> infer_compress(const CompressParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  require_dtype(in, 1, {DType::boolean}, "condition");
  require(in[1].rank() == 1, "condition must be 1-D, got shape ", to_string(in[1].shape));
  const int64_t axis = p.axis ? normalize_axis(*p.axis, x.rank(), "axis") : 0;
  const int64_t length = p.axis ? x.shape[size_t(axis)] : (is_concrete(x.shape) ? checked_numel(x.shape) : kUnknownDim);
  require(length < 0 || in[1].shape[0] < 0 || in[1].shape[0] <= length, "condition has ", in[1].shape[0],
          " entries; the axis has ", length);
  int64_t kept = kUnknownDim;
  if (in[1].constant) {
    kept = 0;
    for (int64_t i = 0; i < in[1].constant->numel(); ++i) kept += in[1].constant->double_at(i) != 0;
  }
  if (!p.axis) return {ValueInfo::of(x.dtype, {kept})};
  Shape y = x.shape;
  y[size_t(axis)] = kept;
  return {ValueInfo::of(x.dtype, y)};
}

}  // namespace cnnx
