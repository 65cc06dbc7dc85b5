// com.microsoft MatMulIntegerToFloat and DynamicQuantizeMatMul: parse and shape inference.
#include "ops/quant/matmul_integer_to_float.h"

#include "ops/common/node_checks.h"
#include "ops/gemm/matmul.h"
#include "ops/quant/quantization.h"

namespace cnnx {

MatMulIntegerToFloatParams parse_matmul_integer_to_float(const Node& node) {
  check_node(node, 4, 7, {});
  return {};
}

MatMulIntegerToFloatParams parse_dynamic_quantize_matmul(const Node& node) {
  check_node(node, 3, 5, {});
  MatMulIntegerToFloatParams p;
  p.dynamic = true;
  return p;
}

IntegerToFloatInputs integer_to_float_inputs(const MatMulIntegerToFloatParams& p) {
  if (!p.dynamic) return {};
  return {0, 1, -1, 2, -1, 3, 4};
}

std::vector<ValueInfo> infer_matmul_integer_to_float(const MatMulIntegerToFloatParams& p,
                                                     const std::vector<ValueInfo>& in) {
  const IntegerToFloatInputs at = integer_to_float_inputs(p);
  if (p.dynamic)
    require(input(in, 0).dtype == DType::f32, "A (input 0) has element type ", dtype_name(in[0].dtype),
            "; expected float32");
  else
    require_quantized(in, 0, "A");
  require_quantized(in, size_t(at.b), "B");
  const ValueInfo& a = in[0];
  const ValueInfo& b = in[size_t(at.b)];
  if (!a.rank_known || !b.rank_known) return {ValueInfo::unknown(DType::f32)};
  const MatMulGeometry g = resolve_matmul_geometry({a, b});
  if (!p.dynamic) check_scale_zero_point(in, size_t(at.a_scale), size_t(at.a_zero_point), "a_scale", "a_zero_point", a.dtype, {});
  check_scale_zero_point(in, size_t(at.b_scale), size_t(at.b_zero_point), "b_scale", "b_zero_point", b.dtype, {true, g.N});
  if (present(in, size_t(at.bias))) {
    const ValueInfo& bias = in[size_t(at.bias)];
    require(bias.dtype == DType::f32, "bias (input ", at.bias, ") has element type ", dtype_name(bias.dtype),
            "; expected float32");
    require(!bias.rank_known || (bias.rank() == 1 && (bias.shape[0] < 0 || g.N < 0 || bias.shape[0] == g.N)),
            "bias (input ", at.bias, ") must be 1-D with one value per column of B (", g.N, "), got shape ",
            to_string(bias.shape));
  }
  return {ValueInfo::of(DType::f32, g.output_shape())};
}

}  // namespace cnnx
