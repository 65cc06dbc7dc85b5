// runtime/data_run.h: a graph run node by node on its inputs' data. Shapes come from the data (one built graph
// runs for inputs of other shapes), each node's kernel is kept per shapes and its output buffer reused once
// nothing holds it (never while a caller does), checks compare every node's kept kernel with the node folded
// anew, and the run's tensor limit is the one it was given. Every op here selects or copies (Relu, Concat):
// results are exact.
#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "engine/graph_builder.h"
#include "ops/builtin_ops.h"
#include "runtime/data_run.h"
#include "tests/unit/op_harness.h"

namespace cnnx {
namespace {

using testing::random_tensor;

// y = Concat(x, Relu(x)) along axis 0.
std::shared_ptr<const Graph> stack_relu() {
  GraphBuilder b(13);
  Attributes axis;
  axis.set("axis", int_attr(0));
  b.input("x", {2, 3}).node("Relu", {"x"}, {"r"}, "relu").node("Concat", {"x", "r"}, {"y"}, "cat", axis).output("y");
  return b.finish(builtin_ops());
}

// Throws unless y is Concat(x, Relu(x)) along axis 0, bit for bit.
void require_stacked(const Tensor& x, const Tensor& y) {
  const int64_t n = x.numel();
  CAPTURE(to_string(x.shape()));
  CAPTURE(to_string(y.shape()));
  REQUIRE(y.shape() == Shape{2 * x.dim(0), x.dim(1)});
  for (int64_t i = 0; i < n; ++i) {
    CAPTURE(i);
    const float v = x.data<float>()[i];
    CHECK(y.data<float>()[i] == v);
    CHECK(y.data<float>()[n + i] == (v > 0 ? v : 0.f));
  }
}

TEST_CASE("data run: shapes from each run's data, buffers reused only when free") {
  const std::shared_ptr<const Graph> g = stack_relu();
  DataRun run(PlanLimits{});
  uint32_t seed = 1;
  for (int64_t rows : {2, 5, 5, 2}) {  // the graph was built for [2, 3]; its data decides
    CAPTURE(rows);
    const Tensor x = random_tensor({rows, 3}, seed++, -2.f, 2.f);
    require_stacked(x, run.run(*g, {x})[0]);
  }
  const Tensor x1 = random_tensor({4, 3}, 11, -2.f, 2.f), x2 = random_tensor({4, 3}, 12, -2.f, 2.f);
  std::vector<Tensor> first = run.run(*g, {x1});
  const void* first_bytes = first[0].raw();
  std::vector<Tensor> held = run.run(*g, {x2});  // `first` is held: a buffer of its own
  CHECK(held[0].raw() != first_bytes);
  require_stacked(x1, first[0]);
  require_stacked(x2, held[0]);
  const Tensor x3 = random_tensor({4, 3}, 13, -2.f, 2.f);
  const void* held_bytes = held[0].raw();
  held.clear();  // no longer held: the next run of the same shapes takes its buffer again
  const std::vector<Tensor> again = run.run(*g, {x3});
  CHECK(again[0].raw() == held_bytes);
  require_stacked(x3, again[0]);
  require_stacked(x1, first[0]);
}

TEST_CASE("data run: checks compare each node's kept kernel with the node folded anew") {
  const std::shared_ptr<const Graph> g = stack_relu();
  std::vector<NodeCheck> checks;
  DataRun run(PlanLimits{}, &checks);
  for (int64_t rows : {3, 3, 6}) {
    CAPTURE(rows);
    const Tensor x = random_tensor({rows, 3}, uint32_t(rows), -2.f, 2.f);
    require_stacked(x, run.run(*g, {x})[0]);
  }
  REQUIRE(checks.size() == 2);  // one per node, its worst run
  for (const NodeCheck& c : checks) {
    CAPTURE(c.node);
    CAPTURE(c.detail);
    CHECK(c.kernel == "ref (kept)");
    CHECK(c.within);
    CHECK(c.max_abs == 0);
  }
}

TEST_CASE("data run: the tensor limit is the run's") {
  const std::shared_ptr<const Graph> g = stack_relu();
  PlanLimits limits;
  limits.max_tensor_bytes = 40;  // Relu's [2, 3] output (24 bytes) fits, the Concat's [4, 3] (48) does not
  DataRun run(limits);
  const Tensor x = random_tensor({2, 3}, 1, -2.f, 2.f);
  std::string message;
  try {
    run.run(*g, {x});
  } catch (const Error& e) {
    message = e.what();
  }
  CAPTURE(message);
  CHECK(message.find("node 'cat' (Concat)") != std::string::npos);
  CHECK(message.find("48 bytes, beyond the tensor limit of 40") != std::string::npos);
}

}  // namespace
}  // namespace cnnx
