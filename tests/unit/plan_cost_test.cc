// The work `cnnx bench` reports (runtime/plan_cost.h): each sum-of-products op's FLOP count (OpHints::flops,
// 2 per multiply-add) against values worked out by hand, and a plan's total and weight bytes, the same whatever
// the passes fuse and whichever backend runs.
#include <doctest/doctest.h>

#include "passes/pass.h"
#include "runtime/plan.h"
#include "runtime/plan_cost.h"
#include "tests/unit/built_graph.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

struct FlopCase {
  const char* what;
  const char* op;
  Attributes attrs;
  std::vector<Shape> shapes;
  double flop;  // by hand: 2 * outputs * products per output
};

}  // namespace

TEST_CASE("Each sum-of-products op counts 2 FLOP per multiply-add at concrete shapes") {
  Attributes pad1, group4, trans_b, stride2, bmm;
  pad1.set("pads", ints({1, 1, 1, 1}));
  group4.set("group", int_attr(4));
  trans_b.set("transB", int_attr(1));
  stride2.set("strides", ints({2, 2}));
  bmm.set("equation", string_attr("bij,bjk->bik"));
  const std::vector<FlopCase> cases = {
      // 4 output channels x 8x8 positions, each 3 channels x 3x3 taps (the padded ones too).
      {"conv 3x3 pad 1", "Conv", pad1, {{1, 3, 8, 8}, {4, 3, 3, 3}, {4}}, 2.0 * 4 * 64 * 3 * 9},
      // batch 2, 8 output channels x 4x4 positions, each 8 / 4 = 2 channels x 3x3 taps.
      {"grouped conv, 4 groups", "Conv", group4, {{2, 8, 6, 6}, {8, 2, 3, 3}}, 2.0 * 2 * 8 * 16 * 2 * 9},
      // one input channel to 3 outputs, 2x2 taps at 4x4 positions.
      {"conv 1 -> 3 channels 2x2", "Conv", {}, {{1, 1, 5, 5}, {3, 1, 2, 2}}, 2.0 * 3 * 16 * 1 * 4},
      // every one of 2 x 3x3 input cells times 3 x 2x2 taps.
      {"conv transpose stride 2", "ConvTranspose", stride2, {{1, 2, 3, 3}, {2, 3, 2, 2}}, 2.0 * 2 * 9 * 3 * 4},
      // batch dims [3, 1] and [2] broadcast to [3, 2]: 6 products of [4, 5] x [5, 6].
      {"matmul with batch dims", "MatMul", {}, {{3, 1, 4, 5}, {2, 5, 6}}, 2.0 * 6 * 4 * 6 * 5},
      {"matmul vector x matrix", "MatMul", {}, {{5}, {5, 6}}, 2.0 * 6 * 5},
      {"gemm transB", "Gemm", trans_b, {{2, 3}, {4, 3}, {4}}, 2.0 * 2 * 4 * 3},
      {"einsum batched matmul", "Einsum", bmm, {{2, 3, 4}, {2, 4, 5}}, 2.0 * 2 * 3 * 5 * 4},
  };
  for (const FlopCase& c : cases) {
    CAPTURE(c.what);
    CAPTURE(c.op);
    std::vector<Tensor> inputs;
    for (const Shape& s : c.shapes) inputs.push_back(make_tensor(s));
    const InferredNode n = infer_node(c.op, c.attrs, inputs, 13, 1, std::vector<bool>(inputs.size(), false), "");
    REQUIRE(n.node.def->hints.flops);
    CHECK(n.node.def->hints.flops(*n.node.params, n.in) == c.flop);
  }
  CHECK_FALSE(builtin_ops().find("", "Relu", 13).hints.flops);
}

TEST_CASE("A plan's cost: the FLOP of its products and the bytes of its weights, fused or not, on each backend") {
  // Conv 3 -> 4 channels, 3x3 pad 1 at 8x8 (+ bias), Relu (fused into the convolution), then a 256 -> 10 MatMul
  // and a bias Add (fused into one FusedMatMul).
  Attributes pad1;
  pad1.set("pads", ints({1, 1, 1, 1}));
  GraphBuilder b(13);
  b.input("x", {1, 3, 8, 8})
      .initializer("w", random_tensor({4, 3, 3, 3}, 1))
      .initializer("b", random_tensor({4}, 2))
      .initializer("fc", random_tensor({256, 10}, 3))
      .initializer("fc_bias", random_tensor({10}, 4))
      .node("Conv", {"x", "w", "b"}, {"c"}, "conv", pad1)
      .node("Relu", {"c"}, {"r"})
      .node("Flatten", {"r"}, {"f"})
      .node("MatMul", {"f", "fc"}, {"m"})
      .node("Add", {"m", "fc_bias"}, {"y"})
      .output("y");
  const auto [graph, infos, inputs] = build(b, 5);
  const double flop = 2.0 * 4 * 64 * 3 * 9 + 2.0 * 10 * 256;
  const int64_t weight_bytes = (4 * 3 * 3 * 3 + 4 + 256 * 10 + 10) * 4;
  for (Backend backend : {Backend::dnnl, Backend::ref}) {
    for (bool passes : {true, false}) {
      CAPTURE(backend_name(backend));
      CAPTURE(passes);
      const auto plan = Plan::build(graph, infos, backend, passes ? std::vector<std::string>{} : graph_pass_names());
      std::string ops;
      for (const PlanStep& s : plan->steps())
        if (s.node >= 0) ops += plan->graph().nodes[size_t(s.node)].op_type + " ";
      CAPTURE(ops);
      const PlanCost cost = plan_cost(*plan);
      CHECK(cost.flop == flop);
      CHECK(cost.weight_bytes == weight_bytes);
    }
  }
}
