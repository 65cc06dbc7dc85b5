#include "ops/eltwise/unary.h"

#include <algorithm>
#include <cmath>

#include "ops/families.h"

namespace cnnx {

namespace {

// Exact ops (compare, select, multiply by a constant): the result is the correctly rounded float.
constexpr Tolerance kExact{0, 0};
// A multiply-add and a clamp: another engine may round in another order (x * (x + 3) / 6 for HardSwish).
constexpr Tolerance kFewRoundings{1e-7, 1e-6};
// exp/tanh: float32 libm and oneDNN's vectorized versions differ by a few ulp (2^-23 ~ 1.2e-7 relative);
// near 0 the relative error of 1 - e^-x style forms grows, hence the absolute term.
constexpr Tolerance kTranscendental{1e-6, 4e-6};

template <class F>
void map_float(const KernelIO& io, F f) {
  const float* x = io.in[0]->data<float>();
  float* y = io.out[0]->data<float>();
  const int64_t n = io.in[0]->numel();
  for (int64_t i = 0; i < n; ++i) y[i] = f(x[i]);
}

// A float32 unary op `type` with params P and y = f(params, x); `dnnl` runs before the reference kernel.
template <class P, class Parse, class F>
OpDef unary_op(const char* type, int since, Tolerance tolerance, KernelDef dnnl, Parse parse, F f) {
  OpDef d;
  d.type = type;
  d.since = since;
  d.parse = parser<P>(parse);
  d.infer = [](const OpParams&, const std::vector<ValueInfo>& in) {
    require_dtype(in, 0, {DType::f32});
    return std::vector<ValueInfo>{same_as_input(in)};
  };
  d.tolerance = tolerance;
  d.kernels = {std::move(dnnl), ref_kernel<P>([f](const P& p, const KernelIO& io) {
    map_float(io, [&](float x) { return f(p, x); });
  })};
  return d;
}

NoParams parse_plain(const Node& node) {
  require_inputs(node, 1, 1);
  require_outputs(node, 1, 1);
  node.attrs.allow_only({});
  return {};
}

AlphaBetaParams parse_alpha_beta(const Node& node, float alpha, float beta, bool has_beta) {
  require_inputs(node, 1, 1);
  require_outputs(node, 1, 1);
  if (has_beta) node.attrs.allow_only({"alpha", "beta"});
  else node.attrs.allow_only({"alpha"});
  AlphaBetaParams p;
  p.alpha = node.attrs.get_float("alpha", alpha);
  p.beta = node.attrs.get_float("beta", beta);
  return p;
}

ClipParams parse_clip(const Node& node) {
  ClipParams p;
  require_outputs(node, 1, 1);
  if (node.opset < 11) {
    require_inputs(node, 1, 1);
    node.attrs.allow_only({"min", "max"});
    p.attribute_bounds = true;
    p.min = node.attrs.get_float("min", p.min);
    p.max = node.attrs.get_float("max", p.max);
  } else {
    require_inputs(node, 1, 3);
    node.attrs.allow_only({});
  }
  return p;
}

std::vector<ValueInfo> infer_clip(const ClipParams& p, const std::vector<ValueInfo>& in) {
  if (p.attribute_bounds) require_dtype(in, 0, {DType::f32});  // opset < 11 Clip is float-only
  require_dtype(in, 0, {DType::f32, DType::f64, DType::i64, DType::i32, DType::i8, DType::u8});
  for (size_t i = 1; i < 3; ++i) {
    if (!present(in, i)) continue;
    require(in[i].dtype == in[0].dtype, "Clip bound ", i, " must have the input's element type ",
            dtype_name(in[0].dtype), ", got ", dtype_name(in[i].dtype));
    require(in[i].rank() == 0 || (in[i].rank() == 1 && in[i].shape[0] == 1), "Clip bound ", i,
            " must be a scalar, got shape ", to_string(in[i].shape));
  }
  return {same_as_input(in)};
}

template <class T>
void clip_ref(const ClipParams& p, const KernelIO& io) {
  T lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
  if (p.attribute_bounds) {  // float only (checked in infer_clip)
    lo = T(p.min);
    hi = T(p.max);
  } else {
    if (io.in.size() > 1 && io.in[1] && io.in[1]->numel()) lo = io.in[1]->data<T>()[0];
    if (io.in.size() > 2 && io.in[2] && io.in[2]->numel()) hi = io.in[2]->data<T>()[0];
  }
  const T* x = io.in[0]->data<T>();
  T* y = io.out[0]->data<T>();
  // ONNX: min(max(x, lo), hi); with lo > hi every element becomes hi. NaN stays NaN.
  for (int64_t i = 0; i < io.in[0]->numel(); ++i) {
    T v = x[i];
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    y[i] = v;
  }
}

void clip_ref_any(const ClipParams& p, const KernelIO& io) {
  visit_dtype(io.in[0]->dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool>) fail("Clip does not take bool");
    else clip_ref<T>(p, io);
  });
}

}  // namespace

void register_unary_ops(OpRegistry& r) {
  r.add(unary_op<NoParams>("Relu", 6, kExact, relu_dnnl_kernel(), parse_plain,
                           [](const NoParams&, float x) { return x > 0 ? x : (x == x ? 0.f : x); }));
  r.add(unary_op<AlphaBetaParams>(
      "LeakyRelu", 6, kExact, leaky_relu_dnnl_kernel(),
      [](const Node& n) { return parse_alpha_beta(n, 0.01f, 0, false); },
      [](const AlphaBetaParams& p, float x) { return x >= 0 ? x : p.alpha * x; }));
  r.add(unary_op<NoParams>("Sigmoid", 6, kTranscendental, sigmoid_dnnl_kernel(), parse_plain,
                           [](const NoParams&, float x) {
                             // Split by sign so exp never overflows.
                             if (x >= 0) return 1.f / (1.f + std::exp(-x));
                             float e = std::exp(x);
                             return e / (1.f + e);
                           }));
  r.add(unary_op<NoParams>("Tanh", 6, kTranscendental, tanh_dnnl_kernel(), parse_plain,
                           [](const NoParams&, float x) { return std::tanh(x); }));
  r.add(unary_op<AlphaBetaParams>(
      "HardSigmoid", 6, kFewRoundings, hard_sigmoid_dnnl_kernel(),
      [](const Node& n) { return parse_alpha_beta(n, 0.2f, 0.5f, true); },
      [](const AlphaBetaParams& p, float x) {
        return x != x ? x : std::max(0.f, std::min(1.f, p.alpha * x + p.beta));  // NaN stays NaN
      }));
  r.add(unary_op<NoParams>("HardSwish", 14, kFewRoundings, hard_swish_dnnl_kernel(), parse_plain,
                           [](const NoParams&, float x) {
                             return x != x ? x : x * std::max(0.f, std::min(1.f, (1.f / 6.f) * x + 0.5f));
                           }));

  r.add(define_op<ClipParams>("Clip", 6, parse_clip, infer_clip, kExact,
                              {clip_dnnl_kernel(), ref_kernel<ClipParams>(clip_ref_any)}));
}

}  // namespace cnnx
