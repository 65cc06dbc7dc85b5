// Kernel cases of the gemm family (ops/gemm): Gemm, MatMul, Einsum. Each case runs every kernel of its op against
// the op's reference kernel; tests/unit/kernel_cases.h says how, and how a table is registered.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

// ---- matrix products ----

std::vector<KernelCase> gemm_cases() {
  struct Product {
    int64_t M, N, K;
    bool trans_a, trans_b;
    float alpha, beta;
    bool has_c;
    Shape c;
    int opset;
  };
  const Product products[] = {
      {3, 4, 5, false, false, 1.f, 1.f, false, {}, 13},
      {3, 4, 5, true, false, 1.f, 1.f, false, {}, 13},
      {3, 4, 5, false, true, 1.f, 1.f, false, {}, 13},
      {3, 4, 5, true, true, 0.5f, 1.f, false, {}, 13},
      {3, 4, 5, false, false, 1.f, 1.f, true, {3, 4}, 13},
      {3, 4, 5, false, true, 1.f, 1.f, true, {4}, 13},
      {3, 4, 5, false, false, 1.f, 1.f, true, {1, 4}, 13},
      {3, 4, 5, false, false, 0.25f, 0.35f, true, {3, 1}, 13},
      {3, 4, 5, true, true, 2.f, -1.5f, true, {}, 13},
      {3, 4, 5, false, false, 1.f, 0.f, true, {1, 1}, 13},
      {3, 4, 5, false, false, 1.f, 2.f, true, {1}, 13},
      {3, 4, 5, false, false, 0.f, 1.f, true, {3, 4}, 13},
      {1, 1000, 512, false, true, 1.f, 1.f, true, {1000}, 13},
      {8, 64, 2048, false, true, 1.f, 1.f, true, {64}, 13},
      {17, 9, 33, true, false, 1.5f, 0.5f, true, {17, 9}, 6},
      {4, 6, 1, false, false, 1.f, 1.f, true, {6}, 7},
      {2, 37, 70, false, false, 1.f, 3.f, true, {1, 37}, 13},
      {2, 37, 70, false, true, 1.f, 0.5f, true, {1, 1}, 13},
      {3, 4, 5, false, true, 1.f, -1.5f, true, {}, 13},
      {5, 1, 7, false, false, 1.f, 1.f, true, {1}, 13},
  };
  std::vector<KernelCase> cases;
  for (const Product& p : products) {
    // Constant B and C (a layer's weights and bias) take the inner product where A is not transposed and C is
    // a row; everything else the matmul.
    for (bool constant_b_c : {false, true}) {
      std::ostringstream what;
      what << "M " << p.M << " N " << p.N << " K " << p.K << (constant_b_c ? ", constant B and C" : "");
      KernelCase c("Gemm", p.opset, what.str());
      c.attr("transA", int_attr(p.trans_a)).attr("transB", int_attr(p.trans_b));
      c.attr("alpha", float_attr(p.alpha)).attr("beta", float_attr(p.beta));
      // B is scaled like a layer's weights (PyTorch's Linear init, U(+-1/sqrt(K))), so that outputs are O(1)
      // and the float32 partial sums stay within the premise of the op's tolerance.
      const float w = 1.f / std::sqrt(float(p.K));
      const CaseInput b = random_in(p.trans_b ? Shape{p.N, p.K} : Shape{p.K, p.N}, -w, w);
      c.in(random_in(p.trans_a ? Shape{p.K, p.M} : Shape{p.M, p.K})).in(constant_b_c ? b.constant() : b);
      if (p.has_c) c.in(constant_b_c ? random_in(p.c).constant() : random_in(p.c));
      // alpha 0, or beta 0 over a C that may hold NaN or inf: ONNX's 0 * NaN is NaN, oneDNN drops the term.
      if (p.alpha == 0) c.declines("dnnl", "alpha is 0");
      else if (p.has_c && p.beta == 0 && !constant_b_c) c.declines("dnnl", "beta is 0 and C may hold NaN");
      cases.push_back(c);
    }
  }
  cases.push_back(KernelCase("Gemm", 13, "K = 0 leaves beta * C")
                      .attr("beta", float_attr(3.f))
                      .in(random_in({2, 0})).in(random_in({0, 3})).in(random_in({2, 3}))
                      .declines("dnnl", "is empty"));
  return cases;
}

std::vector<KernelCase> matmul_cases() {
  const std::pair<Shape, Shape> shapes[] = {
      {{5}, {5}},
      {{5}, {5, 3}},
      {{4, 5}, {5}},
      {{4, 5}, {5, 3}},
      {{2, 3, 4, 5}, {5, 6}},
      {{4, 5}, {2, 5, 6}},
      {{2, 1, 4, 5}, {3, 5, 6}},
      {{1, 4, 5}, {4, 5, 6}},
      {{3, 1, 4, 5}, {1, 2, 5, 6}},
      {{5}, {2, 5, 6}},
      {{2, 4, 5}, {5}},
      {{2, 2, 2, 2, 3, 4}, {2, 1, 2, 4, 2}},
      {{64, 256}, {256, 128}},
  };
  std::vector<KernelCase> cases;
  for (const auto& [a, b] : shapes)
    cases.push_back(KernelCase("MatMul", 13, "A " + to_string(a) + " B " + to_string(b)).in(random_in(a)).in(random_in(b)));
  cases.push_back(KernelCase("MatMul", 13, "constant B").in(random_in({3, 7})).in(random_in({7, 4}).constant()));
  cases.push_back(KernelCase("MatMul", 13, "K = 0").in(random_in({2, 0})).in(random_in({0, 3}))
                      .declines("dnnl", "is empty"));
  cases.push_back(KernelCase("MatMul", 13, "batch 0").in(random_in({0, 2, 3})).in(random_in({3, 4}))
                      .declines("dnnl", "is empty"));
  // FusedMatMul (the fuse-matmul-bias pass's): MatMul plus a bias [N] per column.
  const std::pair<Shape, Shape> biased[] = {
      {{4, 5}, {5, 3}}, {{2, 7, 16}, {16, 8}}, {{5}, {5, 3}}, {{2, 1, 4, 5}, {3, 5, 6}}, {{64, 256}, {256, 128}}};
  for (const auto& [a, b] : biased)
    cases.push_back(KernelCase("FusedMatMul", 1, "A " + to_string(a) + " B " + to_string(b) + " + bias")
                        .in_domain(kInternalDomain).in(random_in(a)).in(random_in(b).constant())
                        .in(random_in({b.back()}, -2.f, 2.f).constant()));
  cases.push_back(KernelCase("FusedMatMul", 1, "batch 0").in_domain(kInternalDomain).in(random_in({0, 2, 3}))
                      .in(random_in({3, 4})).in(random_in({4})).declines("dnnl", "is empty"));
  return cases;
}

// copies where the strides do not suit oneDNN: ops/gemm/einsum_dnnl.cc), and declines the rest.
std::vector<KernelCase> einsum_cases() {
  struct Eq {
    const char* equation;
    std::vector<Shape> shapes;
    const char* declines = nullptr;  // a part of the dnnl kernel's reason
    size_t constant = 2;             // the constant input, if any
  };
  const Eq eqs[] = {
      {"ij,jk->ik", {{3, 4}, {4, 5}}},
      {"bij,bjk->bik", {{3, 5, 6}, {3, 6, 7}}},
      {"bhid,bhjd->bhij", {{2, 3, 4, 5}, {2, 3, 6, 5}}},  // attention's Q K^T: B read transposed
      // maxvit_t's two equations (window and grid attention), with its shapes
      {"B G H I D, B G H J D -> B G H I J", {{1, 16, 4, 49, 32}, {1, 16, 4, 49, 32}}},
      {"B G H I J, B G H J D -> B G H I D", {{1, 16, 4, 49, 49}, {1, 16, 4, 49, 32}}},
      // permuted operands and outputs
      {"ji,jk->ik", {{4, 3}, {4, 5}}},
      {"ik,jk->ij", {{3, 4}, {5, 4}}},
      {"ij,jk->ki", {{3, 4}, {4, 5}}},                    // Y's unit stride in M: computed as Y^T = B^T A^T
      {"bij,bjk->bki", {{2, 3, 4}, {2, 4, 5}}},
      {"bij,bjk->ibk", {{2, 3, 4}, {2, 4, 5}}},           // batch between M and N in Y
      {"bij,bjk->ikb", {{2, 3, 4}, {2, 4, 5}}},           // batch innermost in Y: Y written densely, copied
      {"ijb,bjk->bik", {{3, 4, 2}, {2, 4, 5}}},           // no unit stride in A's matrix dims: A copied
      // K over two letters: one run of memory in both; in another order in B (B copied); a constant A whose K
      // axes are apart (prepared once, in B's order)
      {"bikl,bklj->bij", {{2, 3, 4, 5}, {2, 4, 5, 6}}},
      {"bikl,blkj->bij", {{2, 3, 4, 5}, {2, 5, 4, 6}}},
      {"lik,klj->ij", {{5, 3, 4}, {4, 5, 6}}, nullptr, 0},
      {"bij,jk->bik", {{2, 3, 4}, {4, 5}}, nullptr, 1},   // a layer: constant weights
      // M over two letters in another order in Y: the first becomes a batch dim B broadcasts
      {"aib,bj->ija", {{3, 4, 5}, {5, 6}}},
      // broadcast and summed "..." dims; dims of 1
      {"...ij,...jk", {{2, 1, 3, 4}, {5, 4, 2}}},
      {"...ij,...jk->...ik", {{3, 1, 2, 4}, {1, 5, 4, 3}}},
      {"...ij,...jk->ik", {{2, 3, 4}, {2, 4, 5}}},
      {"bij,bjk->bik", {{1, 3, 4}, {1, 4, 5}}},
      {"ij,jk->ik", {{3, 1}, {1, 5}}},
      // no M, N or K
      {"i,j", {{3}, {4}}},
      {"i,i", {{7}, {7}}},
      {"bi,bi->b", {{3, 7}, {3, 7}}},
      // not a matrix product
      {"ii", {{4, 4}}, "1 operand"},
      {"ii->i", {{4, 4}}, "1 operand"},
      {"ij->", {{3, 4}}, "1 operand"},
      {"...ii->...i", {{2, 3, 3}}, "1 operand"},
      {"ab,bc,cd->ad", {{2, 3}, {3, 4}, {4, 2}}, "3 operands"},
      {"ii,ij->j", {{3, 3}, {3, 4}}, "a diagonal: label 'i' twice in input 0"},
      {"ij,jk->k", {{3, 4}, {4, 5}}, "label 'i' is summed in input 0 only"},
      {"...ij,jk->ik", {{2, 3, 4}, {4, 5}}, "'...' dim 0 is summed in input 0 only"},
  };
  std::vector<KernelCase> cases;
  for (const Eq& e : eqs) {
    const std::string constant = e.constant < 2 ? ", constant input " + std::to_string(e.constant) : "";
    KernelCase c("Einsum", 12, e.equation + constant);
    c.attr("equation", string_attr(e.equation));
    for (size_t i = 0; i < e.shapes.size(); ++i)
      c.in(i == e.constant ? random_in(e.shapes[i]).constant() : random_in(e.shapes[i]));
    if (e.declines) c.declines("dnnl", e.declines);
    cases.push_back(c);
  }
  cases.push_back(KernelCase("Einsum", 12, "float64").attr("equation", string_attr("ij,jk->ik"))
                      .in(given(Tensor(DType::f64, {2, 3}))).in(given(Tensor(DType::f64, {3, 2})))
                      .declines("dnnl", "not float32"));
  return cases;
}

}  // namespace

KERNEL_CASES("Gemm and MatMul", gemm_cases, matmul_cases)
KERNEL_CASES("Einsum", einsum_cases)
