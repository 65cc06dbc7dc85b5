#include "ops/rnn/rnn_activation.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "engine/error.h"

namespace cnnx {

namespace {

struct ActivationRow {
  RnnActivationKind kind;
  const char* name;
  int params;  // 0, 1 (alpha) or 2 (alpha and beta)
  double alpha, beta;  // defaults
};

const ActivationRow kRows[] = {
    {RnnActivationKind::relu, "Relu", 0, 0, 0},
    {RnnActivationKind::tanh, "Tanh", 0, 0, 0},
    {RnnActivationKind::sigmoid, "Sigmoid", 0, 0, 0},
    {RnnActivationKind::affine, "Affine", 2, 1, 0},
    {RnnActivationKind::leaky_relu, "LeakyRelu", 1, 0.01, 0},
    {RnnActivationKind::thresholded_relu, "ThresholdedRelu", 1, 1, 0},
    {RnnActivationKind::scaled_tanh, "ScaledTanh", 2, 1, 1},
    {RnnActivationKind::hard_sigmoid, "HardSigmoid", 2, 0.2, 0.5},
    {RnnActivationKind::elu, "Elu", 1, 1, 0},
    {RnnActivationKind::softsign, "Softsign", 0, 0, 0},
    {RnnActivationKind::softplus, "Softplus", 0, 0, 0},
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

}  // namespace

double RnnActivation::operator()(double x) const {
  switch (kind) {
    case RnnActivationKind::relu: return x > 0 ? x : 0.0;
    case RnnActivationKind::tanh: return std::tanh(x);
    case RnnActivationKind::sigmoid: return 1.0 / (1.0 + std::exp(-x));
    case RnnActivationKind::affine: return alpha * x + beta;
    case RnnActivationKind::leaky_relu: return x >= 0 ? x : alpha * x;
    case RnnActivationKind::thresholded_relu: return x > alpha ? x : 0.0;
    case RnnActivationKind::scaled_tanh: return alpha * std::tanh(beta * x);
    case RnnActivationKind::hard_sigmoid: return std::min(std::max(alpha * x + beta, 0.0), 1.0);
    case RnnActivationKind::elu: return x >= 0 ? x : alpha * std::expm1(x);
    case RnnActivationKind::softsign: return x / (1.0 + std::fabs(x));
    case RnnActivationKind::softplus: return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
  }
  return x;
}

const char* rnn_activation_name(RnnActivationKind kind) {
  for (const ActivationRow& r : kRows)
    if (r.kind == kind) return r.name;
  return "?";
}

std::vector<RnnActivation> parse_rnn_activations(const std::vector<std::string>& names,
                                                 const std::vector<float>& alphas, const std::vector<float>& betas) {
  std::vector<RnnActivation> out;
  size_t next_alpha = 0, next_beta = 0;
  for (const std::string& name : names) {
    const ActivationRow* row = nullptr;
    for (const ActivationRow& r : kRows)
      if (lower(r.name) == lower(name)) row = &r;
    require(row != nullptr, "attribute activations: unknown activation '", name,
            "' (known: Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, "
            "Softsign, Softplus)");
    RnnActivation a{row->kind, row->alpha, row->beta};
    if (row->params >= 1 && next_alpha < alphas.size()) a.alpha = alphas[next_alpha++];
    if (row->params >= 2 && next_beta < betas.size()) a.beta = betas[next_beta++];
    out.push_back(a);
  }
  require(next_alpha == alphas.size(), "attribute activation_alpha has ", alphas.size(),
          " values, but the activations take only ", next_alpha);
  require(next_beta == betas.size(), "attribute activation_beta has ", betas.size(),
          " values, but the activations take only ", next_beta);
  return out;
}

}  // namespace cnnx
