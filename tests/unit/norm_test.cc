#include <doctest/doctest.h>

#include <cmath>

#include "ops/builtin_ops.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

// Deterministic, signed, non-trivial values: v_i = scale * sin(1.7 i + phase) + offset.
Tensor wave(Shape shape, double scale = 2.0, double phase = 0.3, double offset = 0.0) {
  Tensor t(DType::f32, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = float(scale * std::sin(1.7 * double(i) + phase) + offset);
  return t;
}

Attributes batch_norm_attrs(float epsilon) {
  Attributes a;
  a.set("epsilon", float_attr(epsilon));
  return a;
}

}  // namespace

TEST_CASE("BatchNormalization in test mode normalizes every channel with the given statistics") {
  struct Case { Shape shape; int opset; float epsilon; };
  const Case cases[] = {
      {{2, 3, 4, 5}, 7, 1e-5f}, {{2, 3, 4, 5}, 9, 1e-2f}, {{2, 3, 4, 5}, 14, 1e-5f}, {{2, 3, 4, 5}, 15, 0.f},
      {{1, 4}, 15, 1e-5f},      {{3, 2, 5}, 9, 1e-3f},    {{1, 2, 2, 3, 2}, 15, 1e-5f}, {{5}, 9, 1e-5f},
      {{6}, 15, 1e-5f},         {{0, 3, 2, 2}, 15, 1e-5f},
  };
  for (const Case& c : cases) {
    CAPTURE(to_string(c.shape));
    CAPTURE(c.opset);
    CAPTURE(c.epsilon);
    const int64_t C = c.shape.size() == 1 ? 1 : c.shape[1];
    const int64_t inner = numel_range(c.shape, 2, c.shape.size());
    Tensor x = wave(c.shape), scale = wave({C}, 1.5, 1.0), B = wave({C}, 0.5, 2.0);
    Tensor mean = wave({C}, 0.7, 0.4), var = wave({C}, 0.4, 0.9, 0.6);  // var in [0.2, 1.0]
    Tensor y = run_op("BatchNormalization", batch_norm_attrs(c.epsilon), {x, scale, B, mean, var}, c.opset)[0];
    REQUIRE(y.shape() == c.shape);
    std::vector<double> want(size_t(x.numel()));
    for (int64_t i = 0; i < x.numel(); ++i) {
      const int64_t ch = (i / inner) % C;
      want[size_t(i)] = double(scale.data<float>()[ch]) * (double(x.data<float>()[i]) - mean.data<float>()[ch]) /
                            std::sqrt(double(var.data<float>()[ch]) + double(c.epsilon)) +
                        B.data<float>()[ch];
    }
    CHECK(within_tolerance("BatchNormalization", c.opset, y, want) == "");
  }
}

TEST_CASE("BatchNormalization training_mode uses batch statistics and updates the running ones") {
  // Hand-computed: one channel, values 1, 2, 3, 6 -> batch mean 3, population variance (4+1+0+9)/4 = 3.5.
  // running_mean = 0.5 * 0.9 + 3 * 0.1 = 0.75; running_var = 2 * 0.9 + 3.5 * 0.1 = 2.15.
  Attributes a;
  a.set("training_mode", int_attr(1));
  a.set("epsilon", float_attr(0.f));
  Tensor x = make_tensor({2, 1, 2}, {1, 2, 3, 6});
  Tensor scale = make_tensor({1}, {2}), B = make_tensor({1}, {0.25f});
  Tensor mean = make_tensor({1}, {0.5f}), var = make_tensor({1}, {2});
  for (int opset : {14, 15}) {
    for (size_t outputs : {1, 3}) {
      CAPTURE(opset);
      CAPTURE(outputs);
      std::vector<Tensor> r = run_op("BatchNormalization", a, {x, scale, B, mean, var}, opset, outputs);
      std::vector<double> want;
      for (int i = 0; i < 4; ++i) want.push_back(2 * (x.data<float>()[i] - 3) / std::sqrt(3.5) + 0.25);
      CHECK(within_tolerance("BatchNormalization", opset, r[0], want) == "");
      if (outputs == 3) {
        REQUIRE(r[1].shape() == Shape{1});
        REQUIRE(r[2].shape() == Shape{1});
        CHECK(within_tolerance("BatchNormalization", opset, r[1], std::vector<double>{0.75}) == "");
        CHECK(within_tolerance("BatchNormalization", opset, r[2], std::vector<double>{2.15}) == "");
      }
    }
  }

  // Several channels, default momentum: each channel uses only its own values over N and the spatial dims.
  a.set("epsilon", float_attr(1e-2f));
  Tensor x4 = wave({3, 2, 2, 3});
  Tensor s2 = wave({2}, 1.0, 0.5), b2 = wave({2}, 1.0, 1.5), m2 = wave({2}, 1.0, 2.5), v2 = wave({2}, 0.2, 0.1, 1.0);
  std::vector<Tensor> r = run_op("BatchNormalization", a, {x4, s2, b2, m2, v2}, 15, 3);
  std::vector<double> want_y(size_t(x4.numel())), want_mean(2), want_var(2);
  for (int64_t c = 0; c < 2; ++c) {
    double sum = 0, sq = 0;
    std::vector<int64_t> at;
    for (int64_t n = 0; n < 3; ++n)
      for (int64_t k = 0; k < 6; ++k) at.push_back((n * 2 + c) * 6 + k);
    for (int64_t i : at) sum += x4.data<float>()[i];
    const double mu = sum / 18;
    for (int64_t i : at) sq += (x4.data<float>()[i] - mu) * (x4.data<float>()[i] - mu);
    const double sigma2 = sq / 18;
    want_mean[size_t(c)] = 0.9 * double(m2.data<float>()[c]) + 0.1 * mu;
    want_var[size_t(c)] = 0.9 * double(v2.data<float>()[c]) + 0.1 * sigma2;
    for (int64_t i : at)
      want_y[size_t(i)] =
          s2.data<float>()[c] * (x4.data<float>()[i] - mu) / std::sqrt(sigma2 + 1e-2f) + b2.data<float>()[c];
  }
  CHECK(within_tolerance("BatchNormalization", 15, r[0], want_y) == "");
  CHECK(within_tolerance("BatchNormalization", 15, r[1], want_mean) == "");
  CHECK(within_tolerance("BatchNormalization", 15, r[2], want_var) == "");
}

TEST_CASE("BatchNormalization refuses legacy attributes, training outputs it does not define, and bad shapes") {
  Tensor x = wave({2, 3, 2}), s = wave({3}), v = wave({3}, 0.1, 0.0, 1.0);
  auto attrs = [](const char* name, Attribute value) {
    Attributes a;
    a.set(name, std::move(value));
    return a;
  };
  // what, attributes, inputs, opset, output count, a fragment of the expected message.
  struct Case { const char* what; Attributes attrs; std::vector<Tensor> in; int opset; size_t outputs; const char* message; };
  const Case cases[] = {
      {"spatial = 0", attrs("spatial", int_attr(0)), {x, s, s, s, v}, 7, 1, "'spatial' = 0"},
      {"spatial is gone at opset 9", attrs("spatial", int_attr(1)), {x, s, s, s, v}, 9, 1, "unknown attribute 'spatial'"},
      {"consumed_inputs of opset 1", attrs("consumed_inputs", ints({0, 0, 0, 1, 1})), {x, s, s, s, v}, 7, 1, "before opset 7"},
      {"is_test of opset 6", attrs("is_test", int_attr(1)), {x, s, s, s, v}, 9, 1, "before opset 7"},
      {"opset 6 itself", {}, {x, s, s, s, v}, 6, 1, "needs opset 7"},
      {"training_mode before opset 14", attrs("training_mode", int_attr(1)), {x, s, s, s, v}, 9, 1, "unknown attribute 'training_mode'"},
      {"training_mode = 2", attrs("training_mode", int_attr(2)), {x, s, s, s, v}, 15, 1, "'training_mode' must be 0 or 1"},
      {"training outputs before opset 14", {}, {x, s, s, s, v}, 9, 3, "training output"},
      {"running outputs without training_mode", {}, {x, s, s, s, v}, 15, 3, "only valid with training_mode = 1"},
      {"5 outputs at opset 15", attrs("training_mode", int_attr(1)), {x, s, s, s, v}, 15, 5, "outputs, got 5"},
      {"negative epsilon", attrs("epsilon", float_attr(-1.f)), {x, s, s, s, v}, 15, 1, "'epsilon'"},
      {"scale of the wrong size", {}, {x, wave({4}), s, s, v}, 15, 1, "scale has 4 elements but X has C = 3"},
      {"var of rank 2", {}, {x, s, s, s, wave({3, 1})}, 15, 1, "var must be 1-D"},
      {"rank-1 X before opset 9", {}, {wave({3}), wave({1}), wave({1}), wave({1}), wave({1})}, 7, 1, "rank >= 2"},
      {"scalar X", {}, {wave({}), wave({1}), wave({1}), wave({1}), wave({1})}, 15, 1, "rank >= 1"},
      {"int64 X", {}, {make_int_tensor({1, 3}, {1, 2, 3}), s, s, s, v}, 15, 1, "input 0 has element type"},
      {"four inputs", {}, {x, s, s, s}, 15, 1, "expects 5 inputs"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    CHECK_THROWS_WITH_AS(run_op("BatchNormalization", c.attrs, c.in, c.opset, c.outputs), doctest::Contains(c.message),
                         Error);
  }
}

TEST_CASE("LRN sums squares over the channel window [c - floor((size-1)/2), c + ceil((size-1)/2)]") {
  struct Case { Shape shape; int64_t size; float alpha, beta, bias; int opset; };
  const Case cases[] = {
      {{1, 5, 2, 2}, 3, 1e-4f, 0.75f, 1.f, 13}, {{2, 5, 3, 3}, 5, 2e-1f, 0.5f, 2.f, 13},
      {{1, 6, 2, 1}, 2, 5e-1f, 0.75f, 1.f, 13}, {{1, 6, 1, 2}, 4, 5e-1f, 1.f, 0.5f, 1},
      {{1, 4, 3}, 1, 1.f, 0.75f, 1.f, 13},       {{1, 3, 2, 2, 2}, 7, 3.f, 0.3f, 1.f, 13},
      {{2, 3, 2}, 100, 1.f, 2.f, 1.f, 1},        {{1, 1, 0, 3}, 3, 1e-4f, 0.75f, 1.f, 13},
  };
  for (const Case& c : cases) {
    CAPTURE(to_string(c.shape));
    CAPTURE(c.size);
    CAPTURE(c.alpha);
    CAPTURE(c.beta);
    CAPTURE(c.bias);
    CAPTURE(c.opset);
    Attributes a;
    a.set("size", int_attr(c.size));
    a.set("alpha", float_attr(c.alpha));
    a.set("beta", float_attr(c.beta));
    a.set("bias", float_attr(c.bias));
    Tensor x = wave(c.shape, 3.0);
    Tensor y = run_op("LRN", a, {x}, c.opset)[0];
    REQUIRE(y.shape() == c.shape);
    const int64_t C = c.shape[1], inner = numel_range(c.shape, 2, c.shape.size());
    std::vector<double> want(size_t(x.numel()));
    for (int64_t i = 0; i < x.numel(); ++i) {
      const int64_t n = i / (C * inner), ch = (i / inner) % C, s = i % inner;
      double square_sum = 0;
      for (int64_t k = 0; k < C; ++k)
        if (double(k) >= double(ch) - std::floor((c.size - 1) / 2.0) && double(k) <= double(ch) + std::ceil((c.size - 1) / 2.0))
          square_sum += std::pow(double(x.data<float>()[(n * C + k) * inner + s]), 2);
      want[size_t(i)] = x.data<float>()[i] / std::pow(c.bias + c.alpha / double(c.size) * square_sum, c.beta);
    }
    CHECK(within_tolerance("LRN", c.opset, y, want) == "");
  }
}

TEST_CASE("LRN matches numpy on an even window") {
  // numpy (float64): x = arange(4).reshape(1,4,1,1); size 2 -> window {c, c+1}; alpha 1, beta 1, bias 1:
  // y = x / (1 + (x_c^2 + x_{c+1}^2) / 2) = [0, 1/3.5, 2/7.5, 3/5.5].
  Attributes a;
  a.set("size", int_attr(2));
  a.set("alpha", float_attr(1.f));
  a.set("beta", float_attr(1.f));
  Tensor y = run_op("LRN", a, {make_tensor({1, 4, 1, 1})})[0];
  const std::vector<double> want{0.0, 0.2857142857142857, 0.26666666666666666, 0.5454545454545454};
  CHECK(within_tolerance("LRN", 19, y, want) == "");
}

TEST_CASE("LRN refuses bad attributes and ranks") {
  auto with_size = [](int64_t size) {
    Attributes a;
    a.set("size", int_attr(size));
    return a;
  };
  Attributes typo = with_size(3);
  typo.set("alhpa", float_attr(1.f));
  Attributes nan_beta = with_size(3);
  nan_beta.set("beta", float_attr(NAN));
  struct Case { const char* what; Attributes attrs; Tensor x; const char* message; };
  const Case cases[] = {
      {"size missing", {}, wave({1, 3, 2, 2}), "'size' is required"},
      {"size 0", with_size(0), wave({1, 3, 2, 2}), "'size' must be >= 1, got 0"},
      {"size negative", with_size(-3), wave({1, 3, 2, 2}), "'size' must be >= 1, got -3"},
      {"unknown attribute", typo, wave({1, 3, 2, 2}), "unknown attribute 'alhpa'"},
      {"NaN beta", nan_beta, wave({1, 3, 2, 2}), "must be finite"},
      {"rank 2", with_size(3), wave({2, 3}), "rank >= 3"},
      {"int64 input", with_size(3), make_int_tensor({1, 2, 1}, {1, 2}), "element type"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    CHECK_THROWS_WITH_AS(run_op("LRN", c.attrs, {c.x}), doctest::Contains(c.message), Error);
  }
}

TEST_CASE("BatchNormalization and LRN infer shapes with dims unknown at load time") {
  const int64_t U = kUnknownDim;
  Attributes training;
  training.set("training_mode", int_attr(1));
  Node bn = make_node("BatchNormalization", training, 5, 3, 15);
  auto infer_bn = [&](Shape x, Shape stats) {
    std::vector<ValueInfo> in{ValueInfo::of(DType::f32, x)};
    for (int i = 0; i < 4; ++i) in.push_back(ValueInfo::of(DType::f32, stats));
    return bn.def->infer(*bn.params, in);
  };
  std::vector<ValueInfo> out = infer_bn({U, 3, U, U}, {3});
  REQUIRE(out.size() == 3);
  CHECK(out[0].shape == Shape{U, 3, U, U});
  CHECK(out[1].shape == Shape{3});
  CHECK(out[2].shape == Shape{3});
  CHECK(infer_bn({U, U, 4}, {5})[1].shape == Shape{5});  // C unknown: taken from the statistics
  CHECK(infer_bn({2, U}, {U})[1].shape == Shape{U});
  CHECK_THROWS_WITH_AS(infer_bn({U, 3, U}, {4}), doctest::Contains("has 4 elements but X has C = 3"), Error);

  Attributes size3;
  size3.set("size", int_attr(3));
  Node lrn = make_node("LRN", size3, 1, 1, 13);
  CHECK(lrn.def->infer(*lrn.params, {ValueInfo::of(DType::f32, {U, U, U})})[0].shape == Shape{U, U, U});
}
