// What the case table (kernel_cases_<family>_test.cc, every kernel against its reference) cannot express about the
// oneDNN kernels: one compiled kernel run from many threads at once, and shapes the op itself rejects reaching a
// kernel. Special values (NaN, infinities, signed zeros) are the case table's: every kernel gives ONNX's result.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <thread>

#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

TEST_CASE("dnnl Conv runs one compiled kernel from many threads at once") {
  Attributes a;
  a.set("pads", ints({1, 1, 1, 1}));
  const std::vector<Tensor> in{random_tensor({1, 16, 12, 12}, 7), random_tensor({32, 16, 3, 3}, 8)};
  const std::vector<bool> constant{false, true};
  Node n = make_node("Conv", a, 2, 1, 11);
  const std::vector<ValueInfo> infos{ValueInfo::of(in[0].dtype(), in[0].shape()), ValueInfo::of(in[1])};
  const std::vector<ValueInfo> out = n.def->infer(*n.params, infos);
  REQUIRE(n.def->kernels.front().name == "dnnl");
  const std::unique_ptr<CompiledKernel> kernel = compile_named(n, "dnnl", infos, out, {{Layout(), Layout()}, {}});
  const Tensor want = run_op("Conv", a, in, 11, 1, "ref", constant)[0];
  std::vector<Tensor> got(4);
  std::vector<std::thread> threads;
  for (Tensor& y : got)
    threads.emplace_back([&] {
      for (int rep = 0; rep < 5; ++rep) {
        std::vector<Tensor> results{Tensor(DType::f32, out[0].shape)};
        run_compiled(*kernel, in, results);
        y = results[0];
      }
    });
  for (std::thread& t : threads) t.join();
  for (size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(within_tolerance("Conv", 11, got[i], want, "", magnitudes_of("Conv", a, in, 11)) == "");
  }
}

TEST_CASE("dnnl Conv declines an empty spatial dim, which infer rejects before any kernel sees it") {
  Attributes a;
  CHECK(dnnl_declines("Conv", a, {random_tensor({1, 2, 0, 4}, 1), random_tensor({3, 2, 1, 1}, 2)}) != "");
  CHECK(dnnl_declines("Conv", a, {random_tensor({1, 2, 5, 4}, 1), random_tensor({3, 2, 1, 1}, 2)}) == "");
}
