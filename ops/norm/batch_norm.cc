#include "ops/norm/batch_norm.h"

#include <cmath>

namespace cnnx {

namespace {

const char* const kStatNames[] = {"X", "scale", "B", "mean", "var"};

bool has_output(const Node& node, size_t i) { return i < node.outputs.size() && node.outputs[i] >= 0; }

}  // namespace

BatchNormParams parse_batch_norm(const Node& node) {
  require_inputs(node, 5, 5);
  BatchNormParams p;
  if (node.opset < 7) {
    // Opsets 1 and 6: is_test selects the mode; consumed_inputs (opset 1) is a legacy in-place hint.
    if (node.opset < 6) {
      node.attrs.allow_only({"consumed_inputs", "epsilon", "is_test", "momentum", "spatial"});
      node.attrs.get_ints("consumed_inputs");  // checked for its type, no effect on the result
    } else {
      node.attrs.allow_only({"epsilon", "is_test", "momentum", "spatial"});
    }
    const int64_t is_test = node.attrs.get_int("is_test", 0);
    p.training = is_test == 0;
    p.legacy_is_test = true;
  } else if (node.opset < 9) {
    node.attrs.allow_only({"epsilon", "momentum", "spatial"});
  } else if (node.opset < 14) {
    node.attrs.allow_only({"epsilon", "momentum"});
  } else {
    node.attrs.allow_only({"epsilon", "momentum", "training_mode"});
    int64_t mode = node.attrs.get_int("training_mode", 0);
    require(mode == 0 || mode == 1, "attribute 'training_mode' must be 0 or 1, got ", mode);
    p.training = mode == 1;
  }
  if (node.opset < 9) {
    const int64_t spatial = node.attrs.get_int("spatial", 1);
    p.spatial = spatial != 0;
  }
  p.allow_rank1 = node.opset >= 9;
  p.epsilon = node.attrs.get_float("epsilon", p.epsilon);
  p.momentum = node.attrs.get_float("momentum", p.momentum);
  require(std::isfinite(p.epsilon) && p.epsilon >= 0, "attribute 'epsilon' must be finite and >= 0, got ",
          p.epsilon);
  require(std::isfinite(p.momentum), "attribute 'momentum' must be finite, got ", p.momentum);

  if (node.opset < 7) {
    require_outputs(node, 1, 5);
    for (size_t i = 1; i < node.outputs.size(); ++i) {
      require(p.training || !has_output(node, i), "output ", i,
              " (mean, var, saved_mean, saved_var) is only defined in training mode (is_test = 0)");
      require(i < 3 || !has_output(node, i), "output ", i,
              " (saved_mean, saved_var) is not implemented: the spec leaves saved_var's meaning open "
              "(engines store 1/std there); only Y and the running mean and var are supported");
    }
  } else if (node.opset < 14) {
    require_outputs(node, 1, 5);
    for (size_t i = 1; i < node.outputs.size(); ++i)
      require(!has_output(node, i), "output ", i,
              " (mean, var, saved_mean, saved_var) is a training output of BatchNormalization before opset 14, "
              "which cnnx does not implement; only Y is supported");
  } else {
    require_outputs(node, 1, 3);
    for (size_t i = 1; i < node.outputs.size(); ++i)
      require(p.training || !has_output(node, i), "output ", i,
              " (running_mean, running_var) is only valid with training_mode = 1");
  }
  return p;
}

std::string batch_norm_caution(const BatchNormParams& p, const std::vector<ValueInfo>&) {
  if (p.training && p.legacy_is_test)
    return "BatchNormalization before opset 7 with is_test = 0 (the default) runs in training mode: Y is "
           "normalized with the batch's own statistics, as the spec says, not with the given mean and var; ONNX's "
           "version converter refuses such nodes and exporters wrote is_test = 1 for inference";
  return "";
}

std::vector<ValueInfo> infer_batch_norm(const BatchNormParams& p, const std::vector<ValueInfo>& in) {
  for (size_t i = 0; i < 5; ++i) require_dtype(in, i, {DType::f32});
  const ValueInfo& x = in[0];
  require(x.rank() >= 2 || (p.allow_rank1 && x.rank() == 1), "input X must have rank >= ",
          p.allow_rank1 ? 1 : 2, " (N x C x D1 ... Dn), got shape ", to_string(x.shape));
  const int64_t C = x.rank() == 1 ? 1 : x.shape[1];
  if (!p.spatial) {
    // Per-activation statistics: shape (C x D1 x ... x Dn), or those values as one 1-D tensor.
    const Shape per(x.shape.begin() + 1, x.shape.end());
    const int64_t count = is_concrete(per) ? checked_numel(per) : kUnknownDim;
    for (size_t i = 1; i < 5; ++i) {
      const Shape& s = in[i].shape;
      bool fits = s.size() == per.size();
      for (size_t d = 0; fits && d < s.size(); ++d)
        fits = s[d] == per[d] || s[d] == kUnknownDim || per[d] == kUnknownDim;
      if (!fits && s.size() == 1) fits = s[0] == count || s[0] == kUnknownDim || count == kUnknownDim;
      require(fits, "input ", kStatNames[i], " of shape ", to_string(s),
              " does not hold one value per activation: spatial = 0 needs shape (C x D1 x ... x Dn) = ",
              to_string(per), " or ", count == kUnknownDim ? "that many" : std::to_string(count), " values in 1-D");
    }
  } else {
    for (size_t i = 1; i < 5; ++i) {
      const Shape& s = in[i].shape;
      require(s.size() == 1, "input ", kStatNames[i], " must be 1-D of size C, got shape ", to_string(s));
      require(s[0] == C || s[0] == kUnknownDim || C == kUnknownDim, "input ", kStatNames[i], " has ", s[0],
              " elements but X has C = ", C, " channels (shape ", to_string(x.shape), ")");
    }
  }
  std::vector<ValueInfo> out{same_as_input(in)};
  if (p.training) {
    Shape stats = p.spatial ? Shape{C != kUnknownDim ? C : in[3].shape[0]} : in[3].shape;
    out.push_back(ValueInfo::of(DType::f32, stats));  // running_mean
    out.push_back(ValueInfo::of(DType::f32, stats));  // running_var
  }
  return out;
}

}  // namespace cnnx
