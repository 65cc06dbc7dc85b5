// One loaded model, many threads: every run gives the bits a single-threaded run gives.
#include <doctest/doctest.h>

#include <cstring>
#include <thread>

#include "engine/cnnx.h"

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
