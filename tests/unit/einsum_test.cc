// Einsum: the equation parser and its messages, hand-checked results, and the errors of infer.
#include <doctest/doctest.h>

#include "ops/gemm/einsum.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

Attributes eq_attr(const std::string& eq) {
  Attributes a;
  a.set("equation", string_attr(eq));
  return a;
}

std::vector<float> values(const Tensor& t) { return std::vector<float>(t.data<float>(), t.data<float>() + t.numel()); }

std::string error_of(const std::string& eq, size_t operands) {
  try {
    parse_einsum_equation(eq, operands);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("Einsum: the equation parser") {
  EinsumParams p = parse_einsum_equation("ij, jk -> ik", 2);
  CHECK(p.explicit_output);
  CHECK(p.terms == std::vector<std::vector<int>>{{8, 9}, {9, 10}});
  CHECK(p.output == std::vector<int>{8, 10});
  // Implicit output: the ellipsis, then labels seen once, upper case first (ASCII order).
  p = parse_einsum_equation("...bA,ac", 2);
  CHECK_FALSE(p.explicit_output);
  CHECK(p.output == std::vector<int>{kEinsumEllipsis, 26, 0, 1, 2});
  CHECK(parse_einsum_equation("ii", 1).output.empty());

  struct Bad {
    const char* eq;
    size_t operands;
    const char* says;
  };
  const Bad bad[] = {
      {"ij,jk->ik", 3, "has 2 input terms but the node has 3 inputs"},
      {"ij,jk,kl->il", 2, "has 3 input terms but the node has 2 inputs"},
      {"i1->i", 1, "has the character '1'"},
      {"i..j->ij", 1, "'.' that is not part of '...'"},
      {"...i...->i", 1, "has '...' twice"},
      {"ij->ii", 1, "appears twice in the output"},
      {"ij->k", 1, "output label 'k' is in no input term"},
      {"ij->...", 1, "the output has '...' but no input term does"},
      {"ij->i->j", 1, "'-' and '>' may only appear once"},
      {"ij-i", 1, "'-' and '>' may only appear once"},
      {"ij->i,j", 1, "has a ','"},
  };
  for (const Bad& b : bad) {
    CAPTURE(std::string(b.eq));
    const std::string msg = error_of(b.eq, b.operands);
    CHECK_MESSAGE(msg.find(b.says) != std::string::npos, msg);
  }
}

TEST_CASE("Einsum: results") {
  const Tensor a = make_tensor({2, 2}, {1, 2, 3, 4});
  const Tensor b = make_tensor({2, 2}, {5, 6, 7, 8});
  CHECK(values(run_op("Einsum", eq_attr("ij,jk->ik"), {a, b}, 12)[0]) == std::vector<float>{19, 22, 43, 50});
  CHECK(values(run_op("Einsum", eq_attr("ii->i"), {a}, 12)[0]) == std::vector<float>{1, 4});
  CHECK(values(run_op("Einsum", eq_attr("ii"), {a}, 12)[0]) == std::vector<float>{5});
  CHECK(values(run_op("Einsum", eq_attr("ij"), {a}, 12)[0]) == std::vector<float>{1, 2, 3, 4});
  CHECK(values(run_op("Einsum", eq_attr("ji"), {a}, 12)[0]) == std::vector<float>{1, 3, 2, 4});  // implicit: transposed
  CHECK(values(run_op("Einsum", eq_attr("ij->"), {a}, 12)[0]) == std::vector<float>{10});
  CHECK(values(run_op("Einsum", eq_attr("i,j->ij"), {make_tensor({2}, {1, 2}), make_tensor({3}, {1, 10, 100})}, 12)[0]) ==
        std::vector<float>{1, 10, 100, 2, 20, 200});
  // Ellipsis broadcasting: [2,1] ellipsis against [3].
  const Tensor x = make_tensor({2, 1, 2}, {1, 2, 3, 4});
  const Tensor w = make_tensor({3, 2}, {1, 0, 0, 1, 1, 1});
  Tensor y = run_op("Einsum", eq_attr("...i,...i->..."), {x, w}, 12)[0];
  CHECK(y.shape() == Shape{2, 3});
  CHECK(values(y) == std::vector<float>{1, 2, 3, 3, 4, 7});
  // An explicit output without '...' sums the ellipsis dims.
  CHECK(values(run_op("Einsum", eq_attr("...i->i"), {x}, 12)[0]) == std::vector<float>{4, 6});
}

TEST_CASE("Einsum: errors name what does not match") {
  const Tensor a = make_tensor({2, 3});
  struct Bad {
    const char* eq;
    std::vector<Tensor> in;
    const char* says;
  };
  const Bad bad[] = {
      {"ij,jk->ik", {a, make_tensor({2, 2})}, "label 'j' has size 3"},
      {"ijk->i", {a}, "input 0 has rank 2"},
      {"i->i", {a}, "input 0 has rank 2"},
      {"...ijk->i", {a}, "input 0 has rank 2"},
      {"...i,...i->...", {make_tensor({2, 3}), make_tensor({4, 3})}, "do not broadcast"},
      {"ij,jk->ik", {a}, "has 2 input terms but the node has 1 input"},
      {"ij", {make_int_tensor({2, 3}, {1, 2, 3, 4, 5, 6})}, "int64"},
  };
  for (const Bad& b : bad) {
    CAPTURE(std::string(b.eq));
    std::string msg;
    try {
      run_op("Einsum", eq_attr(b.eq), b.in, 12);
    } catch (const Error& e) {
      msg = e.what();
    }
    CHECK_MESSAGE(msg.find(b.says) != std::string::npos, msg);
  }
  CHECK_THROWS_AS(run_op("Einsum", {}, {a}, 12), Error);  // no equation
}
