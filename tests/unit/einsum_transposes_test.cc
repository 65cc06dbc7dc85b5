// The einsum-transposes pass (passes/einsum_transposes.cc): Transposes into and out of an Einsum go into its
// equation where they can, stay where they cannot, and the results are the pass-free reference plan's.
#include <doctest/doctest.h>

#include "passes/pass.h"
#include "runtime/plan.h"
#include "tests/unit/built_graph.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

struct Case {
  std::string what;
  GraphBuilder graph;
  int transposes_left;    // Transpose steps in the plan with every pass on
  std::string equation;  // of the Einsum planned (the first one)
};

Attributes perm(std::vector<int64_t> p) {
  Attributes a;
  a.set("perm", ints(std::move(p)));
  return a;
}

Attributes equation(const std::string& eq) {
  Attributes a;
  a.set("equation", string_attr(eq));
  return a;
}

// maxvit's attention: q and k [b, g, i, h, d] transposed to [b, g, h, i, d], k scaled by `scale` ([] or [1]: a
// scalar; [8]: one per d), and multiplied; the result and v (transposed the same way) multiplied and transposed
// back to [b, g, i, h, d].
GraphBuilder attention(Shape scale = {}) {
  GraphBuilder b;
  b.input("q", {1, 4, 7, 2, 8}).input("k", {1, 4, 7, 2, 8}).input("v", {1, 4, 7, 2, 8});
  b.initializer("scale", random_tensor(scale, 4, 0.2f, 0.5f));
  for (const char* x : {"q", "k", "v"}) b.node("Transpose", {x}, {std::string(x) + "t"}, "", perm({0, 1, 3, 2, 4}));
  b.node("Mul", {"kt", "scale"}, {"ks"})
      .node("Einsum", {"qt", "ks"}, {"attn"}, "qk", equation("B G H I D, B G H J D -> B G H I J"))
      .node("Softmax", {"attn"}, {"p"})
      .node("Einsum", {"p", "vt"}, {"o"}, "pv", equation("B G H I J, B G H J D -> B G H I D"))
      .node("Transpose", {"o"}, {"y"}, "", perm({0, 1, 3, 2, 4}))
      .output("y");
  return b;
}

GraphBuilder one(const std::string& eq, Shape a, Shape b_shape, std::vector<int64_t> a_perm, std::vector<int64_t> y_perm) {
  GraphBuilder b;
  b.input("a", a).input("b", b_shape);
  b.node("Transpose", {"a"}, {"at"}, "", perm(a_perm))
      .node("Einsum", {"at", "b"}, {"e"}, "e", equation(eq))
      .node("Transpose", {"e"}, {"y"}, "", perm(y_perm))
      .output("y");
  return b;
}

}  // namespace

TEST_CASE("einsum-transposes: Transposes around an Einsum fold into its equation") {
  std::vector<Case> cases;
  cases.push_back({"maxvit attention", attention(), 0, "BGIHD,BGJHD->BGHIJ"});
  cases.push_back({"scale [1]", attention({1}), 0, "BGIHD,BGJHD->BGHIJ"});
  cases.push_back({"scale per d: k's Transpose stays", attention({8}), 1, "BGIHD,BGHJD->BGHIJ"});
  cases.push_back({"2-D, both sides", one("ij,jk->ik", {4, 3}, {4, 5}, {1, 0}, {1, 0}), 0, "ji,jk->ki"});
  cases.push_back({"3-D rotations", one("bij,bjk->bik", {3, 4, 2}, {2, 4, 5}, {2, 0, 1}, {1, 2, 0}), 0, "ijb,bjk->ikb"});
  cases.push_back({"implicit output", one("ij,jk", {4, 3}, {4, 5}, {1, 0}, {1, 0}), 0, "ji,jk->ki"});
  cases.push_back({"'...' terms are left alone", one("...ij,...jk->...ik", {2, 4, 3}, {2, 4, 5}, {0, 2, 1}, {2, 1, 0}), 2,
                   "...ij,...jk->...ik"});
  GraphBuilder shared = one("ij,jk->ik", {4, 3}, {4, 5}, {1, 0}, {1, 0});
  shared.output("at").output("e");
  cases.push_back({"transposed input also read elsewhere, Einsum output a graph output", shared, 2, "ji,jk->ik"});
  for (Case& c : cases) {
    CAPTURE(c.what);
    const auto [graph, infos, inputs] = build(c.graph, 3);
    const std::vector<Tensor> want = Plan::build(graph, infos, Backend::ref, graph_pass_names())->run(inputs);
    for (Backend backend : {Backend::dnnl, Backend::ref}) {
      CAPTURE(backend_name(backend));
      const auto plan = Plan::build(graph, infos, backend);
      int transposes = 0;
      std::string first_equation, kernels;
      for (const PlanStep& s : plan->steps()) {
        if (s.node < 0) continue;
        const Node& n = plan->graph().nodes[size_t(s.node)];
        transposes += n.op_type == "Transpose";
        if (n.op_type != "Einsum") continue;
        kernels += s.kernel + " ";
        if (first_equation.empty()) first_equation = n.attrs.get_string("equation", "");
      }
      CAPTURE(kernels);
      CHECK(transposes == c.transposes_left);
      CHECK(first_equation == c.equation);
      if (backend == Backend::dnnl) CHECK(kernels.find("ref") == std::string::npos);
      const std::vector<Tensor> got = plan->run(inputs);
      REQUIRE(got.size() == want.size());
      for (size_t i = 0; i < got.size(); ++i) CHECK(within_tolerance("Einsum", 12, got[i], want[i]) == "");
    }
  }
}
