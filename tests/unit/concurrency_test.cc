// One loaded model, many threads: every run gives the bits a single-threaded run gives.
#include <doctest/doctest.h>

#include <sys/resource.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "api/cnnx.h"
#include "runtime/model_access.h"

TEST_CASE("8 threads x 50 runs on one model match a single-threaded run bit for bit") {
  cnnx::Model model = cnnx::Model::load(CNNX_SOURCE_DIR "/models/shapes/shapes.onnx");
  cnnx::Shape shape = model.inputs()[0].shape;
  for (int64_t& d : shape) d = d < 0 ? 2 : d;
  cnnx::Tensor x(cnnx::DType::f32, shape);
  for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = float((i * 7919) % 255) / 255.f - 0.5f;
  const cnnx::Tensor want = model.run({x})[0];

  constexpr int kThreads = 8, kRuns = 50;
  std::vector<int> mismatched_runs(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRuns; ++r) {
        cnnx::Tensor y = model.run({x})[0];
        bool same = y.shape() == want.shape() && std::memcmp(y.raw(), want.raw(), want.bytes()) == 0;
        mismatched_runs[size_t(t)] += same ? 0 : 1;
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    CAPTURE(t);
    CHECK(mismatched_runs[size_t(t)] == 0);
  }
}

// A run reuses the state an earlier run left in its arena (tensors, oneDNN memory objects over them,
// runtime/plan.cc): inputs in new buffers must be read, and outputs handed out must not be written again.
TEST_CASE("runs on new input buffers give what a fresh model gives, and leave earlier outputs alone") {
  auto load = [] { return cnnx::Model::load(CNNX_SOURCE_DIR "/models/shapes/shapes.onnx"); };
  cnnx::Model model = load();
  cnnx::Shape shape = model.inputs()[0].shape;
  for (int64_t& d : shape) d = d < 0 ? 2 : d;
  auto input = [&](int seed) {
    cnnx::Tensor x(cnnx::DType::f32, shape);
    for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = float((i * 7919 + seed * 104729) % 255) / 255.f - 0.5f;
    return x;
  };
  std::vector<cnnx::Tensor> inputs, outputs;
  for (int seed = 0; seed < 4; ++seed) {
    inputs.push_back(input(seed));  // each in a buffer of its own, all alive: no address comes back
    outputs.push_back(model.run({inputs.back()})[0]);
  }
  outputs.push_back(model.run({inputs[1]})[0]);  // an earlier input again
  for (size_t r = 0; r < outputs.size(); ++r) {
    const cnnx::Tensor& x = inputs[r < 4 ? r : 1];
    const cnnx::Tensor want = load().run({x})[0];
    CAPTURE(r);
    REQUIRE(outputs[r].shape() == want.shape());
    CHECK(std::memcmp(outputs[r].raw(), want.raw(), want.bytes()) == 0);
  }
  CHECK(std::memcmp(outputs[0].raw(), outputs[1].raw(), outputs[0].bytes()) != 0);  // the inputs were read
}

// CPU time of this process, all threads.
static double process_cpu_ms() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return (double(u.ru_utime.tv_sec) + double(u.ru_stime.tv_sec)) * 1e3 + (double(u.ru_utime.tv_usec) + double(u.ru_stime.tv_usec)) / 1e3;
}

TEST_CASE("Options::threads = 1 holds for plans made outside a run too (oneDNN fixes threads at creation)") {
  cnnx::Options options;
  options.threads = 1;
  cnnx::Model model = cnnx::Model::load(CNNX_SOURCE_DIR "/models/shapes/shapes.onnx", options);
  cnnx::Shape shape = model.inputs()[0].shape;
  for (int64_t& d : shape) d = d < 0 ? 32 : d;  // a batch of 32: steps large enough to split across threads
  cnnx::Tensor x(cnnx::DType::f32, shape);
  cnnx::ModelAccess::plan(model, {x});  // as `cnnx bench` and `inspect` do (plan_of), outside any run
  model.run({x});
  const double cpu0 = process_cpu_ms();
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 50; ++i) model.run({x});
  const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const double cpu = process_cpu_ms() - cpu0;
  CAPTURE(wall);
  CAPTURE(cpu);
  // One thread cannot use more CPU time than wall time (a few ms of slack for the clocks' granularity).
  CHECK(cpu <= 1.2 * wall + 5);
}
