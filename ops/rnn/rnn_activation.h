// The activation functions of LSTM, GRU and RNN (ONNX's `activations`, `activation_alpha`, `activation_beta`):
// a closed list of names, each a formula in double with at most two parameters. They are not rows of the
// shared activation table (ops/common/activation.h): Affine and ScaledTanh exist only here, and the recurrent
// ops read their parameters from lists, not from attributes of their own.
//
//   Relu max(0, x)           Tanh tanh(x)                 Sigmoid 1 / (1 + e^-x)
//   Affine a x + b           LeakyRelu x >= 0 ? x : a x   ThresholdedRelu x > a ? x : 0
//   ScaledTanh a tanh(b x)   HardSigmoid min(max(a x + b, 0), 1)
//   Elu x >= 0 ? x : a (e^x - 1)   Softsign x / (1 + |x|)   Softplus log(1 + e^x)
#pragma once

#include <string>
#include <vector>

namespace cnnx {

enum class RnnActivationKind {
  relu, tanh, sigmoid, affine, leaky_relu, thresholded_relu, scaled_tanh, hard_sigmoid, elu, softsign, softplus
};

struct RnnActivation {
  RnnActivationKind kind = RnnActivationKind::tanh;
  double alpha = 0, beta = 0;  // used only by the kinds that take them
  double operator()(double x) const;
};

// The activations of `names` (case-insensitive, as ONNX Runtime reads them) with their parameters taken in
// order from `alphas` and `betas`: each function that takes an alpha (Affine, LeakyRelu, ThresholdedRelu,
// ScaledTanh, HardSigmoid, Elu) consumes the next value of `alphas`, each that takes a beta (Affine,
// ScaledTanh, HardSigmoid) the next of `betas`, and a list that runs out gives the function's default
// (LeakyRelu 0.01, ThresholdedRelu 1, HardSigmoid 0.2 and 0.5, Elu 1, Affine 1 and 0, ScaledTanh 1 and 1).
// Throws on an unknown name and on values left over in either list (naming both).
std::vector<RnnActivation> parse_rnn_activations(const std::vector<std::string>& names,
                                                 const std::vector<float>& alphas, const std::vector<float>& betas);

// "Sigmoid", "Tanh", ... as ONNX spells it.
const char* rnn_activation_name(RnnActivationKind kind);

}  // namespace cnnx
