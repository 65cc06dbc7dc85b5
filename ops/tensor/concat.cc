// Concat (opset 1+), any element type.
#include "ops/tensor/concat.h"

#include <cstring>

namespace cnnx {

ConcatParams parse_concat(const Node& node) {
  require(!node.inputs.empty(), "expects at least 1 input, got 0");
  for (size_t i = 0; i < node.inputs.size(); ++i) require(node.inputs[i] >= 0, "input ", i, " is omitted");
  require_outputs(node, 1, 1);
  node.attrs.allow_only({"axis"});
  ConcatParams p;
  p.axis = node.opset >= 4 ? node.attrs.require_int("axis") : node.attrs.get_int("axis", 1);
  return p;
}

std::vector<ValueInfo> infer_concat(const ConcatParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& first = input(in, 0);
  const int64_t rank = first.rank();
  const size_t axis = size_t(normalize_axis(p.axis, rank, "axis"));
  Shape out = first.shape;
  for (size_t i = 1; i < in.size(); ++i) {
    const ValueInfo& x = input(in, i);
    require(x.dtype == first.dtype, "input ", i, " has element type ", dtype_name(x.dtype), " but input 0 has ",
            dtype_name(first.dtype));
    if (x.rank() != rank) fail("input ", i, " has shape ", to_string(x.shape), " but input 0 has ",
            to_string(first.shape), " (ranks differ)");
    for (size_t a = 0; a < size_t(rank); ++a) {
      const int64_t d = x.shape[a];
      if (a == axis) {
        out[a] = out[a] < 0 || d < 0 ? kUnknownDim : checked_add(out[a], d, "concatenated dim");
      } else if (d >= 0) {
        if (out[a] >= 0 && out[a] != d) fail("input ", i, " has shape ", to_string(x.shape),
                ", which differs from the others at axis ", a, " (only axis ", axis, " may differ)");
        out[a] = d;
      }
    }
  }
  return {ValueInfo::of(first.dtype, out)};
}

size_t concat_axis(const ConcatParams& p, const std::vector<ValueInfo>& in) {
  return size_t(normalize_axis(p.axis, input(in, 0).rank(), "axis"));
}

}  // namespace cnnx
