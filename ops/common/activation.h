// The activation table: every elementwise activation cnnx knows, one row each, read by the unary ops
// (ops/eltwise/unary.cc registers one op per row that has one), FusedConv's reference (ops/conv/fused_conv_ref.cc),
// the fuse-conv pass (passes/fuse_conv.cc) and the oneDNN kernels (ops/eltwise/unary_dnnl.cc as eltwise
// primitives, ops/conv/conv_dnnl.cc as post-ops). Adding an activation is one row plus its tests.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "engine/op.h"

namespace cnnx {

// oneDNN 2.6 eltwise algorithms the rows use, named here so this table needs no oneDNN header; mapped to
// dnnl::algorithm in ops/common/activation_dnnl.h.
enum class EltwiseAlgorithm {
  relu, logistic, tanh, linear, clip_v2, hardswish, swish, exp, log, sqrt, abs, round, elu, soft_relu, mish, pow,
  gelu_erf, gelu_tanh
};

// One oneDNN eltwise step: alpha and beta in oneDNN's meaning for the algorithm.
struct EltwiseStep {
  EltwiseAlgorithm algorithm;
  float alpha = 0, beta = 0;
};

// An activation's parameters (from the op's attributes or, for Clip, its bound inputs): the row says what
// they mean.
struct ActivationArgs {
  float alpha = 0, beta = 0;
};

struct FloatAttribute {
  const char* name = nullptr;  // nullptr: none
  float fallback = 0;          // the ONNX default
  // The default in opsets 1-5 where it differs (Selu's), else NaN.
  float fallback_before6 = std::numeric_limits<float>::quiet_NaN();
};

struct ActivationDef {
  const char* name;  // the ONNX op ("Relu"), or the pattern it is fused from ("Swish" is x * Sigmoid(x))
  // First opset of the op (in `domain`); 0 when the row has no unary op of its own (Clip is declared with its
  // bound inputs in ops/eltwise/unary.cc; Swish is only ever fused).
  int since;
  // Opsets 1-5 of the op had `consumed_inputs`, a legacy optimization hint: accepted there and ignored.
  bool consumed_inputs;
  FloatAttribute alpha, beta;  // attributes read into ActivationArgs
  // The ONNX definition in double (NaN stays NaN); the reference kernels round it once to float.
  double (*reference)(double x, const ActivationArgs& a);
  // The oneDNN eltwise steps that compute it (the first reads x, the next ones work in place), or "" and
  // the reason oneDNN cannot (then `steps` is untouched).
  std::string (*dnnl)(const ActivationArgs& a, std::vector<EltwiseStep>& steps);
  // For a row a convolution may apply to its output (FusedConv): sup |f'(x)| under the args, the factor by
  // which the convolution's accumulation error can reach the output (FusedConv's magnitudes). nullptr: not
  // fusable (rows that amplify the error without bound near some x, Log or Round, are not).
  double (*fused_slope)(const ActivationArgs& a);
  Tolerance tolerance;  // of the unary op against the reference
  bool fusable() const { return fused_slope != nullptr; }
  // "" (ONNX's), or kInternalDomain for an op only graph passes make: Gelu and GeluTanh, which the fuse-gelu
  // pass writes for the formulas exporters spell out below opset 20 (where ONNX's Gelu appears).
  const char* domain = "";
  // The op on integer tensors (int8, uint8, int32, int64), for the rows ONNX defines on them (Relu from opset
  // 14, Neg, Abs, Sign): exact, computed in int64 and wrapped back to the type as numpy does (Neg and Abs of
  // the most negative value give it back). nullptr: float32 only. Exporters compute shapes with them (the
  // expanded LayerNormalization negates an axis count).
  int64_t (*integer)(int64_t x) = nullptr;
};

// Every row, in a fixed order.
const std::vector<ActivationDef>& activations();
// Whether oneDNN computes the row with its default attributes: a row it cannot (Erf, Sin...) has no oneDNN
// kernel; one it computes for some attributes only (Celu) has one that declines the others.
bool has_dnnl_kernel(const ActivationDef& row);
// The row named `name` (of the default domain unless `domain` is given), or nullptr.
const ActivationDef* find_activation(const std::string& name, const std::string& domain = "");

// OpHints::terms of an op that applies an activation row to its sum of products (FusedConv, FusedMatMul):
// the product's accumulation error reaches the output through the activation, scaled by at most its slope,
// so the terms are those of the op without the activation, times that slope.
template <class P>
TermsRun<P> terms_before_activation(const P& p) {
  TermsRun<P> run{p, 1};
  if (p.fusion.activation) run.scale = p.fusion.activation->fused_slope(p.fusion.args);
  run.params.fusion.activation = nullptr;
  return run;
}

// The params of a unary op made from a row.
struct ActivationParams : OpParams {
  const ActivationDef* activation = nullptr;
  ActivationArgs args;
};

}  // namespace cnnx
