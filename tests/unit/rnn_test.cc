// LSTM, GRU and RNN (ops/rnn): values against the ONNX equations written out here in double (each stored value
// one rounding of the exact one), activation lists, the sequence_lens and layout rules, and the errors parse
// and infer give for malformed nodes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "ops/builtin_ops.h"
#include "ops/rnn/recurrent.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

Attribute names(std::vector<std::string> v) { return strings(std::move(v)); }

Tensor lengths(std::vector<int32_t> v) { return make_int32_tensor(std::move(v)); }

// RNN's equation Ht = tanh(Xt Wi^T + Ht-1 Ri^T + Wbi + Rbi) for one direction and batch entry, steps taken in
// `order`; returns the state after each step (indexed by step t).
std::vector<std::vector<double>> rnn_direct(const Tensor& X, const Tensor& W, const Tensor& R, const Tensor& B,
                                            int64_t d, int64_t n, const std::vector<int64_t>& order) {
  const int64_t N = X.shape()[1], I = X.shape()[2], H = R.shape()[2];
  std::vector<double> h(size_t(H), 0.0);
  std::vector<std::vector<double>> at(size_t(X.shape()[0]));
  for (int64_t t : order) {
    std::vector<double> next(static_cast<size_t>(H));
    for (int64_t j = 0; j < H; ++j) {
      double s = double(B.data<float>()[d * 2 * H + j]) + double(B.data<float>()[d * 2 * H + H + j]);
      for (int64_t i = 0; i < I; ++i) s += double(W.data<float>()[(d * H + j) * I + i]) * X.data<float>()[(t * N + n) * I + i];
      for (int64_t k = 0; k < H; ++k) s += double(R.data<float>()[(d * H + j) * H + k]) * h[size_t(k)];
      next[size_t(j)] = std::tanh(s);
    }
    h = next;
    at[size_t(t)] = h;
  }
  return at;
}

// True when `got` is `want` rounded once to float32 (or, where summing in another order in double moved
// `want` across a rounding boundary, the float32 neighbour within 1e-12 of the boundary).
bool one_rounding(float got, double want) {
  if (got == float(want)) return true;
  const double half_ulp = 0.5 * (double(std::nextafter(float(want), INFINITY)) - double(float(want)));
  return std::fabs(double(got) - want) <= half_ulp * (1 + 1e-9) + 1e-12 * std::fabs(want);
}

}  // namespace

TEST_CASE("RNN follows the ONNX equation in both directions, with sequence_lens") {
  const int64_t T = 4, N = 3, I = 2, H = 3;
  const Tensor X = random_tensor({T, N, I}, 1, -2, 2), W = random_tensor({2, H, I}, 2), R = random_tensor({2, H, H}, 3),
               B = random_tensor({2, 2 * H}, 4);
  const std::vector<int32_t> lens = {4, 2, 0};
  Attributes a;
  a.set("direction", string_attr("bidirectional"));
  const std::vector<Tensor> out = run_op("RNN", a, {X, W, R, B, lengths(lens)}, 14, 2);
  const Tensor& Y = out[0];
  const Tensor& Y_h = out[1];
  REQUIRE(Y.shape() == Shape{T, 2, N, H});
  REQUIRE(Y_h.shape() == Shape{2, N, H});
  for (int64_t d = 0; d < 2; ++d)
    for (int64_t n = 0; n < N; ++n) {
      CAPTURE(d);
      CAPTURE(n);
      std::vector<int64_t> order;
      for (int64_t s = 0; s < lens[size_t(n)]; ++s) order.push_back(d == 0 ? s : lens[size_t(n)] - 1 - s);
      const auto want = rnn_direct(X, W, R, B, d, n, order);
      for (int64_t t = 0; t < T; ++t)
        for (int64_t j = 0; j < H; ++j) {
          const float got = Y.data<float>()[((t * 2 + d) * N + n) * H + j];
          if (t >= lens[size_t(n)]) CHECK(got == 0.f);  // past the entry's length
          else CHECK(one_rounding(got, want[size_t(t)][size_t(j)]));
        }
      // Y_h: the state after the direction's last step (t = L-1 forward, t = 0 reverse); 0 for L = 0.
      for (int64_t j = 0; j < H; ++j) {
        const float got = Y_h.data<float>()[(d * N + n) * H + j];
        if (order.empty()) CHECK(got == 0.f);
        else CHECK(one_rounding(got, want[size_t(order.back())][size_t(j)]));
      }
    }
}

TEST_CASE("layout 1 is layout 0 with the batch and sequence dims swapped, for every op") {
  const int64_t T = 3, N = 2, I = 4, H = 3;
  for (const std::pair<const char*, int64_t>& row : {std::pair<const char*, int64_t>{"LSTM", 4}, {"GRU", 3}, {"RNN", 1}}) {
    const char* op = row.first;  // clang's C++17 cannot capture a structured binding
    const int64_t G = row.second;
    CAPTURE(op);
    const Tensor X = random_tensor({T, N, I}, 5), W = random_tensor({2, G * H, I}, 6), R = random_tensor({2, G * H, H}, 7),
                 B = random_tensor({2, 2 * G * H}, 8), h0 = random_tensor({2, N, H}, 9);
    Tensor Xb(DType::f32, {N, T, I}), h0b(DType::f32, {N, 2, H});
    for (int64_t t = 0; t < T; ++t)
      for (int64_t n = 0; n < N; ++n)
        for (int64_t i = 0; i < I; ++i) Xb.data<float>()[(n * T + t) * I + i] = X.data<float>()[(t * N + n) * I + i];
    for (int64_t d = 0; d < 2; ++d)
      for (int64_t n = 0; n < N; ++n)
        for (int64_t j = 0; j < H; ++j) h0b.data<float>()[(n * 2 + d) * H + j] = h0.data<float>()[(d * N + n) * H + j];
    Attributes a;
    a.set("direction", string_attr("bidirectional"));
    Attributes b = a;
    b.set("layout", int_attr(1));
    const std::vector<Tensor> y0 = run_op(op, a, {X, W, R, B, Tensor(), h0}, 14, 2);
    const std::vector<Tensor> y1 = run_op(op, b, {Xb, W, R, B, Tensor(), h0b}, 14, 2);
    REQUIRE(y1[0].shape() == Shape{N, T, 2, H});
    REQUIRE(y1[1].shape() == Shape{N, 2, H});
    for (int64_t t = 0; t < T; ++t)
      for (int64_t d = 0; d < 2; ++d)
        for (int64_t n = 0; n < N; ++n)
          for (int64_t j = 0; j < H; ++j)
            CHECK(y1[0].data<float>()[((n * T + t) * 2 + d) * H + j] == y0[0].data<float>()[((t * 2 + d) * N + n) * H + j]);
    for (int64_t d = 0; d < 2; ++d)
      for (int64_t n = 0; n < N; ++n)
        for (int64_t j = 0; j < H; ++j)
          CHECK(y1[1].data<float>()[(n * 2 + d) * H + j] == y0[1].data<float>()[(d * N + n) * H + j]);
  }
}

TEST_CASE("LSTM with input_forget uses 1 - i for the forget gate; GRU's linear_before_reset changes the result") {
  const Tensor X = random_tensor({2, 1, 3}, 11), W = random_tensor({1, 8, 3}, 12), R = random_tensor({1, 8, 2}, 13);
  Attributes a;
  Attributes f;
  f.set("input_forget", int_attr(1));
  // One step from zero state: the forget gate multiplies C0 = 0, so the first step agrees; the second differs.
  const Tensor y = run_op("LSTM", a, {X, W, R}, 14)[0], yf = run_op("LSTM", f, {X, W, R}, 14)[0];
  CHECK(y.data<float>()[0] == yf.data<float>()[0]);
  CHECK(y.data<float>()[2] != yf.data<float>()[2]);
  const Tensor Wg = random_tensor({1, 6, 3}, 14), Rg = random_tensor({1, 6, 2}, 15), Bg = random_tensor({1, 12}, 16);
  Attributes l;
  l.set("linear_before_reset", int_attr(1));
  CHECK(run_op("GRU", a, {X, Wg, Rg, Bg}, 14)[0].data<float>()[0] != run_op("GRU", l, {X, Wg, Rg, Bg}, 14)[0].data<float>()[0]);
}

TEST_CASE("recurrent ops refuse malformed nodes with messages naming the attribute or input") {
  const Tensor X = random_tensor({3, 2, 4}, 1), W = random_tensor({1, 12, 4}, 2), R = random_tensor({1, 12, 3}, 3),
               B = random_tensor({1, 24}, 4);
  auto with = [](std::initializer_list<std::pair<const char*, Attribute>> list) {
    Attributes a;
    for (const auto& [k, v] : list) a.set(k, v);
    return a;
  };
  struct Case {
    const char* op;
    Attributes attrs;
    std::vector<Tensor> in;
    int opset;
    const char* message;
  };
  const Case cases[] = {
      {"LSTM", {}, {X, random_tensor({1, 11, 4}, 2), R}, 14, "input W must be [num_directions, 4*hidden_size, input_size]"},
      {"LSTM", {}, {X, random_tensor({1, 12, 5}, 2), R}, 14, "input W must be"},
      {"LSTM", {}, {X, W, random_tensor({1, 12, 4}, 3)}, 14, "input R must be"},
      {"LSTM", {}, {X, W, R, random_tensor({1, 12}, 4)}, 14, "input B must be [num_directions, 2*4*hidden_size] = [1, 24]"},
      {"LSTM", with({{"direction", string_attr("bidirectional")}}), {X, W, R}, 14, "num_directions 2"},
      {"LSTM", {}, {X, random_tensor({2, 12, 4}, 2), random_tensor({2, 12, 3}, 3)}, 14, "num_directions 1"},
      {"LSTM", with({{"direction", string_attr("sideways")}}), {X, W, R}, 14, "attribute direction must be"},
      {"LSTM", with({{"hidden_size", int_attr(4)}}), {X, W, R}, 14, "with hidden_size 4"},
      {"LSTM", with({{"hidden_size", int_attr(0)}}), {X, W, R}, 14, "hidden_size must be in [1, 2147483648]"},
      {"LSTM", {}, {random_tensor({3, 4}, 1), W, R}, 14, "input X must be [seq_length, batch, input_size]"},
      {"LSTM", with({{"layout", int_attr(1)}}), {X, W, R}, 13, "layout needs opset 14"},
      {"LSTM", with({{"layout", int_attr(2)}}), {X, W, R}, 14, "layout must be 0 or 1"},
      {"LSTM", with({{"clip", float_attr(-1.f)}}), {X, W, R}, 14, "clip must be a positive"},
      {"LSTM", with({{"activations", names({"Sigmoid", "Tanh"})}}), {X, W, R}, 14, "must list 3 functions per direction"},
      {"LSTM", with({{"activations", names({"Sigmoid", "Tanh", "Swish"})}}), {X, W, R}, 14, "unknown activation 'Swish'"},
      {"LSTM", with({{"activations", names({"Sigmoid", "Tanh", "Tanh"})}, {"activation_alpha", floats({1.f})}}),
       {X, W, R}, 14, "activation_alpha has 1 values, but the activations take only 0"},
      {"LSTM", with({{"activation_alpha", floats({1.f})}}), {X, W, R}, 14, "need an activations list"},
      {"LSTM", with({{"linear_before_reset", int_attr(1)}}), {X, W, R}, 14, "linear_before_reset is GRU's"},
      {"LSTM", with({{"output_sequence", int_attr(1)}}), {X, W, R}, 7, "output_sequence exists only before opset 7"},
      {"LSTM", {}, {X, W, R, B, lengths({1, 2, 3})}, 14, "input sequence_lens must be [batch], batch from X"},
      {"LSTM", {}, {X, W, R, B, Tensor(), random_tensor({1, 2, 4}, 5)}, 14, "input initial_h must be [num_directions, batch, hidden_size] = [1, batch, 3]"},
      {"LSTM", {}, {X, W, R, B, Tensor(), Tensor(), Tensor(), random_tensor({1, 6}, 5)}, 14, "input P must be [num_directions, 3*hidden_size] = [1, 9]"},
      {"LSTM", {}, {X, W, R, B, make_int_tensor({2}, {3, 3})}, 14, "sequence_lens"},
      {"GRU", with({{"linear_before_reset", int_attr(1)}}), {X, random_tensor({1, 9, 4}, 2), random_tensor({1, 9, 3}, 3)}, 1,
       "linear_before_reset needs GRU opset 3"},
      {"GRU", with({{"input_forget", int_attr(1)}}), {X, random_tensor({1, 9, 4}, 2), random_tensor({1, 9, 3}, 3)}, 14,
       "input_forget is LSTM's"},
      {"RNN", with({{"activation_beta", floats({1.f, 2.f})}, {"activations", names({"Affine"})}}),
       {X, random_tensor({1, 3, 4}, 2), random_tensor({1, 3, 3}, 3)}, 14, "activation_beta has 2 values, but the activations take only 1"},
      {"RNN", with({{"layout", int_attr(0)}, {"bogus", int_attr(0)}}), {X, random_tensor({1, 3, 4}, 2), random_tensor({1, 3, 3}, 3)},
       14, "bogus"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.op);
    CAPTURE(c.message);
    CHECK_THROWS_WITH_AS(run_op(c.op, c.attrs, c.in, c.opset, 2), doctest::Contains(c.message), Error);
  }
  // sequence_lens values outside [0, seq_length] are refused when the kernel reads them.
  CHECK_THROWS_WITH_AS(run_op("LSTM", {}, {X, W, R, B, lengths({4, 1})}, 14, 2),
                       doctest::Contains("sequence_lens[0] is 4, outside [0, seq_length = 3]"), Error);
  CHECK_THROWS_WITH_AS(run_op("LSTM", {}, {X, W, R, B, lengths({-1, 1})}, 14, 2), doctest::Contains("outside"), Error);
}

TEST_CASE("activation_alpha and activation_beta are consumed in order by the functions that take them") {
  const Tensor X = random_tensor({2, 1, 3}, 1), W = random_tensor({1, 6, 3}, 2), R = random_tensor({1, 6, 2}, 3);
  Attributes a;
  a.set("activations", names({"LeakyRelu", "softsign", "HardSigmoid", "Elu"}));
  a.set("direction", string_attr("bidirectional"));
  a.set("activation_alpha", floats({0.2f, 0.3f}));  // LeakyRelu, HardSigmoid; Elu keeps its default 1
  a.set("activation_beta", floats({0.4f}));         // HardSigmoid
  const Tensor W2 = random_tensor({2, 6, 3}, 2), R2 = random_tensor({2, 6, 2}, 3);
  const Node n = make_node("GRU", a, 3, 2, 14);
  const RnnParams& p = params_as<RnnParams>(*n.params, "GRU");
  REQUIRE(p.activations.size() == 4);
  CHECK(p.activations[0].kind == RnnActivationKind::leaky_relu);
  CHECK(p.activations[0].alpha == doctest::Approx(0.2));
  CHECK(p.activations[1].kind == RnnActivationKind::softsign);
  CHECK(p.activations[2].kind == RnnActivationKind::hard_sigmoid);
  CHECK(p.activations[2].alpha == doctest::Approx(0.3));
  CHECK(p.activations[2].beta == doctest::Approx(0.4));
  CHECK(p.activations[3].kind == RnnActivationKind::elu);
  CHECK(p.activations[3].alpha == 1.0);
  // The formulas, at a few points.
  const RnnActivation affine{RnnActivationKind::affine, 2, -1}, scaled{RnnActivationKind::scaled_tanh, 0.5, 3},
      thresholded{RnnActivationKind::thresholded_relu, 1, 0}, softplus{RnnActivationKind::softplus, 0, 0};
  CHECK(affine(0.25) == 2 * 0.25 - 1);
  CHECK(scaled(0.1) == 0.5 * std::tanh(0.3));
  CHECK(thresholded(1.0) == 0.0);
  CHECK(thresholded(1.5) == 1.5);
  CHECK(softplus(-800.0) == 0.0);
  CHECK(softplus(800.0) == 800.0);
  CHECK(softplus(0.5) == doctest::Approx(std::log(1 + std::exp(0.5))).epsilon(1e-15));
  // One direction's list serves both directions.
  Attributes one;
  one.set("activations", names({"Relu", "Tanh"}));
  one.set("direction", string_attr("bidirectional"));
  const Node m = make_node("GRU", one, 3, 2, 14);
  const RnnParams& q = params_as<RnnParams>(*m.params, "GRU");
  REQUIRE(q.activations.size() == 4);
  CHECK(q.activations[2].kind == RnnActivationKind::relu);
  CHECK(q.activations[3].kind == RnnActivationKind::tanh);
  CHECK(run_op("GRU", a, {X, W2, R2}, 14, 2)[0].shape() == Shape{2, 2, 1, 2});
}

TEST_CASE("LSTM follows the ONNX equations with peepholes, clip and input_forget") {
  const int64_t T = 3, N = 2, I = 3, H = 2;
  const Tensor X = random_tensor({T, N, I}, 21, -3, 3), W = random_tensor({1, 4 * H, I}, 22, -2, 2),
               R = random_tensor({1, 4 * H, H}, 23), B = random_tensor({1, 8 * H}, 24), P = random_tensor({1, 3 * H}, 25),
               h0 = random_tensor({1, N, H}, 26), c0 = random_tensor({1, N, H}, 27, -3, 3);
  for (bool input_forget : {false, true}) {
    CAPTURE(input_forget);
    Attributes a;
    a.set("clip", float_attr(0.75f));
    a.set("input_forget", int_attr(input_forget));
    const std::vector<Tensor> out = run_op("LSTM", a, {X, W, R, B, Tensor(), h0, c0, P}, 7, 3);
    auto at = [](const Tensor& t, int64_t i) { return double(t.data<float>()[i]); };
    auto clip = [](double v) { return std::min(std::max(v, -0.75), 0.75); };
    auto sigmoid = [](double v) { return 1 / (1 + std::exp(-v)); };
    for (int64_t n = 0; n < N; ++n) {
      std::vector<double> h(H), c(H);
      for (int64_t j = 0; j < H; ++j) h[j] = at(h0, n * H + j), c[j] = at(c0, n * H + j);
      for (int64_t t = 0; t < T; ++t) {
        // gate g (i 0, o 1, f 2, c 3) of unit j: Xt W^T + Ht-1 R^T + Wb + Rb
        auto gate = [&](int64_t g, int64_t j) {
          double s = at(B, g * H + j) + at(B, 4 * H + g * H + j);
          for (int64_t k = 0; k < I; ++k) s += at(W, (g * H + j) * I + k) * at(X, (t * N + n) * I + k);
          for (int64_t k = 0; k < H; ++k) s += at(R, (g * H + j) * H + k) * h[k];
          return s;
        };
        std::vector<double> next_h(H), next_c(H);
        for (int64_t j = 0; j < H; ++j) {
          const double i = sigmoid(clip(gate(0, j) + at(P, j) * c[j]));
          const double f = input_forget ? 1 - i : sigmoid(clip(gate(2, j) + at(P, 2 * H + j) * c[j]));
          next_c[j] = f * c[j] + i * std::tanh(clip(gate(3, j)));
          const double o = sigmoid(clip(gate(1, j) + at(P, H + j) * next_c[j]));
          next_h[j] = o * std::tanh(next_c[j]);
        }
        h = next_h, c = next_c;
        for (int64_t j = 0; j < H; ++j) CHECK(one_rounding(out[0].data<float>()[(t * N + n) * H + j], h[j]));
      }
      for (int64_t j = 0; j < H; ++j) {
        CHECK(one_rounding(out[1].data<float>()[n * H + j], h[j]));
        CHECK(one_rounding(out[2].data<float>()[n * H + j], c[j]));
      }
    }
  }
}
