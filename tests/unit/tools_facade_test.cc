// The tools facade (api/tools_facade.h), what cnnx's own front ends read instead of the graph and the plans:
// the model's description, the team of a run, a plan's steps and work, and the lab's models written in code.
// The commands that print these are tested from the command line (tests/cli/); here the values themselves.
#include <doctest/doctest.h>
#include <omp.h>

#include <cstdlib>
#include <cstring>

#include "api/tools_facade.h"
#include "runtime/team.h"

using namespace cnnx;

namespace {
const char* const kShapes = CNNX_SOURCE_DIR "/models/shapes/shapes.onnx";
}

TEST_CASE("model_report: the file's description, inputs and outputs as declared, nodes in order") {
  const Model model = Model::load(kShapes);
  const ModelReport r = model_report(model);
  REQUIRE(r.inputs.size() == model.inputs().size());
  REQUIRE(r.outputs.size() == model.outputs().size());
  for (size_t i = 0; i < r.inputs.size(); ++i) {
    CHECK(r.inputs[i].name == model.inputs()[i].name);
    CHECK(r.inputs[i].dtype == model.inputs()[i].dtype);
    CHECK(r.inputs[i].shape == model.inputs()[i].shape);
    CHECK(r.inputs[i].rank_known == model.inputs()[i].shape_known);
    CHECK_FALSE(r.inputs[i].constant);
  }
  CHECK(r.opsets.count("") == 1);
  CHECK_FALSE(r.nodes.empty());
  for (const auto& [key, value] : r.metadata) CHECK(model.metadata(key) == value);
}

TEST_CASE("run_team is the model's whole team: Options::threads, else the OMP_NUM_THREADS pin, else default_team") {
  Options pinned;
  pinned.threads = 3;
  CHECK(run_team(Model::load(kShapes, pinned)) == 3);
  const int team = run_team(Model::load(kShapes));
  CHECK(team == (std::getenv("OMP_NUM_THREADS") ? omp_get_max_threads() : default_team()));
}

TEST_CASE("plan_of: the model's plan, its steps, pass reports and work; its runs give the model's outputs") {
  Options one;
  one.threads = 1;
  const Model model = Model::load(kShapes, one);
  Shape shape = model.inputs()[0].shape;
  for (int64_t& d : shape) d = d < 0 ? 2 : d;
  Tensor x(DType::f32, shape);
  for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = float(i % 7) / 7.f;
  const PlanView plan = plan_of(model, {x});
  CHECK(plan.backend() == Backend::dnnl);
  const std::vector<StepReport> steps = plan.steps();
  REQUIRE_FALSE(steps.empty());
  for (const StepReport& s : steps) {
    CAPTURE(s.name);
    CHECK(!s.name.empty());
    CHECK(!s.kernel.empty());
    CHECK(s.reorder == s.op_type.empty());
    CHECK(!s.outputs.empty());
  }
  CHECK(plan.passes().size() == graph_pass_names().size() + 1);  // + the float16-compute lowering
  CHECK(plan.work().flop > 0);
  CHECK(plan.work().weight_bytes > 0);
  std::vector<double> step_ms;
  const Tensor got = plan.run({x}, &step_ms)[0], want = model.run({x})[0];
  CHECK(step_ms.size() == steps.size());
  REQUIRE(got.bytes() == want.bytes());
  CHECK(std::memcmp(got.raw(), want.raw(), got.bytes()) == 0);
}

TEST_CASE("ModelSketch builds a model as loading one would; plan_apart plans it on the backend asked for") {
  ModelSketch s(18);
  s.input("x", {1, 2, 3, 4}).ints("axes", {2, 3}).node("ReduceMean", {"x", "axes"}, {"y"}, "mean").output("y");
  const Model model = s.build();
  REQUIRE(model.inputs().size() == 1);
  CHECK(model.inputs()[0].name == "x");
  CHECK(model.outputs()[0].shape == Shape{1, 2, 1, 1});
  Tensor x(DType::f32, {1, 2, 3, 4});
  for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = float(i);
  for (Backend backend : {Backend::ref, Backend::dnnl}) {
    CAPTURE(backend_name(backend));
    const PlanView plan = plan_apart(model, {x}, backend, {"global-average-pool"});
    CHECK(plan.backend() == backend);
    CHECK(plan.steps().at(0).op_type == "ReduceMean");
    const Tensor y = plan.run({x})[0];
    CHECK(y.data<float>()[0] == doctest::Approx(5.5));
    CHECK(y.data<float>()[1] == doctest::Approx(17.5));
  }
  // A node the op refuses is a cnnx::Error naming it, as at load.
  ModelSketch bad(13);
  bad.input("x", {1, 2, 3, 4}).node("AveragePool", {"x"}, {"y"}, "pool").output("y");  // no kernel_shape
  CHECK_THROWS_WITH_AS(bad.build(), doctest::Contains("pool"), Error);
}
