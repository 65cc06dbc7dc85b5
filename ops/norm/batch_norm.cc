#include "ops/norm/batch_norm.h"

#include <cmath>

namespace cnnx {

namespace {

const char* const kStatNames[] = {"X", "scale", "B", "mean", "var"};

bool has_output(const Node& node, size_t i) { return i < node.outputs.size() && node.outputs[i] >= 0; }

}  // namespace

BatchNormParams parse_batch_norm(const Node& node) {
  require_inputs(node, 5, 5);
  for (const char* legacy : {"consumed_inputs", "is_test"})
    require(!node.attrs.has(legacy), "attribute '", legacy,
            "' belongs to BatchNormalization before opset 7, which cnnx does not implement");
  BatchNormParams p;
  if (node.opset < 9) {
    node.attrs.allow_only({"epsilon", "momentum", "spatial"});
    int64_t spatial = node.attrs.get_int("spatial", 1);
    require(spatial == 1, "attribute 'spatial' = ", spatial,
            " (per-activation statistics) is not supported; only spatial = 1 is");
  } else if (node.opset < 14) {
    node.attrs.allow_only({"epsilon", "momentum"});
  } else {
    node.attrs.allow_only({"epsilon", "momentum", "training_mode"});
    int64_t mode = node.attrs.get_int("training_mode", 0);
    require(mode == 0 || mode == 1, "attribute 'training_mode' must be 0 or 1, got ", mode);
    p.training = mode == 1;
  }
  p.allow_rank1 = node.opset >= 9;
  p.epsilon = node.attrs.get_float("epsilon", p.epsilon);
  p.momentum = node.attrs.get_float("momentum", p.momentum);
  require(std::isfinite(p.epsilon) && p.epsilon >= 0, "attribute 'epsilon' must be finite and >= 0, got ",
          p.epsilon);
  require(std::isfinite(p.momentum), "attribute 'momentum' must be finite, got ", p.momentum);

  if (node.opset < 14) {
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

std::vector<ValueInfo> infer_batch_norm(const BatchNormParams& p, const std::vector<ValueInfo>& in) {
  for (size_t i = 0; i < 5; ++i) require_dtype(in, i, {DType::f32});
  const ValueInfo& x = in[0];
  require(x.rank() >= 2 || (p.allow_rank1 && x.rank() == 1), "input X must have rank >= ",
          p.allow_rank1 ? 1 : 2, " (N x C x D1 ... Dn), got shape ", to_string(x.shape));
  const int64_t C = x.rank() == 1 ? 1 : x.shape[1];
  for (size_t i = 1; i < 5; ++i) {
    const Shape& s = in[i].shape;
    require(s.size() == 1, "input ", kStatNames[i], " must be 1-D of size C, got shape ", to_string(s));
    require(s[0] == C || s[0] == kUnknownDim || C == kUnknownDim, "input ", kStatNames[i], " has ", s[0],
            " elements but X has C = ", C, " channels (shape ", to_string(x.shape), ")");
  }
  std::vector<ValueInfo> out{same_as_input(in)};
  if (p.training) {
    Shape stats{C != kUnknownDim ? C : in[3].shape[0]};
    out.push_back(ValueInfo::of(DType::f32, stats));  // running_mean
    out.push_back(ValueInfo::of(DType::f32, stats));  // running_var
  }
  return out;
}

void batch_norm_ref(const BatchNormParams& p, const KernelIO& io) {
  const Tensor& X = *io.in[0];
  const int64_t N = X.dim(0);
  const int64_t C = X.rank() == 1 ? 1 : X.dim(1);
  const int64_t inner = numel_range(X.shape(), 2, X.shape().size());
  const float* x = X.data<float>();
  const float* scale = io.in[1]->data<float>();
  const float* B = io.in[2]->data<float>();
  const float* mean_in = io.in[3]->data<float>();
  const float* var_in = io.in[4]->data<float>();
  float* y = io.out[0]->data<float>();
  for (int64_t c = 0; c < C; ++c) {
    double mean = mean_in[c], var = var_in[c];
    if (p.training) {
      // Batch mean and population variance (divide by n, not n - 1), two passes in double.
      const double n = double(N) * double(inner);
      double sum = 0, sq = 0;
      for (int64_t b = 0; b < N; ++b)
        for (int64_t i = 0; i < inner; ++i) sum += x[(b * C + c) * inner + i];
      mean = sum / n;
      for (int64_t b = 0; b < N; ++b)
        for (int64_t i = 0; i < inner; ++i) {
          double d = x[(b * C + c) * inner + i] - mean;
          sq += d * d;
        }
      var = sq / n;
      const double m = p.momentum;
      if (io.out.size() > 1 && io.out[1]) io.out[1]->data<float>()[c] = float(mean_in[c] * m + mean * (1 - m));
      if (io.out.size() > 2 && io.out[2]) io.out[2]->data<float>()[c] = float(var_in[c] * m + var * (1 - m));
    }
    const double a = scale[c] / std::sqrt(var + double(p.epsilon));
    for (int64_t b = 0; b < N; ++b) {
      const int64_t base = (b * C + c) * inner;
      for (int64_t i = 0; i < inner; ++i) y[base + i] = float((x[base + i] - mean) * a + B[c]);
      if (p.then_relu)  // ONNX Relu: max(0, y), NaN kept
        for (int64_t i = 0; i < inner; ++i) y[base + i] = y[base + i] < 0 ? 0.f : y[base + i];
    }
  }
}

}  // namespace cnnx
