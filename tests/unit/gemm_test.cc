#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

std::vector<Tensor> gemm(const Attributes& a, std::vector<Tensor> inputs, int opset = 13) {
  return run_op("Gemm", a, inputs, opset);
}

}  // namespace

TEST_CASE("Gemm computes alpha * A' B' + beta * C with C broadcast to [M, N]") {
  struct Case {
    std::string what;
    int64_t M, N, K;
    bool trans_a, trans_b;
    float alpha, beta;
    bool has_c;
    Shape c;
    int opset;
  };
  const Case cases[] = {
      {"plain, C [M, N]", 3, 4, 5, false, false, 1, 1, true, {3, 4}, 13},
      {"transA, C [N]", 3, 4, 6, true, false, 1, 1, true, {4}, 13},
      {"transB, C [1, N]", 2, 5, 3, false, true, 1, 1, true, {1, 5}, 13},
      {"both, alpha and beta, C [M, 1]", 4, 3, 5, true, true, 0.25f, 0.35f, true, {4, 1}, 13},
      {"scalar C", 2, 3, 4, false, false, 1, 2, true, {}, 13},
      {"C [1]", 3, 3, 7, false, false, 1, 1, true, {1}, 13},
      {"C [1, 1]", 3, 2, 2, false, true, -1.5f, 0.5f, true, {1, 1}, 13},
      {"no C at opset 11+", 2, 3, 10, false, false, 0.5f, 7, false, {}, 11},
      {"K = 0 leaves beta * C", 2, 3, 0, false, false, 1, 3, true, {2, 3}, 13},
      {"opset 7 broadcasts C", 3, 4, 2, false, false, 1, 1, true, {4}, 7},
      {"opset 6 with broadcast = 1", 3, 4, 2, false, false, 1, 1, true, {1, 4}, 6},
      {"opset 6 with broadcast = 0", 3, 4, 2, true, false, 2, 1, true, {3, 4}, 6},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    CAPTURE(c.M); CAPTURE(c.N); CAPTURE(c.K);
    CAPTURE(c.trans_a); CAPTURE(c.trans_b);
    CAPTURE(c.alpha); CAPTURE(c.beta);
    CAPTURE(to_string(c.c));
    CAPTURE(c.opset);
    Attributes a;
    a.set("transA", int_attr(c.trans_a));
    a.set("transB", int_attr(c.trans_b));
    a.set("alpha", float_attr(c.alpha));
    a.set("beta", float_attr(c.beta));
    if (c.opset < 7) a.set("broadcast", int_attr(c.c != Shape{c.M, c.N}));
    const Tensor A = wave_tensor(c.trans_a ? Shape{c.K, c.M} : Shape{c.M, c.K}, 1.f, 1.3, 0.2);
    const Tensor B = wave_tensor(c.trans_b ? Shape{c.N, c.K} : Shape{c.K, c.N}, 0.7f, 1.3, 0.2);
    const Tensor C = wave_tensor(c.c, 3.f, 1.3, 0.2);
    std::vector<Tensor> inputs{A, B};
    if (c.has_c) inputs.push_back(C);
    const Tensor y = gemm(a, inputs, c.opset)[0];
    REQUIRE(y.shape() == Shape{c.M, c.N});
    std::vector<double> want(size_t(c.M * c.N));
    for (int64_t i = 0; i < c.M; ++i)
      for (int64_t j = 0; j < c.N; ++j) {
        double sum = 0;
        for (int64_t k = 0; k < c.K; ++k) {
          const double av = A.data<float>()[c.trans_a ? k * c.M + i : i * c.K + k];
          const double bv = B.data<float>()[c.trans_b ? j * c.K + k : k * c.N + j];
          sum += av * bv;
        }
        double& w = want[size_t(i * c.N + j)];
        w = double(c.alpha) * sum;
        if (c.has_c) {
          // Right-aligned broadcast of C to [M, N]: a dim of 1 (or a missing dim) repeats.
          const int64_t ci = c.c.size() == 2 && c.c[0] != 1 ? i : 0;
          const int64_t cj = !c.c.empty() && c.c.back() != 1 ? j : 0;
          const int64_t c_cols = c.c.empty() ? 1 : c.c.back();
          w += double(c.beta) * C.data<float>()[ci * c_cols + cj];
        }
      }
    CHECK(within_tolerance("Gemm", c.opset, y, want) == "");
  }
}

TEST_CASE("Gemm: a hand-checked product") {
  // [[1, 2], [3, 4]] x [[5, 6], [7, 8]] = [[19, 22], [43, 50]]; alpha 2, beta -1 with C = [1, 2].
  Attributes a;
  a.set("alpha", float_attr(2.f));
  a.set("beta", float_attr(-1.f));
  const Tensor y = gemm(a, {make_tensor({2, 2}, {1, 2, 3, 4}), make_tensor({2, 2}, {5, 6, 7, 8}),
                            make_tensor({2}, {1, 2})})[0];
  const float want[] = {37, 42, 85, 98};
  for (int i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(y.data<float>()[i] == want[i]);
  }
}

TEST_CASE("Gemm refuses bad shapes and attributes with an error") {
  struct Case {
    std::string what;
    Shape a, b, c;
    bool has_c;
    std::vector<std::pair<const char*, Attribute>> attrs;
    int opset;
  };
  const Case cases[] = {
      {"A is 1-D", {4}, {4, 3}, {}, false, {}, 13},
      {"B is 3-D", {2, 4}, {1, 4, 3}, {}, false, {}, 13},
      {"inner dims differ", {2, 4}, {5, 3}, {}, false, {}, 13},
      {"inner dims differ after transB", {2, 4}, {4, 3}, {}, false, {{"transB", int_attr(1)}}, 13},
      {"C has too many rows", {2, 4}, {4, 3}, {3, 3}, true, {}, 13},
      {"C has the wrong width", {2, 4}, {4, 3}, {2}, true, {}, 13},
      {"C is 3-D", {2, 4}, {4, 3}, {1, 2, 3}, true, {}, 13},
      {"transA is 2", {2, 4}, {4, 3}, {}, false, {{"transA", int_attr(2)}}, 13},
      {"C omitted before opset 11", {2, 4}, {4, 3}, {}, false, {}, 9},
      {"C not [M, N] with broadcast = 0", {2, 4}, {4, 3}, {3}, true, {}, 6},
      {"broadcast attribute after opset 7", {2, 4}, {4, 3}, {3}, true, {{"broadcast", int_attr(1)}}, 13},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    Attributes a;
    for (const auto& [name, value] : c.attrs) a.set(name, value);
    std::vector<Tensor> inputs{make_tensor(c.a), make_tensor(c.b)};
    if (c.has_c) inputs.push_back(make_tensor(c.c));
    CHECK_THROWS_AS(gemm(a, inputs, c.opset), Error);
  }
  CHECK_THROWS_AS(run_op("Gemm", {}, {make_int_tensor({1, 1}, {1}), make_int_tensor({1, 1}, {1})}, 13), Error);
}

TEST_CASE("MatMul follows numpy: 1-D promotion and batch broadcasting") {
  struct Case { Shape a, b, want; };
  const Case cases[] = {
      {{3, 4}, {4, 5}, {3, 5}},          {{4}, {4, 5}, {5}},
      {{3, 4}, {4}, {3}},                {{4}, {4}, {}},
      {{2, 3, 4}, {4, 5}, {2, 3, 5}},    {{4}, {2, 4, 5}, {2, 5}},
      {{2, 3, 4}, {4}, {2, 3}},          {{2, 1, 3, 4}, {5, 4, 2}, {2, 5, 3, 2}},
      {{1, 2, 3}, {3, 3, 4}, {3, 2, 4}}, {{2, 0}, {0, 3}, {2, 3}},
      {{0, 2, 3}, {3, 4}, {0, 2, 4}},    {{3, 4}, {0, 4, 5}, {0, 3, 5}},
      {{1, 1, 6}, {1, 6, 1}, {1, 1, 1}},
  };
  for (const Case& c : cases) {
    CAPTURE(to_string(c.a));
    CAPTURE(to_string(c.b));
    const Tensor A = wave_tensor(c.a, 1.f, 1.3, 0.2), B = wave_tensor(c.b, 0.5f, 1.3, 0.2);
    const Tensor y = run_op("MatMul", {}, {A, B})[0];
    REQUIRE(y.shape() == c.want);
    // Promote to >= 2-D and pad batch dims to the output's batch rank; dims of 1 repeat.
    Shape a2 = c.a.size() == 1 ? Shape{1, c.a[0]} : c.a;
    Shape b2 = c.b.size() == 1 ? Shape{c.b[0], 1} : c.b;
    const size_t batch_rank = std::max(a2.size(), b2.size()) - 2;
    a2.insert(a2.begin(), batch_rank + 2 - a2.size(), 1);
    b2.insert(b2.begin(), batch_rank + 2 - b2.size(), 1);
    const int64_t M = a2[batch_rank], K = a2[batch_rank + 1], N = b2[batch_rank + 1];
    // A batch dim of 1 takes the other's extent (which may be 0); otherwise both are equal.
    auto extent_of = [&](size_t d) { return a2[d] == 1 ? b2[d] : a2[d]; };
    int64_t batch = 1;
    for (size_t d = 0; d < batch_rank; ++d) batch *= extent_of(d);
    std::vector<double> want(size_t(y.numel()));
    for (int64_t o = 0; o < batch; ++o) {
      // Unravel o over the broadcast batch dims, then ravel into A's and B's own batch dims.
      int64_t rest = o, ai = 0, bi = 0, a_scale = 1, b_scale = 1;
      for (size_t d = batch_rank; d-- > 0;) {
        const int64_t extent = extent_of(d), idx = rest % extent;
        rest /= extent;
        ai += (a2[d] == 1 ? 0 : idx) * a_scale;
        bi += (b2[d] == 1 ? 0 : idx) * b_scale;
        a_scale *= a2[d];
        b_scale *= b2[d];
      }
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
          double& w = want[size_t((o * M + i) * N + j)];
          for (int64_t k = 0; k < K; ++k)
            w += double(A.data<float>()[(ai * M + i) * K + k]) * B.data<float>()[(bi * K + k) * N + j];
        }
    }
    CHECK(within_tolerance("MatMul", 19, y, want) == "");
  }
}

TEST_CASE("MatMul and Gemm infer with unknown dims") {
  Node mm = make_node("MatMul", {}, 2, 1, 13);
  CHECK(mm.def->infer(*mm.params, {ValueInfo::of(DType::f32, {kUnknownDim, 3, 4}), ValueInfo::of(DType::f32, {4, 5})})[0]
            .shape == Shape{kUnknownDim, 3, 5});
  CHECK(mm.def->infer(*mm.params, {ValueInfo::of(DType::f32, {2, 3, kUnknownDim}), ValueInfo::of(DType::f32, {4})})[0]
            .shape == Shape{2, 3});
  Node g = make_node("Gemm", {}, 3, 1, 13);
  CHECK(g.def->infer(*g.params, {ValueInfo::of(DType::f32, {kUnknownDim, 4}), ValueInfo::of(DType::f32, {4, 5}),
                                 ValueInfo::of(DType::f32, {5})})[0]
            .shape == Shape{kUnknownDim, 5});
}

TEST_CASE("MatMul refuses shapes that do not multiply") {
  struct Case { Shape a, b; };
  const Case cases[] = {
      {{}, {3}}, {{3}, {}}, {{2, 3}, {4, 5}}, {{3}, {4}}, {{2, 3, 4}, {3, 4, 5}}, {{5}, {2, 4, 3}},
  };
  for (const Case& c : cases) {
    CAPTURE(to_string(c.a));
    CAPTURE(to_string(c.b));
    CHECK_THROWS_AS(run_op("MatMul", {}, {make_tensor(c.a), make_tensor(c.b)}), Error);
  }
  CHECK_THROWS_AS(run_op("MatMul", {}, {make_int_tensor({1, 1}, {1}), make_int_tensor({1, 1}, {1})}), Error);
}
