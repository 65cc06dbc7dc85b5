// Reorders between layouts that hold a value in the same bytes (dnnl/layouts.h, make_reorder): [1, C, 1, 1]
// plain and nChw8c / nChw16c with whole blocks, as the squeeze-and-excitation means of EfficientNet and RegNet
// reach their 1x1 convolutions. The kernel views its input exactly when every element sits at the same offset
// in both layouts (checked here against the layouts' offset formulas, not oneDNN's), and the plan then shares
// the buffer and skips the copy, with results equal to the graph run node by node.
#include <doctest/doctest.h>

#include "dnnl/cpu_blocks.h"
#include "dnnl/layouts.h"
#include "engine/compare.h"
#include "engine/node_eval.h"
#include "runtime/plan.h"
#include "tests/unit/built_graph.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

// True when nChw<b>c (channels padded to whole blocks) puts every element of `shape` where plain does.
bool blocked_is_plain(const Shape& shape, int64_t b) {
  const int64_t N = shape[0], C = shape[1];
  int64_t HW = 1;
  for (size_t i = 2; i < shape.size(); ++i) HW *= shape[i];
  const int64_t Cp = (C + b - 1) / b * b;
  if (Cp != C) return false;  // a padded block: another size
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t p = 0; p < HW; ++p)
        if (((n * (Cp / b) + c / b) * HW + p) * b + c % b != (n * C + c) * HW + p) return false;
  return true;
}

}  // namespace

TEST_CASE("a reorder views its input exactly where both layouts put every element at the same byte") {
  const std::vector<Shape> shapes = {{1, 8, 1, 1},  {1, 16, 1, 1}, {1, 32, 1, 1}, {1, 1152, 1, 1}, {1, 12, 1, 1},
                                     {1, 4, 1, 1},  {2, 16, 1, 1}, {1, 16, 2, 2}, {1, 16, 1, 3},   {1, 8, 1},
                                     {1, 24, 1, 1, 1}, {3, 8, 1, 1}};
  for (const Shape& shape : shapes)
    for (int64_t b : {8, 16}) {
      const Layout blocked = channel_blocked_layout(shape, b);
      if (is_plain(blocked)) continue;
      const bool same = blocked_is_plain(shape, b);
      CAPTURE(to_string(shape));
      CAPTURE(b);
      CAPTURE(same);
      const auto to_blocked = make_reorder(Layout(), blocked, shape);
      const auto to_plain = make_reorder(blocked, Layout(), shape);
      CHECK(to_blocked->views_input() == same);
      CHECK(to_plain->views_input() == same);
      // Called on two buffers (an input the arena does not hold), it still copies: the bytes come through.
      const Tensor x = random_tensor(shape, 3, -1.f, 1.f);
      Tensor y(DType::f32, shape);
      if (same) {
        CHECK(y.bytes() == x.bytes());
        to_blocked->run({{&x}, {&y}, nullptr});
        CHECK(compare(y, x, kExact).detail == "");
      }
    }
}

TEST_CASE("squeeze-and-excitation means reach 1x1 convolutions without a copy, and the results stay right") {
  for (int64_t C : {32, 48, 40}) {  // whole blocks of 16 and of 8; of 8 only; neither whole blocks of 16 nor of 32
    GraphBuilder b;
    Attributes pads;
    pads.set("pads", ints({1, 1, 1, 1}));
    b.input("x", {1, C, 6, 6})
        .initializer("w", random_tensor({C, C, 3, 3}, 1, -0.2f, 0.2f))
        .initializer("w1", random_tensor({8, C, 1, 1}, 2, -0.3f, 0.3f))
        .initializer("w2", random_tensor({C, 8, 1, 1}, 3, -0.3f, 0.3f))
        .node("Conv", {"x", "w"}, {"a"}, "conv", pads)
        .node("GlobalAveragePool", {"a"}, {"m"})
        .node("Conv", {"m", "w1"}, {"s1"}, "squeeze")
        .node("Relu", {"s1"}, {"r"})
        .node("Conv", {"r", "w2"}, {"s2"}, "excite")
        .node("Sigmoid", {"s2"}, {"g"})
        .node("Mul", {"a", "g"}, {"y"})
        .output("y");
    const auto [graph, infos, inputs] = build(b, 5);
    CAPTURE(C);
    auto plan = Plan::build(graph, infos, Backend::dnnl);
    const int64_t block = cpu_channel_block();
    int copies = 0, views = 0;
    for (const PlanStep& s : plan->steps()) {
      if (s.node >= 0) continue;
      const Shape& shape = plan->graph().value(s.outputs[0]).info.shape;
      CAPTURE(to_string(shape));
      CAPTURE(s.view);
      // A [1, C, 1, 1] value in whole channel blocks is never copied between layouts.
      if (shape.size() == 4 && shape[2] == 1 && shape[3] == 1 && shape[1] % block == 0) CHECK(s.view);
      (s.view ? views : copies) += 1;
    }
    CAPTURE(views);
    CAPTURE(copies);
    const std::vector<Tensor> got = run_verified(*plan, inputs);
    // The oracle: the same graph on the reference backend (plain values, no views of reorders).
    auto ref = Plan::build(graph, infos, Backend::ref);
    const std::vector<Tensor> want = ref->run(inputs);
    REQUIRE(got.size() == 1);
    CHECK(within_tolerance("Conv", 11, got[0], want[0]) == "");
    // A second run over the same (pooled) arena gives the same bytes.
    CHECK(compare(plan->run(inputs)[0], got[0], kExact).detail == "");
  }
}
