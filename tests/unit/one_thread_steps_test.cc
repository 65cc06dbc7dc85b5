// Which steps the plan runs on the calling thread alone (PlanStep::one_thread, runtime/plan.cc): those that
// read and write under 64 KiB, and those that only copy (OpHints::copies_only) under 512 KiB.
#include <doctest/doctest.h>

#include "runtime/plan.h"
#include "tests/unit/built_graph.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

const PlanStep& step_of(const Plan& plan, const std::string& node_name) {
  for (const PlanStep& s : plan.steps())
    if (s.node >= 0 && plan.graph().nodes[size_t(s.node)].name == node_name) return s;
  FAIL("no step runs node ", node_name);
  throw;
}

}  // namespace

TEST_CASE("copies run on one thread below 512 KiB, other steps below 64 KiB") {
  Attributes to_channels_last;
  to_channels_last.set("perm", ints({0, 2, 3, 1}));
  GraphBuilder b;
  b.input("x", {1, 48, 28, 28})     // 147 KiB
      .input("big", {1, 64, 64, 64})  // 1 MiB
      .node("Transpose", {"x"}, {"x_t"}, "copy_294k", to_channels_last)
      .node("Transpose", {"big"}, {"big_t"}, "copy_2m", to_channels_last)
      .node("Relu", {"x"}, {"x_relu"}, "relu_294k")
      .output("x_t")
      .output("big_t")
      .output("x_relu");
  const BuiltGraph g = build(b, 7);
  const auto plan = Plan::build(g.graph, g.infos, Backend::dnnl);
  CHECK(step_of(*plan, "copy_294k").one_thread);
  CHECK_FALSE(step_of(*plan, "copy_2m").one_thread);
  CHECK_FALSE(step_of(*plan, "relu_294k").one_thread);
  // The outputs are what the reference kernels make, whichever thread ran them.
  const std::vector<Tensor> got = plan->run(g.inputs);
  const auto ref = Plan::build(g.graph, g.infos, Backend::ref);
  const std::vector<Tensor> want = ref->run(g.inputs);
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(compare(got[i], want[i], kExact).within);
  }
}
