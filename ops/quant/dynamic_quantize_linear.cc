// DynamicQuantizeLinear: parse and shape inference.
#include "ops/quant/dynamic_quantize_linear.h"

namespace cnnx {

NoParams parse_dynamic_quantize_linear(const Node& node) {
  require_inputs(node, 1, 1);
  require_outputs(node, 3, 3);
  node.attrs.allow_only({});
  return {};
}

std::vector<ValueInfo> infer_dynamic_quantize_linear(const NoParams&, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  require(x.dtype == DType::f32, "x (input 0) has element type ", dtype_name(x.dtype), "; expected float32");
  ValueInfo y = x.rank_known ? ValueInfo::of(DType::u8, x.shape) : ValueInfo::unknown(DType::u8);
  return {y, ValueInfo::of(DType::f32, {}), ValueInfo::of(DType::u8, {})};
}

}  // namespace cnnx
