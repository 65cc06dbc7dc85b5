// Weights shared between the plans of one model (dnnl/prepared_weights.h): the one-thread twin and plans at
// other shapes take the wide plan's prepared weights where oneDNN wants the same layout, their runs give the
// bits plans of their own give, shared memory outlives the plan that made it, and many threads may plan on
// one store at once. shapes.onnx folds BatchNormalization into its convolutions, so every plan computes its
// weights anew: sharing goes by their bytes, not by where they are.
#include <doctest/doctest.h>

#include <cstring>
#include <thread>

#include "dnnl/prepared_weights.h"
#include "api/cnnx.h"
#include "runtime/onnx_import.h"
#include "runtime/plan.h"

namespace {

std::shared_ptr<const cnnx::Graph> shapes_graph() {
  return std::make_shared<const cnnx::Graph>(cnnx::import_onnx_file(CNNX_SOURCE_DIR "/models/shapes/shapes.onnx"));
}

cnnx::Tensor image(int64_t batch) {
  cnnx::Tensor x(cnnx::DType::f32, {batch, 3, 64, 64});
  for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = float((i * 7919) % 255) / 255.f - 0.5f;
  return x;
}

// A plan for `batch` built (and so run) with `threads` threads, sharing through `store` when given, as Model
// does for its teams.
std::shared_ptr<const cnnx::Plan> build(const std::shared_ptr<const cnnx::Graph>& graph, int64_t batch, int threads,
                                        cnnx::PreparedWeights* store = nullptr) {
  return cnnx::Plan::build(graph, {cnnx::ValueInfo::of(cnnx::DType::f32, {batch, 3, 64, 64})}, cnnx::Backend::dnnl,
                           {}, {}, {}, {threads, store});
}

cnnx::Tensor run(const cnnx::Plan& plan, int64_t batch, int threads) {
  REQUIRE(plan.threads() == threads);
  return plan.run({image(batch)})[0];
}

bool same_bits(const cnnx::Tensor& a, const cnnx::Tensor& b) {
  return a.shape() == b.shape() && std::memcmp(a.raw(), b.raw(), a.bytes()) == 0;
}

// What prepare_constant did since `before`.
cnnx::PreparedWeightCounts since(const cnnx::PreparedWeightCounts& before) {
  return cnnx::prepared_weight_counts() - before;
}

// The constant weights one plan of shapes.onnx asks for in its primitives' layouts: 4 convolutions and the
// Gemm. Each request is made, shared or kept (the primitive reads the constant as stored: which ones depends
// on the layouts oneDNN picks on this CPU, e.g. its AVX2 GEMM reads a Linear layer's weights as they are).
constexpr int64_t kRequestsPerPlan = 5;

}  // namespace

TEST_CASE("plans of one model share prepared weights: the one-thread twin, another batch; runs keep their bits") {
  const auto graph = shapes_graph();
  cnnx::PreparedWeightCounts before = cnnx::prepared_weight_counts();
  const auto own_wide = build(graph, 1, 2);
  const cnnx::PreparedWeightCounts one_plan = since(before);
  CAPTURE(one_plan.made);
  CAPTURE(one_plan.kept);
  CHECK(one_plan.made + one_plan.kept == kRequestsPerPlan);
  CHECK(one_plan.made >= 4);  // the convolutions' weights are blocked on every CPU oneDNN 2.6 knows
  const auto own_twin = build(graph, 1, 1), own_batch = build(graph, 4, 2);
  const cnnx::PreparedWeightCounts alone = since(before);
  CHECK(alone.made + alone.kept == 3 * kRequestsPerPlan);
  CHECK(alone.shared == 0);  // without a store nothing is shared

  cnnx::PreparedWeights store;
  before = cnnx::prepared_weight_counts();
  std::shared_ptr<const cnnx::Plan> wide, twin, batch;
  wide = build(graph, 1, 2, &store);
  twin = build(graph, 1, 1, &store);
  batch = build(graph, 4, 2, &store);
  const cnnx::PreparedWeightCounts together = since(before);
  CAPTURE(together.made);
  CAPTURE(together.shared);
  CAPTURE(together.kept);
  CHECK(together.made + together.shared + together.kept == 3 * kRequestsPerPlan);
  // oneDNN keeps each weights layout at 1 and 2 threads, batch 1 and 4: the first plan prepares, the others share.
  CHECK(together.made == one_plan.made);
  CHECK(together.kept == alone.kept);
  CHECK(together.shared_bytes == 2 * together.made_bytes);

  // The plan that prepared the weights goes first: the others keep the memory.
  const cnnx::Tensor want_wide = run(*own_wide, 1, 2);
  CHECK(same_bits(run(*wide, 1, 2), want_wide));
  wide.reset();
  CHECK(same_bits(run(*twin, 1, 1), run(*own_twin, 1, 1)));
  CHECK(same_bits(run(*batch, 4, 2), run(*own_batch, 4, 2)));
}

TEST_CASE("8 threads planning at once on one store: every plan prepares or shares each weight, runs keep their bits") {
  const auto graph = shapes_graph();
  constexpr int kThreads = 8;
  auto batch_of = [](int t) { return int64_t(1 + t % 2 * 3); };  // 1 or 4
  auto threads_of = [](int t) { return 1 + t / 2 % 2; };         // 1 or 2
  std::vector<cnnx::Tensor> want(kThreads);
  for (int t = 0; t < kThreads; ++t) want[size_t(t)] = run(*build(graph, batch_of(t), threads_of(t)), batch_of(t), threads_of(t));

  cnnx::PreparedWeights store;
  const cnnx::PreparedWeightCounts before = cnnx::prepared_weight_counts();
  std::vector<std::shared_ptr<const cnnx::Plan>> plans(kThreads);
  std::vector<cnnx::Tensor> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      plans[size_t(t)] = build(graph, batch_of(t), threads_of(t), &store);
      got[size_t(t)] = run(*plans[size_t(t)], batch_of(t), threads_of(t));
    });
  for (std::thread& th : threads) th.join();
  const cnnx::PreparedWeightCounts d = since(before);
  CAPTURE(d.made);
  CAPTURE(d.shared);
  CAPTURE(d.kept);
  CHECK(d.made + d.shared + d.kept == kThreads * kRequestsPerPlan);
  for (int t = 0; t < kThreads; ++t) {
    CAPTURE(t);
    CHECK(same_bits(got[size_t(t)], want[size_t(t)]));
  }
  // What the racing plans prepared is kept: one more plan prepares nothing.
  const cnnx::PreparedWeightCounts after_race = cnnx::prepared_weight_counts();
  build(graph, 1, 1, &store);
  CHECK(since(after_race).made == 0);
}

TEST_CASE("a model's plans share through its store: a second batch size prepares no weights anew") {
  cnnx::Options pinned;
  pinned.threads = 2;
  const cnnx::Model model = cnnx::Model::load(CNNX_SOURCE_DIR "/models/shapes/shapes.onnx", pinned);
  model.run({image(1)});
  const cnnx::PreparedWeightCounts before = cnnx::prepared_weight_counts();
  model.run({image(4)});
  const cnnx::PreparedWeightCounts d = since(before);
  CAPTURE(d.shared);
  CAPTURE(d.kept);
  CHECK(d.made == 0);
  CHECK(d.shared + d.kept == kRequestsPerPlan);
  CHECK(d.shared >= 4);
}
