#include <doctest/doctest.h>

#include <cmath>
#include <limits>

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
      {"spatial = 0 with per-channel statistics", attrs("spatial", int_attr(0)), {x, s, s, s, v}, 7, 1,
       "spatial = 0 needs shape (C x D1 x ... x Dn) = [3,2] or 6 values in 1-D"},
      {"spatial is gone at opset 9", attrs("spatial", int_attr(1)), {x, s, s, s, v}, 9, 1, "unknown attribute 'spatial'"},
      {"consumed_inputs after opset 1", attrs("consumed_inputs", ints({0, 0, 0, 1, 1})), {x, s, s, s, v}, 6, 1,
       "unknown attribute 'consumed_inputs'"},
      {"consumed_inputs not ints", attrs("consumed_inputs", int_attr(1)), {x, s, s, s, v}, 1, 1, "consumed_inputs"},
      {"is_test after opset 6", attrs("is_test", int_attr(1)), {x, s, s, s, v}, 7, 1, "unknown attribute 'is_test'"},
      {"opset 6 test mode with training outputs", attrs("is_test", int_attr(1)), {x, s, s, s, v}, 6, 3,
       "only defined in training mode (is_test = 0)"},
      {"opset 6 saved_mean", {}, {x, s, s, s, v}, 6, 4, "saved_var's meaning open"},
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

// ---- BatchNormalization's legacy opsets ----

TEST_CASE("BatchNormalization opsets 1 and 6: is_test 1 is test mode, is_test 0 training; spatial = 0 per activation") {
  Tensor x = wave({3, 2, 2}), scale = wave({2}, 1.5, 1.0), B = wave({2}, 0.5, 2.0);
  Tensor mean = wave({2}, 0.7, 0.4), var = wave({2}, 0.4, 0.9, 0.6);
  auto given_stats = [&](const Tensor& xx, const Tensor& sc, const Tensor& b, const Tensor& m, const Tensor& v,
                         int64_t channels, int64_t inner, float eps) {
    std::vector<double> want(size_t(xx.numel()));
    for (int64_t i = 0; i < xx.numel(); ++i) {
      const int64_t c = (i / inner) % channels;
      want[size_t(i)] = double(sc.data<float>()[c]) * (xx.data<float>()[i] - double(m.data<float>()[c])) /
                            std::sqrt(double(v.data<float>()[c]) + double(eps)) + b.data<float>()[c];
    }
    return want;
  };
  for (int opset : {1, 6}) {
    CAPTURE(opset);
    Attributes test;
    test.set("is_test", int_attr(1));
    if (opset == 1) test.set("consumed_inputs", ints({0, 0, 0, 1, 1}));
    Tensor y = run_op("BatchNormalization", test, {x, scale, B, mean, var}, opset)[0];
    CHECK(within_tolerance("BatchNormalization", opset, y, given_stats(x, scale, B, mean, var, 2, 2, 1e-5f)) == "");
  }
  // is_test = 0 (the default): the batch's statistics, and the running ones out. One channel: 1, 2, 3, 6 ->
  // mean 3, variance 3.5; running mean 0.5 * 0.9 + 3 * 0.1 = 0.75, running var 2 * 0.9 + 3.5 * 0.1 = 2.15.
  Attributes training;
  training.set("epsilon", float_attr(0.f));
  std::vector<Tensor> r = run_op("BatchNormalization", training,
                                 {make_tensor({2, 1, 2}, {1, 2, 3, 6}), make_tensor({1}, {2}), make_tensor({1}, {0.25f}),
                                  make_tensor({1}, {0.5f}), make_tensor({1}, {2})}, 6, 3);
  std::vector<double> want;
  for (double v : {1, 2, 3, 6}) want.push_back(2 * (v - 3) / std::sqrt(3.5) + 0.25);
  CHECK(within_tolerance("BatchNormalization", 6, r[0], want) == "");
  CHECK(within_tolerance("BatchNormalization", 6, r[1], std::vector<double>{0.75}) == "");
  CHECK(within_tolerance("BatchNormalization", 6, r[2], std::vector<double>{2.15}) == "");
  // spatial = 0 in test mode: one scale, B, mean and var per activation (c, h), given as (C x H) or flat.
  for (int opset : {1, 6, 7}) {
    for (bool flat : {false, true}) {
      CAPTURE(opset);
      CAPTURE(flat);
      const Shape stats = flat ? Shape{4} : Shape{2, 2};
      Tensor s4 = wave(stats, 1.5, 1.0), b4 = wave(stats, 0.5, 2.0), m4 = wave(stats, 0.7, 0.4);
      Tensor v4 = wave(stats, 0.4, 0.9, 0.6);
      Attributes a;
      a.set("spatial", int_attr(0));
      if (opset < 7) a.set("is_test", int_attr(1));
      if (opset == 1) a.set("consumed_inputs", ints({0, 0, 0, 1, 1}));
      Tensor y = run_op("BatchNormalization", a, {x, s4, b4, m4, v4}, opset)[0];
      CHECK(within_tolerance("BatchNormalization", opset, y, given_stats(x, s4, b4, m4, v4, 4, 1, 1e-5f)) == "");
    }
  }
  // spatial = 0 in training mode: statistics per activation over the batch only.
  Attributes per_activation;
  per_activation.set("spatial", int_attr(0));
  per_activation.set("epsilon", float_attr(0.f));
  Tensor x2 = make_tensor({2, 1, 2}, {1, 10, 3, 20});  // activation 0: 1, 3 (mean 2, var 1); 1: 10, 20 (15, 25)
  Tensor ones = make_tensor({1, 2}, {1, 1}), zeros = make_tensor({1, 2}, {0, 0});
  Tensor y2 = run_op("BatchNormalization", per_activation, {x2, ones, zeros, zeros, ones}, 6)[0];
  CHECK(within_tolerance("BatchNormalization", 6, y2, std::vector<double>{-1, -1, 1, 1}) == "");
}

TEST_CASE("BatchNormalization warns at load that is_test = 0 before opset 7 is training mode") {
  Attributes training, test;
  test.set("is_test", int_attr(1));
  Node n = make_node("BatchNormalization", training, 5, 1, 6);
  std::vector<ValueInfo> in(5, ValueInfo::of(DType::f32, {3}));
  in[0] = ValueInfo::of(DType::f32, {2, 3, 4});
  CHECK(n.def->hints.caution(*n.params, in).find("training mode") != std::string::npos);
  Node m = make_node("BatchNormalization", test, 5, 1, 6);
  CHECK(m.def->hints.caution(*m.params, in) == "");
}

// ---- LayerNormalization ----

namespace {

// Y, Mean and InvStdDev of LayerNormalization in double, for Scale and B of shape X.shape[axis:] (B may be
// undefined).
struct LayerNormWant {
  std::vector<double> y, mean, inv;
};

LayerNormWant layer_norm_want(const Tensor& x, size_t axis, const Tensor& scale, const Tensor& B, double eps) {
  const int64_t rows = numel_range(x.shape(), 0, axis), cols = numel_range(x.shape(), axis, x.shape().size());
  LayerNormWant w;
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0, sq = 0;
    for (int64_t i = 0; i < cols; ++i) sum += x.data<float>()[r * cols + i];
    const double m = sum / double(cols);
    for (int64_t i = 0; i < cols; ++i) sq += std::pow(x.data<float>()[r * cols + i] - m, 2);
    const double inv = 1 / std::sqrt(sq / double(cols) + eps);
    w.mean.push_back(m);
    w.inv.push_back(inv);
    for (int64_t i = 0; i < cols; ++i)
      w.y.push_back((x.data<float>()[r * cols + i] - m) * inv * scale.data<float>()[i] +
                    (B.defined() ? B.data<float>()[i] : 0.0));
  }
  return w;
}

}  // namespace

TEST_CASE("LayerNormalization normalizes over the trailing axes from 'axis', with and without B") {
  struct Case { Shape x; int64_t axis; bool bias; float epsilon; };
  const Case cases[] = {
      {{2, 3, 5}, -1, true, 1e-5f}, {{2, 3, 5}, 2, false, 1e-5f}, {{2, 3, 5}, 1, true, 1e-5f},
      {{2, 3, 5}, -2, false, 0.5f}, {{2, 3, 4, 5}, 2, true, 1e-2f}, {{4, 6}, 0, true, 1e-5f},
      {{7}, -1, false, 0.f},
  };
  for (const Case& c : cases) {
    CAPTURE(to_string(c.x));
    CAPTURE(c.axis);
    CAPTURE(c.bias);
    CAPTURE(c.epsilon);
    const size_t axis = size_t(c.axis < 0 ? c.axis + int64_t(c.x.size()) : c.axis);
    const Shape norm(c.x.begin() + long(axis), c.x.end());
    Tensor x = wave(c.x, 2.0, 0.3, 0.5), scale = wave(norm, 1.0, 1.1, 1.2), B = c.bias ? wave(norm, 0.5, 2.0) : Tensor();
    Attributes a;
    a.set("axis", int_attr(c.axis));
    a.set("epsilon", float_attr(c.epsilon));
    std::vector<Tensor> r = run_op("LayerNormalization", a, c.bias ? std::vector<Tensor>{x, scale, B}
                                                                    : std::vector<Tensor>{x, scale}, 17, 3);
    Shape stats = c.x;
    for (size_t d = axis; d < stats.size(); ++d) stats[d] = 1;
    REQUIRE(r[0].shape() == c.x);
    REQUIRE(r[1].shape() == stats);
    REQUIRE(r[2].shape() == stats);
    const LayerNormWant w = layer_norm_want(x, axis, scale, B, c.epsilon);
    CHECK(within_tolerance("LayerNormalization", 17, r[0], w.y) == "");
    CHECK(within_tolerance("LayerNormalization", 17, r[1], w.mean) == "");
    CHECK(within_tolerance("LayerNormalization", 17, r[2], w.inv) == "");
  }
}

TEST_CASE("LayerNormalization broadcasts Scale and B, and axis = rank normalizes each value alone") {
  // Scale [1] and B [3, 1] over X [2, 3, 4] normalized along the last axis.
  Tensor x = wave({2, 3, 4}), scale = make_tensor({1}, {2}), B = make_tensor({3, 1}, {1, -1, 0.5f});
  Tensor y = run_op("LayerNormalization", {}, {x, scale, B}, 17)[0];
  const LayerNormWant w = layer_norm_want(x, 2, make_tensor({4}, {2, 2, 2, 2}), Tensor(), 1e-5);
  std::vector<double> want = w.y;
  for (size_t i = 0; i < want.size(); ++i) want[i] += B.data<float>()[(i / 4) % 3];
  CHECK(within_tolerance("LayerNormalization", 17, y, want) == "");

  Attributes last;
  last.set("axis", int_attr(3));
  std::vector<Tensor> r =
      run_op("LayerNormalization", last, {wave({2, 3, 2}), make_tensor({1}, {3}), make_tensor({2}, {7, 8})}, 17, 3);
  for (int64_t i = 0; i < 12; ++i) CHECK(r[0].data<float>()[i] == (i % 2 ? 8.f : 7.f));
  CHECK(r[1].shape() == Shape{2, 3, 2});
  CHECK(within_tolerance("LayerNormalization", 17, r[2], std::vector<double>(12, 1 / std::sqrt(1e-5f))) == "");
}

TEST_CASE("LayerNormalization refuses bad attributes and shapes") {
  Tensor x = wave({2, 3, 4}), s = wave({4});
  auto attrs = [](const char* name, Attribute value) {
    Attributes a;
    a.set(name, std::move(value));
    return a;
  };
  struct Case { const char* what; Attributes attrs; std::vector<Tensor> in; size_t outputs; const char* message; };
  const Case cases[] = {
      {"axis too large", attrs("axis", int_attr(4)), {x, s}, 1, "'axis' = 4 is out of range [-3, 3]"},
      {"axis too small", attrs("axis", int_attr(-4)), {x, s}, 1, "'axis' = -4 is out of range [-3, 3]"},
      {"stash_type bfloat16", attrs("stash_type", int_attr(16)), {x, s}, 1, "'stash_type' = 16 is not supported"},
      {"negative epsilon", attrs("epsilon", float_attr(-1e-5f)), {x, s}, 1, "'epsilon' must be finite and >= 0"},
      {"NaN epsilon", attrs("epsilon", float_attr(NAN)), {x, s}, 1, "'epsilon' must be finite"},
      {"unknown attribute", attrs("axes", ints({1})), {x, s}, 1, "unknown attribute 'axes'"},
      {"Scale does not broadcast", {}, {x, wave({3})}, 1, "Scale of shape [3] does not broadcast to X"},
      {"B of higher rank", {}, {x, s, wave({1, 2, 3, 4})}, 1, "B of shape [1,2,3,4] does not broadcast"},
      {"Scale missing", {}, {x}, 1, "inputs"},
      {"four outputs", {}, {x, s}, 4, "outputs, got 4"},
      {"int64 X", {}, {make_int_tensor({1, 2}, {1, 2}), wave({2})}, 1, "input 0 has element type"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    CHECK_THROWS_WITH_AS(run_op("LayerNormalization", c.attrs, c.in, 17, c.outputs), doctest::Contains(c.message),
                         Error);
  }
}

// ---- InstanceNormalization and GroupNormalization ----

namespace {

// Y for G groups of C / G channels, scale and B of `per` values (per group, or per channel when per = C = G).
std::vector<double> group_norm_want(const Tensor& x, int64_t G, const Tensor& scale, const Tensor& B, double eps) {
  const int64_t N = x.dim(0), C = x.dim(1), inner = numel_range(x.shape(), 2, x.shape().size());
  const int64_t block = C / G * inner;
  std::vector<double> want;
  for (int64_t b = 0; b < N * G; ++b) {
    double sum = 0, sq = 0;
    for (int64_t i = 0; i < block; ++i) sum += x.data<float>()[b * block + i];
    const double m = sum / double(block);
    for (int64_t i = 0; i < block; ++i) sq += std::pow(x.data<float>()[b * block + i] - m, 2);
    const double inv = 1 / std::sqrt(sq / double(block) + eps);
    for (int64_t i = 0; i < block; ++i)
      want.push_back((x.data<float>()[b * block + i] - m) * inv * scale.data<float>()[b % G] + B.data<float>()[b % G]);
  }
  return want;
}

}  // namespace

TEST_CASE("InstanceNormalization normalizes every (sample, channel) over its spatial dims") {
  struct Case { Shape x; int opset; float epsilon; };
  const Case cases[] = {
      {{2, 3, 4, 5}, 6, 1e-5f}, {{1, 2, 7}, 6, 0.1f}, {{2, 2, 3, 3}, 1, 1e-5f}, {{1, 2, 2, 2, 3}, 6, 0.f}};
  for (const Case& c : cases) {
    CAPTURE(to_string(c.x));
    CAPTURE(c.opset);
    Tensor x = wave(c.x), s = wave({c.x[1]}, 1.5, 1.0), B = wave({c.x[1]}, 0.5, 2.0);
    Attributes a;
    a.set("epsilon", float_attr(c.epsilon));
    if (c.opset == 1) a.set("consumed_inputs", ints({0, 0, 0}));
    Tensor y = run_op("InstanceNormalization", a, {x, s, B}, c.opset)[0];
    CHECK(within_tolerance("InstanceNormalization", c.opset, y, group_norm_want(x, c.x[1], s, B, c.epsilon)) == "");
  }
  // numpy: x = [[[1, 2, 3], [4, 4, 6]]], s = [1, 2], B = [0, 1], epsilon 0: channel 0 (mean 2, var 2/3) ->
  // [-1.2247449, 0, 1.2247449]; channel 1 (mean 14/3, var 8/9) -> 2 * [-0.7071068, -0.7071068, 1.4142136] + 1.
  Attributes zero;
  zero.set("epsilon", float_attr(0.f));
  Tensor y = run_op("InstanceNormalization", zero, {make_tensor({1, 2, 3}, {1, 2, 3, 4, 4, 6}), make_tensor({2}, {1, 2}),
                                                    make_tensor({2}, {0, 1})}, 6)[0];
  CHECK(within_tolerance("InstanceNormalization", 6, y,
                         std::vector<double>{-1.2247448713915890, 0, 1.2247448713915890, -0.4142135623730950,
                                             -0.4142135623730950, 3.8284271247461903}) == "");
}

TEST_CASE("GroupNormalization-18 normalizes groups of channels with one scale and bias per group") {
  struct Case { Shape x; int64_t groups; float epsilon; };
  const Case cases[] = {{{2, 6, 3, 3}, 3, 1e-5f}, {{2, 6, 3, 3}, 1, 1e-5f}, {{2, 6, 3, 3}, 6, 1e-2f},
                        {{3, 4, 5}, 2, 0.f},      {{2, 4}, 2, 1e-5f}};
  for (const Case& c : cases) {
    CAPTURE(to_string(c.x));
    CAPTURE(c.groups);
    Tensor x = wave(c.x), s = wave({c.groups}, 1.5, 1.0), B = wave({c.groups}, 0.5, 2.0);
    Attributes a;
    a.set("num_groups", int_attr(c.groups));
    a.set("epsilon", float_attr(c.epsilon));
    Tensor y = run_op("GroupNormalization", a, {x, s, B}, 18)[0];
    CHECK(within_tolerance("GroupNormalization", 18, y, group_norm_want(x, c.groups, s, B, c.epsilon)) == "");
  }
}

TEST_CASE("InstanceNormalization and GroupNormalization refuse bad attributes and shapes") {
  Tensor x = wave({2, 4, 3}), s4 = wave({4}), s2 = wave({2});
  auto groups = [](int64_t g) {
    Attributes a;
    a.set("num_groups", int_attr(g));
    return a;
  };
  Attributes consumed, bad_eps;
  consumed.set("consumed_inputs", ints({0, 0, 0}));
  bad_eps.set("epsilon", float_attr(-1.f));
  check_bad_nodes({
      {"consumed_inputs after opset 1", "InstanceNormalization", 6, consumed, {x, s4, s4},
       "unknown attribute 'consumed_inputs'"},
      {"negative epsilon", "InstanceNormalization", 6, bad_eps, {x, s4, s4}, "'epsilon' must be finite and >= 0"},
      {"scale of the wrong size", "InstanceNormalization", 6, {}, {x, s2, s4}, "scale has 2 elements but C = 4"},
      {"B of rank 2", "InstanceNormalization", 6, {}, {x, s4, wave({4, 1})}, "B must be 1-D of size C"},
      {"rank-1 X", "InstanceNormalization", 6, {}, {wave({4}), s4, s4}, "rank >= 2"},
      {"two inputs", "InstanceNormalization", 6, {}, {x, s4}, "inputs"},
      {"num_groups missing", "GroupNormalization", 18, {}, {x, s2, s2}, "'num_groups' is required"},
      {"num_groups 0", "GroupNormalization", 18, groups(0), {x, s2, s2}, "'num_groups' must be >= 1, got 0"},
      {"num_groups not dividing C", "GroupNormalization", 18, groups(3), {x, wave({3}), wave({3})},
       "'num_groups' = 3 does not divide the 4 channels"},
      {"per-channel scale (opset 21's)", "GroupNormalization", 18, groups(2), {x, s4, s2},
       "scale has 4 elements but num_groups = 2 (opset 18: one value per group)"},
      {"int64 X", "GroupNormalization", 18, groups(1), {make_int_tensor({1, 1}, {1}), wave({1}), wave({1})},
       "input 0 has element type"},
  });
}

TEST_CASE("LpNormalization: L1 and L2 along an axis; a zero lane is 0 / 0; p other than 1 or 2 is refused") {
  const Tensor x = make_tensor({2, 2}, {3.f, 4.f, 0.f, 0.f});
  struct Case { int64_t p, axis; std::vector<float> want; };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Case cases[] = {
      {2, -1, {0.6f, 0.8f, nan, nan}},
      {1, 1, {3.f / 7, 4.f / 7, nan, nan}},
      {2, 0, {1.f, 1.f, 0.f, 0.f}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.p);
    CAPTURE(c.axis);
    Attributes a;
    a.set("p", int_attr(c.p));
    a.set("axis", int_attr(c.axis));
    const Tensor y = run_op("LpNormalization", a, {x}, 1)[0];
    for (int64_t i = 0; i < 4; ++i) {
      CAPTURE(i);
      const float got = y.data<float>()[i], want = c.want[size_t(i)];
      CHECK(((std::isnan(want) && std::isnan(got)) || std::fabs(got - want) <= 1e-7f));
    }
  }
  Attributes bad;
  bad.set("p", int_attr(3));
  CHECK_THROWS_WITH_AS(run_op("LpNormalization", bad, {x}, 1), doctest::Contains("'p' must be 1 or 2"), Error);
}

TEST_CASE("MeanVarianceNormalization over given axes: ONNX's function, epsilon after the square root") {
  const Tensor x = make_tensor({2, 4}, {1.f, 2.f, 3.f, 4.f, 10.f, 10.f, 10.f, 10.f});
  Attributes a;
  a.set("axes", ints({1}));
  const Tensor y = run_op("MeanVarianceNormalization", a, {x}, 13)[0];
  const double sd = std::sqrt(1.25);  // row 0: mean 2.5, mean of squares 7.5
  for (int64_t i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(y.data<float>()[i] == doctest::Approx((double(i) + 1 - 2.5) / (sd + 1e-9)).epsilon(1e-6));
    CHECK(y.data<float>()[4 + i] == 0.f);  // a constant row: 0 / (0 + 1e-9)
  }
  Attributes twice;
  twice.set("axes", ints({1, -1}));
  CHECK_THROWS_WITH_AS(run_op("MeanVarianceNormalization", twice, {x}, 13), doctest::Contains("axes -1 appears more than once"), Error);
}
