#include "ops/common/activation.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cnnx {

namespace {

// A multiply-add and a clamp: another engine may round in another order (x * (x + 3) / 6 for HardSwish).
constexpr Tolerance kFewRoundings{1e-7, 1e-6};
// Rows with a oneDNN kernel: 4x the worst error of oneDNN 2.6's kernel over 2^20 inputs spread over
// [-100, 100] against the reference in double, as tests/unit/activation_tolerance_test.cc measures it (a
// relative part from where |result| >= 1, an absolute one for what is left: near 0, 1 - e^-x style forms lose
// their relative accuracy). Measured worst (abs, rel): Sigmoid 1.2e-7, 0; Tanh 6.0e-8, 0; Exp 1.6e-38, 4.2e-7;
// Log 3.2e-6 (near x = 1: its absolute error is bounded, not its relative one), 2.8e-6; Elu 1.0e-7, 0;
// Selu 8.8e-8, 2.4e-7; Mish 9.9e-7 (for x < -5, where oneDNN's is ~1e-6 off in absolute terms), 1.6e-7;
// Gelu 2.6e-7, 2.1e-7; GeluTanh 1.4e-7, 1.3e-7.
constexpr Tolerance kDnnlSigmoid{5e-7, 2.5e-7}, kDnnlTanh{2.5e-7, 2.5e-7}, kDnnlExp{1e-37, 2e-6},
    kDnnlLog{1.3e-5, 1.2e-5}, kDnnlElu{5e-7, 2.5e-7}, kDnnlSelu{4e-7, 1e-6}, kDnnlMish{4e-6, 6.4e-7},
    kDnnlGelu{1e-6, 1e-6}, kDnnlGeluTanh{6e-7, 6e-7};
// Rows the reference alone computes: the C library's functions in double, rounded once; against numpy's
// float32 results (the ONNX node tests), a few ulp, and near 0 an absolute term.
constexpr Tolerance kTranscendental{1e-6, 4e-6};

constexpr double kPi = 3.14159265358979323846;
constexpr double kUnbounded = std::numeric_limits<double>::infinity();

double clamp(double v, double lo, double hi) { return v < lo ? lo : (v > hi ? hi : v); }  // keeps NaN
double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

std::string steps_are(std::vector<EltwiseStep>& steps, std::vector<EltwiseStep> s) {
  steps = std::move(s);
  return "";
}

// What a row says when oneDNN 2.6 has no eltwise algorithm for it.
std::string none(const char* why) { return why; }

// oneDNN 2.6's elu is scale * (e^x - 1) with e^x - 1 formed in float: ~1e-7 off in absolute terms where x is near
// 0 (e^x rounds to 1), and that error times the scale. Elu's tolerance (kDnnlElu, 5e-7 absolute) holds it for
// |scale| up to 4; beyond, the rows decline (the wrong-answer fuzzer found Celu with alpha 6e26 giving 0 for
// -1.5: x / alpha is 2.4e-27, e^x - 1 is 0 in float).
std::string elu_scale_declines(float scale) {
  if (std::fabs(scale) <= 4) return "";
  return "|alpha| " + std::to_string(std::fabs(scale)) +
         " > 4: oneDNN's elu forms e^x - 1 in float, ~1e-7 off near 0, and the scale multiplies that";
}

constexpr bool kLegacyHint = true;    // opsets 1-5 had `consumed_inputs`
constexpr bool kNoLegacyHint = false;

// -x in two's complement without overflow: the most negative value gives itself back.
int64_t wrapping_negate(int64_t x) { return int64_t(0 - uint64_t(x)); }

double softplus(double x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }  // no overflow

// A row's `dnnl` column: its eltwise steps (which may read the row's args as `a`), or why there are none.
#define STEPS(...) \
  [](const ActivationArgs& a, std::vector<EltwiseStep>& s) { (void)a; return steps_are(s, {__VA_ARGS__}); }
#define NO_DNNL(why) [](const ActivationArgs&, std::vector<EltwiseStep>&) { return none(why); }
// A row's `fused_slope` column: sup |f'(x)| (which may read the row's args as `a`). The smooth rows' maxima were
// found numerically on a 1e-5 grid and rounded up: Swish 1.0998 at x = 2.40, Mish 1.0885 at 1.49, Gelu and
// GeluTanh 1.1289 at 1.41; HardSwish's is 1.5 at x -> 3, Sigmoid's 1/4 at 0.
#define SLOPE(expr) [](const ActivationArgs& a) -> double { (void)a; return (expr); }

const std::vector<ActivationDef> kActivations = {
    {"Relu", 1, kLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return x > 0 || x != x ? x : 0; },
     STEPS({EltwiseAlgorithm::relu}), SLOPE(1), kExact, "", [](int64_t x) { return x > 0 ? x : 0; }},
    // eltwise_relu with the negative slope as alpha (x >= 0 and x > 0 agree: both give 0 at 0).
    {"LeakyRelu", 1, kLegacyHint, {"alpha", 0.01f}, {},
     [](double x, const ActivationArgs& a) { return x < 0 ? a.alpha * x : x; },
     STEPS({EltwiseAlgorithm::relu, a.alpha, 0.f}), SLOPE(std::max(1.0, std::fabs(double(a.alpha)))), kExact},
    {"Sigmoid", 1, kLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return sigmoid(x); },
     STEPS({EltwiseAlgorithm::logistic}), SLOPE(0.25), kDnnlSigmoid},
    {"Tanh", 1, kLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::tanh(x); },
     STEPS({EltwiseAlgorithm::tanh}), SLOPE(1), kDnnlTanh},
    // oneDNN 2.6 has no hardsigmoid: alpha * x + beta (eltwise_linear), then clip to [0, 1] in place.
    {"HardSigmoid", 1, kLegacyHint, {"alpha", 0.2f}, {"beta", 0.5f},
     [](double x, const ActivationArgs& a) { return clamp(double(a.alpha) * x + a.beta, 0, 1); },
     STEPS({EltwiseAlgorithm::linear, a.alpha, a.beta}, {EltwiseAlgorithm::clip_v2, 0.f, 1.f}),
     SLOPE(std::fabs(double(a.alpha))), kFewRoundings},
    // oneDNN 2.6 hardswish is x * min(max(x + 3, 0), 6) / 6, ONNX's x * max(0, min(1, x / 6 + 0.5)); its alpha
    // and beta are ignored.
    {"HardSwish", 14, kNoLegacyHint, {}, {},
     [](double x, const ActivationArgs&) { return x * clamp(x / 6 + 0.5, 0, 1); },
     STEPS({EltwiseAlgorithm::hardswish}), SLOPE(1.5), kFewRoundings},
    // -x: eltwise_linear with alpha -1 and beta -0 (exact: -1 * x + -0 is -0 at x = +0, where beta 0 gives +0).
    {"Neg", 1, kLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return -x; },
     STEPS({EltwiseAlgorithm::linear, -1.f, -0.f}), SLOPE(1), kExact, "", wrapping_negate},
    // min(max(x, alpha = min), beta = max). eltwise_clip_v2 gives alpha where x <= alpha; ONNX gives max
    // everywhere when min > max.
    {"Clip", 0, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs& a) { return clamp(x, a.alpha, a.beta); },
     [](const ActivationArgs& a, std::vector<EltwiseStep>& s) {
       if (std::isnan(a.alpha) || std::isnan(a.beta)) return std::string("a bound is NaN");
       if (a.alpha > a.beta) return std::string("min > max (oneDNN clips to min there; ONNX gives max)");
       return steps_are(s, {{EltwiseAlgorithm::clip_v2, a.alpha, a.beta}});
     },
     SLOPE(1), kExact},
    // x * Sigmoid(x), as SiLU is exported; FusedConv's oneDNN kernel runs it after the convolution
    // (ops/conv/swish.h says why).
    {"Swish", 0, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return x * sigmoid(x); },
     STEPS({EltwiseAlgorithm::swish, 1.f, 0.f}), SLOPE(1.1), kTranscendental},

    // ---- the other unary ops of ONNX (float32 only, but for the integer column) ----
    {"Erf", 9, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::erf(x); },
     NO_DNNL("oneDNN 2.6 has gelu_erf, not erf itself"), nullptr, kTranscendental},
    // exp(x). oneDNN 2.6's eltwise_exp turns a NaN input into +inf: its kernel puts NaN back (loses_nan).
    {"Exp", 1, kLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::exp(x); },
     STEPS({EltwiseAlgorithm::exp}), nullptr, kDnnlExp},
    // ln(x): -inf at +-0, NaN below 0, in the reference and oneDNN alike. Not fused: near 0 (and near 1 for
    // the absolute error) it amplifies the convolution's own rounding past FusedConv's tolerance.
    {"Log", 1, kLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::log(x); },
     STEPS({EltwiseAlgorithm::log}), nullptr, kDnnlLog},
    // The double square root of a float rounded to float is the float square root (double has more than
    // 2 * 24 + 2 bits), and oneDNN uses the correctly rounded sqrtps: exact. NaN below 0 in both.
    {"Sqrt", 1, kLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::sqrt(x); },
     STEPS({EltwiseAlgorithm::sqrt}), nullptr, kExact},
    // 1 / x: eltwise_pow with scale 1 and exponent -1, which oneDNN computes as a division (exact, NaN and
    // the signs of zeros and infinities kept). Not fused, as Sqrt and Log: near 0 it amplifies the
    // convolution's own rounding past FusedConv's tolerance.
    {"Reciprocal", 1, kLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return 1 / x; },
     STEPS({EltwiseAlgorithm::pow, 1.f, -1.f}), nullptr, kExact},
    {"Abs", 1, kLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::fabs(x); },
     STEPS({EltwiseAlgorithm::abs}), SLOPE(1), kExact, "", [](int64_t x) { return x < 0 ? wrapping_negate(x) : x; }},
    {"Floor", 1, kLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::floor(x); },
     NO_DNNL("oneDNN 2.6 eltwise rounds only to nearest"), nullptr, kExact},
    {"Ceil", 1, kLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::ceil(x); },
     NO_DNNL("oneDNN 2.6 eltwise rounds only to nearest"), nullptr, kExact},
    // To nearest, halves to even (ONNX's rule): nearbyint in the default rounding mode, as oneDNN's
    // eltwise_round (roundps with the nearest-even immediate). Not fused: a step function, so the
    // convolution's own rounding decides which way a sum near a half goes.
    {"Round", 11, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::nearbyint(x); },
     STEPS({EltwiseAlgorithm::round}), nullptr, kExact},
    // -1, 0 or 1 (0 keeps its sign, NaN stays NaN).
    {"Sign", 9, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return x > 0 ? 1 : (x < 0 ? -1 : x); },
     NO_DNNL("oneDNN 2.6 has no sign"), nullptr, kExact, "", [](int64_t x) -> int64_t { return (x > 0) - (x < 0); }},
    // x - bias above lambd, x + bias below -lambd, 0 between (NaN too, as ONNX's where() gives): one correctly
    // rounded addition, exact (Hardshrink is bias 0, Softshrink bias = lambd; PyTorch 1.13 spells both with
    // Where). Not fused: a jump at +-lambd when bias != lambd.
    {"Shrink", 9, kNoLegacyHint, {"lambd", 0.5f}, {"bias", 0.f},
     [](double x, const ActivationArgs& a) { return x < -a.alpha ? x + a.beta : (x > a.alpha ? x - a.beta : 0.0); },
     NO_DNNL("oneDNN 2.6 has no shrink"), nullptr, kExact},
    {"Sin", 7, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::sin(x); },
     NO_DNNL("oneDNN 2.6 has no sin"), nullptr, kTranscendental},
    {"Cos", 7, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::cos(x); },
     NO_DNNL("oneDNN 2.6 has no cos"), nullptr, kTranscendental},
    // The other trigonometric and hyperbolic functions: the C library's in double, rounded once.
    {"Tan", 7, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::tan(x); },
     NO_DNNL("oneDNN 2.6 has no tan"), nullptr, kTranscendental},
    {"Asin", 7, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::asin(x); },
     NO_DNNL("oneDNN 2.6 has no asin"), nullptr, kTranscendental},
    {"Acos", 7, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::acos(x); },
     NO_DNNL("oneDNN 2.6 has no acos"), nullptr, kTranscendental},
    {"Atan", 7, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::atan(x); },
     NO_DNNL("oneDNN 2.6 has no atan"), nullptr, kTranscendental},
    {"Sinh", 9, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::sinh(x); },
     NO_DNNL("oneDNN 2.6 has no sinh"), nullptr, kTranscendental},
    {"Cosh", 9, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::cosh(x); },
     NO_DNNL("oneDNN 2.6 has no cosh"), nullptr, kTranscendental},
    {"Asinh", 9, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::asinh(x); },
     NO_DNNL("oneDNN 2.6 has no asinh"), nullptr, kTranscendental},
    {"Acosh", 9, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::acosh(x); },
     NO_DNNL("oneDNN 2.6 has no acosh"), nullptr, kTranscendental},
    {"Atanh", 9, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return std::atanh(x); },
     NO_DNNL("oneDNN 2.6 has no atanh"), nullptr, kTranscendental},
    // x for x >= 0, alpha * (e^x - 1) below: eltwise_elu (which takes the exp branch at 0 and gives 0 too). oneDNN
    // computes e^x - 1, not expm1: ~1e-7 off in absolute terms near 0, times alpha (elu_scale_declines).
    {"Elu", 1, kLegacyHint, {"alpha", 1.f}, {},
     [](double x, const ActivationArgs& a) { return x < 0 ? a.alpha * std::expm1(x) : x; },
     [](const ActivationArgs& a, std::vector<EltwiseStep>& s) {
       const std::string why = elu_scale_declines(a.alpha);
       return why.empty() ? steps_are(s, {{EltwiseAlgorithm::elu, a.alpha, 0.f}}) : why;
     },
     SLOPE(std::max(1.0, std::fabs(double(a.alpha)))), kDnnlElu},
    // gamma * Elu(x, alpha): eltwise_elu then eltwise_linear (one more rounding). Opsets 1-5 defaulted to
    // the constants rounded to 5 digits.
    {"Selu", 1, kLegacyHint, {"alpha", 1.67326319217681884765625f, 1.6732f},
     {"gamma", 1.05070102214813232421875f, 1.0507f},
     [](double x, const ActivationArgs& a) { return double(a.beta) * (x <= 0 ? a.alpha * std::expm1(x) : x); },
     [](const ActivationArgs& a, std::vector<EltwiseStep>& s) {
       const std::string why = elu_scale_declines(a.alpha * a.beta);
       return why.empty() ? steps_are(s, {{EltwiseAlgorithm::elu, a.alpha, 0.f}, {EltwiseAlgorithm::linear, a.beta, 0.f}})
                          : why;
     },
     SLOPE(std::fabs(double(a.beta)) * std::max(1.0, std::fabs(double(a.alpha)))), kDnnlSelu},
    // max(0, x) + min(0, alpha * (e^(x/alpha) - 1)) = alpha * Elu(x / alpha, 1): eltwise_linear, elu and linear
    // (x / alpha * alpha is x within 2 roundings of the positive branch).
    {"Celu", 12, kNoLegacyHint, {"alpha", 1.f}, {},
     [](double x, const ActivationArgs& a) {
       return x != x ? x : std::max(0.0, x) + std::min(0.0, a.alpha * std::expm1(x / a.alpha));
     },
     [](const ActivationArgs& a, std::vector<EltwiseStep>& s) {
       if (!(std::isfinite(a.alpha) && a.alpha > 0)) return none("alpha is not a positive number");
       if (std::string why = elu_scale_declines(a.alpha); !why.empty()) return why;
       return steps_are(s, {{EltwiseAlgorithm::linear, 1 / a.alpha, 0.f},
                            {EltwiseAlgorithm::elu, 1.f, 0.f},
                            {EltwiseAlgorithm::linear, a.alpha, 0.f}});
     },
     SLOPE(a.alpha > 0 ? 1.0 : kUnbounded), kDnnlElu},
    // ln(e^x + 1), in a form that does not overflow. oneDNN 2.6's eltwise_soft_relu is ~1e-6 off in absolute
    // terms for x < 0, where the result is e^x: 1.3% off at x = -10, negative (-1.9e-6) at -20, 7.6e-6 at -64.
    {"Softplus", 1, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return x != x ? x : softplus(x); },
     NO_DNNL("oneDNN 2.6's soft_relu is up to 7.6e-6 off where e^x is tiny (x < -5), even below 0"), nullptr,
     kTranscendental},
    // x / (1 + |x|): two roundings in float, one in the reference.
    {"Softsign", 1, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return x / (1 + std::fabs(x)); },
     NO_DNNL("oneDNN 2.6 has no softsign"), nullptr, kFewRoundings},
    // x where x > alpha, else 0.
    {"ThresholdedRelu", 10, kNoLegacyHint, {"alpha", 1.f}, {},
     [](double x, const ActivationArgs& a) { return x > a.alpha || x != x ? x : 0; },
     NO_DNNL("oneDNN 2.6 has no thresholded relu"), nullptr, kExact},
    // x * tanh(ln(1 + e^x)): eltwise_mish.
    {"Mish", 18, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return x * std::tanh(softplus(x)); },
     STEPS({EltwiseAlgorithm::mish}), SLOPE(1.09), kDnnlMish},

    // ---- ops only graph passes make (cnnx.internal), from formulas exporters spell out ----
    // x * Phi(x) = 0.5 x (1 + erf(x / sqrt 2)), as erfc so negative x loses nothing to cancellation
    // (-inf gives NaN, as the spelled-out formula does): eltwise_gelu_erf. ONNX Gelu (opset 20), approximate
    // "none"; torch's nn.GELU().
    {"Gelu", 1, kNoLegacyHint, {}, {}, [](double x, const ActivationArgs&) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); },
     STEPS({EltwiseAlgorithm::gelu_erf}), SLOPE(1.13), kDnnlGelu, kInternalDomain},
    // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))): eltwise_gelu_tanh. ONNX Gelu (opset 20), approximate
    // "tanh"; torch's nn.GELU(approximate='tanh').
    {"GeluTanh", 1, kNoLegacyHint, {}, {},
     [](double x, const ActivationArgs&) {
       return 0.5 * x * (1 + std::tanh(std::sqrt(2 / kPi) * (x + 0.044715 * x * x * x)));
     },
     STEPS({EltwiseAlgorithm::gelu_tanh}), SLOPE(1.13), kDnnlGeluTanh, kInternalDomain},
};

#undef STEPS
#undef NO_DNNL
#undef SLOPE

}  // namespace

const std::vector<ActivationDef>& activations() { return kActivations; }

bool has_dnnl_kernel(const ActivationDef& row) {
  std::vector<EltwiseStep> steps;
  return row.dnnl({row.alpha.fallback, row.beta.fallback}, steps).empty();
}

const ActivationDef* find_activation(const std::string& name, const std::string& domain) {
  for (const ActivationDef& a : kActivations)
    if (name == a.name && domain == a.domain) return &a;
  return nullptr;
}

}  // namespace cnnx
