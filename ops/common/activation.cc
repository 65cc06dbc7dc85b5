#include "ops/common/activation.h"

#include <algorithm>
#include <cmath>

namespace cnnx {

namespace {

// A multiply-add and a clamp: another engine may round in another order (x * (x + 3) / 6 for HardSwish).
constexpr Tolerance kFewRoundings{1e-7, 1e-6};
// exp/tanh: float32 libm and oneDNN's vectorized versions differ by a few ulp (2^-23 ~ 1.2e-7 relative);
// near 0 the relative error of 1 - e^-x style forms grows, hence the absolute term.
constexpr Tolerance kTranscendental{1e-6, 4e-6};

double clamp(double v, double lo, double hi) { return v < lo ? lo : (v > hi ? hi : v); }  // keeps NaN
double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

std::string steps_are(std::vector<EltwiseStep>& steps, std::vector<EltwiseStep> s) {
  steps = std::move(s);
  return "";
}

const std::vector<ActivationDef> kActivations = {
    {"Relu", 6, {}, {}, [](double x, const ActivationArgs&) { return x > 0 || x != x ? x : 0; },
     [](const ActivationArgs&, std::vector<EltwiseStep>& s) { return steps_are(s, {{EltwiseAlgorithm::relu}}); },
     true, kExact},
    // eltwise_relu with the negative slope as alpha (x >= 0 and x > 0 agree: both give 0 at 0).
    {"LeakyRelu", 6, {"alpha", 0.01f}, {}, [](double x, const ActivationArgs& a) { return x < 0 ? a.alpha * x : x; },
     [](const ActivationArgs& a, std::vector<EltwiseStep>& s) {
       return steps_are(s, {{EltwiseAlgorithm::relu, a.alpha, 0.f}});
     },
     true, kExact},
    {"Sigmoid", 6, {}, {}, [](double x, const ActivationArgs&) { return sigmoid(x); },
     [](const ActivationArgs&, std::vector<EltwiseStep>& s) { return steps_are(s, {{EltwiseAlgorithm::logistic}}); },
     true, kTranscendental},
    {"Tanh", 6, {}, {}, [](double x, const ActivationArgs&) { return std::tanh(x); },
     [](const ActivationArgs&, std::vector<EltwiseStep>& s) { return steps_are(s, {{EltwiseAlgorithm::tanh}}); },
     true, kTranscendental},
    // oneDNN 2.6 has no hardsigmoid: alpha * x + beta (eltwise_linear), then clip to [0, 1] in place.
    {"HardSigmoid", 6, {"alpha", 0.2f}, {"beta", 0.5f},
     [](double x, const ActivationArgs& a) { return clamp(double(a.alpha) * x + a.beta, 0, 1); },
     [](const ActivationArgs& a, std::vector<EltwiseStep>& s) {
       return steps_are(s, {{EltwiseAlgorithm::linear, a.alpha, a.beta}, {EltwiseAlgorithm::clip_v2, 0.f, 1.f}});
     },
     true, kFewRoundings},
    // oneDNN 2.6 hardswish is x * min(max(x + 3, 0), 6) / 6, ONNX's x * max(0, min(1, x / 6 + 0.5)); its alpha
    // and beta are ignored.
    {"HardSwish", 14, {}, {}, [](double x, const ActivationArgs&) { return x * clamp(x / 6 + 0.5, 0, 1); },
     [](const ActivationArgs&, std::vector<EltwiseStep>& s) { return steps_are(s, {{EltwiseAlgorithm::hardswish}}); },
     true, kFewRoundings},
    // -x: eltwise_linear with alpha -1 (exact; oneDNN gives +0 for x = 0 where the reference gives -0).
    {"Neg", 6, {}, {}, [](double x, const ActivationArgs&) { return -x; },
     [](const ActivationArgs&, std::vector<EltwiseStep>& s) {
       return steps_are(s, {{EltwiseAlgorithm::linear, -1.f, 0.f}});
     },
     true, kExact},
    // min(max(x, alpha = min), beta = max). eltwise_clip_v2 gives alpha where x <= alpha; ONNX gives max
    // everywhere when min > max.
    {"Clip", 0, {}, {}, [](double x, const ActivationArgs& a) { return clamp(x, a.alpha, a.beta); },
     [](const ActivationArgs& a, std::vector<EltwiseStep>& s) {
       if (std::isnan(a.alpha) || std::isnan(a.beta)) return std::string("a bound is NaN");
       if (a.alpha > a.beta) return std::string("min > max (oneDNN clips to min there; ONNX gives max)");
       return steps_are(s, {{EltwiseAlgorithm::clip_v2, a.alpha, a.beta}});
     },
     true, kExact},
    // x * Sigmoid(x), as SiLU is exported; FusedConv's oneDNN kernel runs it after the convolution
    // (ops/conv/swish.h says why).
    {"Swish", 0, {}, {}, [](double x, const ActivationArgs&) { return x * sigmoid(x); },
     [](const ActivationArgs&, std::vector<EltwiseStep>& s) {
       return steps_are(s, {{EltwiseAlgorithm::swish, 1.f, 0.f}});
     },
     true, kTranscendental},
};

}  // namespace

const std::vector<ActivationDef>& activations() { return kActivations; }

const ActivationDef* find_activation(const std::string& name) {
  for (const ActivationDef& a : kActivations)
    if (name == a.name) return &a;
  return nullptr;
}

}  // namespace cnnx
