// The tolerance of sums of products (ops/common/sum_of_products.h): element i passes when
// |got - want| <= abs + rel * |want| + terms_rel * sum_k |terms_k|. Reproduced small: the case that called for it
// (torchvision's vgg11_bn, where a folded BatchNorm's bias cancels a 1152-term dot product of ~3 to results of
// ~0.1, and oneDNN's float32 accumulation is off by more than abs + rel * |result| allows), oneDNN passing it,
// directly and through plan verification; and kernels that are genuinely wrong (one dropped term, a bias 0.5%
// off) still failing it.
#include <doctest/doctest.h>

#include <array>
#include <cmath>

#include "ops/common/sum_of_products.h"
#include "runtime/plan.h"
#include "tests/unit/built_graph.h"
#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

// A 3x3 convolution (no padding: every output sums all K terms) whose bias cancels its dot products as a calibrated BatchNorm folded into it does:
// X [1, C, S, S] = 0.5 + U(-spread, spread) (activations of little spread), W [M, C, 3, 3] = U(-w_range,
// w_range), B[m] = minus the mean over positions of channel m's dot product. K = 9 C terms per output.
struct CancellingConv {
  int64_t C = 128, M = 32, S = 16;  // K = 1152, as vgg11_bn's second convolution; outputs 14x14
  float spread = 0.02f, w_range = 1.f;
  uint32_t seed = 5;
  Tensor x, w, b;
  Attributes attrs;

  CancellingConv() {
    x = random_tensor({1, C, S, S}, seed, 0.5f - spread, 0.5f + spread);
    w = random_tensor({M, C, 3, 3}, seed + 1, -w_range, w_range);
    const Tensor dot = run_op("Conv", attrs, {x, w}, 11)[0];
    b = Tensor(DType::f32, {M});
    const int64_t positions = (S - 2) * (S - 2);
    for (int64_t m = 0; m < M; ++m) {
      double sum = 0;
      for (int64_t i = 0; i < positions; ++i) sum += dot.data<float>()[m * positions + i];
      b.data<float>()[m] = float(-sum / double(positions));
    }
  }
  std::vector<Tensor> inputs() const { return {x, w, b}; }
  std::string describe() const {
    return "Conv X [1," + std::to_string(C) + "," + std::to_string(S) + "," + std::to_string(S) + "] = 0.5 +- " +
           std::to_string(spread) + ", W [" + std::to_string(M) + "," + std::to_string(C) + ",3,3] = +-" +
           std::to_string(w_range) + ", no padding, B = -mean dot per channel, seeds " + std::to_string(seed) + "/" +
           std::to_string(seed + 1);
  }
};

double max_abs_of(const Tensor& t) {
  double m = 0;
  for (int64_t i = 0; i < t.numel(); ++i) m = std::max(m, std::abs(t.double_at(i)));
  return m;
}

// The cancelling convolution's reference output, the magnitudes of its terms and Conv's tolerance.
struct CancellingConvReference {
  const CancellingConv c;
  const std::string params = c.describe();
  const Tolerance tol = builtin_ops().find("", "Conv", 11).tolerance;
  const Tensor want = run_op("Conv", c.attrs, c.inputs(), 11)[0];
  const Tensor mag = magnitudes_of("Conv", c.attrs, c.inputs(), 11);
};

}  // namespace

TEST_CASE("sum-of-products tolerance: the magnitude is sqrt(K + 2) (sum |w x| + |b|), the reference on |inputs|") {
  const CancellingConv c;
  const std::string params = c.describe();
  CAPTURE(params);
  const Tensor mag = magnitudes_of("Conv", c.attrs, c.inputs(), 11);
  const int64_t O = c.S - 2;
  REQUIRE(mag.shape() == Shape{1, c.M, O, O});
  for (const std::array<int64_t, 3>& at : {std::array<int64_t, 3>{0, 0, 0}, {7, 5, 13}, {31, 13, 6}}) {
    const int64_t m = at[0], y = at[1], xx = at[2];  // clang's C++17 cannot capture a structured binding
    CAPTURE(m);
    CAPTURE(y);
    CAPTURE(xx);
    double want = std::abs(double(c.b.data<float>()[m]));
    for (int64_t ic = 0; ic < c.C; ++ic)
      for (int64_t ky = 0; ky < 3; ++ky)
        for (int64_t kx = 0; kx < 3; ++kx) {
          const int64_t iy = y + ky, ix = xx + kx;
          want += std::abs(double(c.x.data<float>()[(ic * c.S + iy) * c.S + ix]) *
                           double(c.w.data<float>()[((m * c.C + ic) * 3 + ky) * 3 + kx]));
        }
    // The node's sum length K = C * 3 * 3 (multiply-adds per output): the bound grows with sqrt(K + 2).
    CHECK(mag.data<float>()[(m * O + y) * O + xx] == doctest::Approx(std::sqrt(double(c.C * 9 + 2)) * want).epsilon(1e-6));
  }
  // Ops that are not sums of products have none.
  CHECK_FALSE(magnitudes_of("Relu", {}, {c.x}).defined());
}

TEST_CASE_FIXTURE(CancellingConvReference,
                  "sum-of-products tolerance: oneDNN's Conv passes where a folded BatchNorm's bias cancels the sum") {
  CAPTURE(params);
  const Tensor got = run_op("Conv", c.attrs, c.inputs(), 11, 1, "dnnl", {false, true, true})[0];
  const Difference with_terms = compare(got, want, tol, &mag);
  const Difference without = compare(got, want, tol);
  const double max_result = max_abs_of(want), max_bias = max_abs_of(c.b), max_mag = max_abs_of(mag);
  CAPTURE(max_result);
  CAPTURE(max_bias);
  CAPTURE(max_mag);
  CAPTURE(without.max_abs);
  CAPTURE(without.max_ratio);  // the error against abs + rel * |want| alone
  CAPTURE(with_terms.max_ratio);
  // The situation reproduced: results an order of magnitude below the bias they cancel and terms summing far
  // above, where a float32 accumulation may land beyond abs + rel * |want| alone (oneDNN 2.6's did by 3.4x on
  // AVX2 and AVX-512 when written; whether it does depends on its accumulation order, so that is not asserted:
  // without.max_ratio above shows it) but never beyond the terms' bound.
  CHECK(max_bias > 10 * max_result);
  CHECK(max_mag > 10 * max_bias);
  CHECK_MESSAGE(with_terms.within, with_terms.detail);
  // The same through the kernel-case harness (every kernel of Conv, constant and non-constant weights).
  check_kernel_case(KernelCase("Conv", 11, "bias cancelling the dot product: " + params)
                        .in(given(c.x)).in(given(c.w).constant())
                        .in(given(c.b).constant()));
  check_kernel_case(KernelCase("Conv", 11, "bias cancelling the dot product, W and B not constant: " + params)
                        .in(given(c.x)).in(given(c.w)).in(given(c.b)));
}

TEST_CASE("sum-of-products tolerance: plan verification of Conv + Relu (a FusedConv) uses the magnitudes") {
  const CancellingConv c;
  const std::string params = c.describe();
  CAPTURE(params);
  GraphBuilder b(13);
  b.input("x", c.x.shape()).initializer("w", c.w).initializer("b", c.b)
      .node("Conv", {"x", "w", "b"}, {"c"}, "conv", c.attrs).node("Relu", {"c"}, {"y"}, "relu").output("y");
  const std::shared_ptr<const Graph> graph = b.finish(builtin_ops());
  const auto plan = Plan::build(graph, {ValueInfo::of(DType::f32, c.x.shape())}, Backend::dnnl);
  std::vector<NodeCheck> checks;
  plan->run({c.x}, &checks);
  REQUIRE(checks.size() == 1);
  const NodeCheck& k = checks[0];
  CAPTURE(k.op_type);
  CAPTURE(k.kernel);
  CAPTURE(k.max_abs);
  CAPTURE(k.max_ratio);
  CHECK(k.op_type == "FusedConv");
  CHECK(k.kernel == "dnnl");
  CHECK(k.tol_terms_rel == kSumOfProductsTermsRel);
  CHECK_MESSAGE(k.within, k.detail);
  CHECK(k.max_ratio < 1);
}

TEST_CASE_FIXTURE(CancellingConvReference,
                  "sum-of-products tolerance: kernels that drop a term or misplace the bias still fail") {
  CAPTURE(params);

  // A "kernel" whose loop bound is off by one: it drops the last tap of the last input channel (one of the
  // K = 1152 terms of every output).
  Tensor w_dropped = c.w.clone();
  for (int64_t m = 0; m < c.M; ++m) w_dropped.data<float>()[((m * c.C + c.C - 1) * 3 + 2) * 3 + 2] = 0.f;
  const Difference dropped = compare(run_op("Conv", c.attrs, {c.x, w_dropped, c.b}, 11)[0], want, tol, &mag);
  CAPTURE(dropped.max_abs);
  CAPTURE(dropped.max_ratio);
  CHECK_MESSAGE(!dropped.within, "a dropped term passes: max error ", dropped.max_abs);

  // A "kernel" whose bias is 0.5% off (a folding that used the wrong variance, say).
  Tensor b_off = c.b.clone();
  for (int64_t m = 0; m < c.M; ++m) b_off.data<float>()[m] *= 1.005f;
  const Difference biased = compare(run_op("Conv", c.attrs, {c.x, c.w, b_off}, 11)[0], want, tol, &mag);
  CAPTURE(biased.max_abs);
  CAPTURE(biased.max_ratio);
  CHECK_MESSAGE(!biased.within, "a bias 0.5% off passes: max error ", biased.max_abs);

  // A MatMul at VGG's classifier scale: K = 4608 nonnegative activations times weights of either sign, one
  // row of B dropped.
  const Tensor a = random_tensor({4, 4608}, 21, 0.f, 1.f), bm = random_tensor({4608, 16}, 22, -0.05f, 0.05f);
  Tensor b_dropped = bm.clone();
  for (int64_t j = 0; j < 16; ++j) b_dropped.data<float>()[1000 * 16 + j] = 0.f;
  const Tensor mm_want = run_op("MatMul", {}, {a, bm}, 13)[0];
  const Tensor mm_mag = magnitudes_of("MatMul", {}, {a, bm}, 13);
  const Tolerance mm_tol = builtin_ops().find("", "MatMul", 13).tolerance;
  const Difference mm_dnnl = compare(run_op("MatMul", {}, {a, bm}, 13, 1, "dnnl")[0], mm_want, mm_tol, &mm_mag);
  const Difference mm_dropped = compare(run_op("MatMul", {}, {a, b_dropped}, 13)[0], mm_want, mm_tol, &mm_mag);
  const std::string matmul = "MatMul A [4,4608] U[0,1) seed 21, B [4608,16] U[-0.05,0.05) seed 22, row 1000 dropped";
  CAPTURE(matmul);
  CAPTURE(mm_dnnl.max_ratio);
  CAPTURE(mm_dropped.max_ratio);
  CHECK_MESSAGE(mm_dnnl.within, mm_dnnl.detail);
  CHECK_MESSAGE(!mm_dropped.within, "a dropped term passes: max error ", mm_dropped.max_abs);
}
