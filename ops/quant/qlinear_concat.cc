// com.microsoft QLinearConcat: parse and shape inference.
#include "ops/quant/qlinear_concat.h"

#include "ops/quant/quantization.h"

namespace cnnx {

QLinearConcatParams parse_qlinear_concat(const Node& node) {
  require_inputs(node, 5, 2 + 3 * 4096);
  require((node.inputs.size() - 2) % 3 == 0, "QLinearConcat takes Y_scale, Y_zero_point and then triples (X, ",
          "X_scale, X_zero_point); got ", node.inputs.size(), " inputs");
  require_outputs(node, 1, 1);
  node.attrs.allow_only({"axis"});
  QLinearConcatParams p;
  p.axis = node.attrs.require_int("axis");
  return p;
}

std::vector<ValueInfo> infer_qlinear_concat(const QLinearConcatParams& p, const std::vector<ValueInfo>& in) {
  require_quantized(in, 2, "X_0");
  const DType t = in[2].dtype;
  check_scale_zero_point(in, 0, 1, "Y_scale", "Y_zero_point", t, {});
  Shape y;
  bool shape_known = true;
  int64_t axis = 0;
  for (size_t i = 2; i < in.size(); i += 3) {
    const std::string name = "X_" + std::to_string((i - 2) / 3);
    const ValueInfo& x = input(in, i);
    require(x.dtype == t, name, " (input ", i, ") has element type ", dtype_name(x.dtype), "; expected ",
            dtype_name(t), ", the type of X_0");
    check_scale_zero_point(in, i + 1, i + 2, (name + "_scale").c_str(), (name + "_zero_point").c_str(), t, {});
    if (!x.rank_known) {
      shape_known = false;
      continue;
    }
    if (y.empty() && shape_known && i == 2) {
      require(x.rank() >= 1, "X_0 must have at least one axis to concatenate along");
      axis = normalize_axis(p.axis, x.rank(), "attribute 'axis'");
      y = x.shape;
      continue;
    }
    if (!shape_known) continue;
    require(x.rank() == int64_t(y.size()), name, " has rank ", x.rank(), "; X_0 has ", y.size());
    for (size_t d = 0; d < y.size(); ++d) {
      if (int64_t(d) == axis) {
        y[d] = y[d] < 0 || x.shape[d] < 0 ? kUnknownDim : y[d] + x.shape[d];
        continue;
      }
      require(y[d] < 0 || x.shape[d] < 0 || y[d] == x.shape[d], name, " ", to_string(x.shape), " differs from X_0 on axis ",
              d, ", which is not the concatenation axis ", axis);
      if (y[d] < 0) y[d] = x.shape[d];
    }
  }
  if (!shape_known) return {ValueInfo::unknown(t)};
  return {ValueInfo::of(t, y)};
}

}  // namespace cnnx
