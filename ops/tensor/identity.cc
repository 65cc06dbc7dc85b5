// Identity (opset 1+, any element type) and Dropout (opset 1+, inference).
#include "ops/tensor/identity.h"

#include <algorithm>

#include "ops/common/data_movement.h"

namespace cnnx {

std::vector<ValueInfo> infer_identity(const NoParams&, const std::vector<ValueInfo>& in) { return {input(in, 0)}; }

DropoutParams parse_dropout(const Node& node) {
  DropoutParams p;
  require_outputs(node, 1, 2);
  p.mask_is_bool = node.opset >= 10;
  if (node.opset >= 12) {
    require_inputs(node, 1, 3);
    node.attrs.allow_only({"seed"});
    p.ratio_from_input = true;
  } else {
    require_inputs(node, 1, 1);
    // Opset 1-6 also have `is_test` (0 by default, which asks for training behaviour even in the inference
    // graphs exporters wrote) and opset 1 `consumed_inputs` (a memory hint). cnnx runs inference: the output
    // is the input whatever is_test says, as in every inference runtime.
    if (node.opset >= 7) node.attrs.allow_only({"ratio"});
    else if (node.opset == 6) node.attrs.allow_only({"ratio", "is_test"});
    else node.attrs.allow_only({"ratio", "is_test", "consumed_inputs"});
    const int64_t is_test = node.attrs.get_int("is_test", 0);
    require(is_test == 0 || is_test == 1, "attribute 'is_test' must be 0 or 1, got ", is_test);
    p.ratio = node.attrs.get_float("ratio", p.ratio);
    require(p.ratio >= 0 && p.ratio < 1, "attribute 'ratio' must be in [0, 1), got ", p.ratio);
  }
  return p;
}

namespace {

// A scalar input (rank 0, or one element) i.
void require_scalar(const std::vector<ValueInfo>& in, size_t i, const char* what) {
  const ValueInfo& v = in[i];
  require(v.rank() == 0 || (v.rank() == 1 && v.shape[0] == 1), "input ", i, " (", what,
          ") must be a scalar, got shape ", to_string(v.shape));
}

}  // namespace

// The value of a one-element bool tensor, read as a byte (any nonzero byte is true).
bool bool_scalar_value(const Tensor& t) {
  require(t.dtype() == DType::boolean && t.numel() == 1, "training_mode must be a bool scalar");
  return *static_cast<const uint8_t*>(t.raw()) != 0;
}

std::vector<ValueInfo> infer_dropout(const DropoutParams& p, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32, DType::f64});
  if (p.ratio_from_input) {
    bool ratio_known = true;
    double ratio = 0.5;  // ONNX default when input 1 is omitted
    if (present(in, 1)) {
      require_dtype(in, 1, {DType::f32, DType::f64}, "input");
      require_scalar(in, 1, "ratio");
      ratio_known = in[1].constant != nullptr;
      if (ratio_known) {
        ratio = in[1].constant->double_at(0);
        require(ratio >= 0 && ratio < 1, "input 1 (ratio) must be in [0, 1), got ", ratio);
      }
    }
    if (present(in, 2)) {
      require_dtype(in, 2, {DType::boolean}, "input");
      require_scalar(in, 2, "training_mode");
      const bool training = in[2].constant && bool_scalar_value(*in[2].constant);
      require(!(training && ratio_known && ratio > 0), kTrainingDropoutRefused);
    }
  }
  const ValueInfo& x = in[0];
  return {same_as_input(in), ValueInfo::of(p.mask_is_bool ? DType::boolean : x.dtype, x.shape)};
}

}  // namespace cnnx
