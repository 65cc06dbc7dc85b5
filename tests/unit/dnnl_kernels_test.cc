// What the case table (kernel_cases_test.cc, every kernel against its reference) cannot express about the
// oneDNN kernels: one compiled kernel run from many threads at once, shapes the op itself rejects reaching a
// kernel, and data-dependent differences from ONNX, pinned to notice if they change.
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

TEST_CASE("dnnl Softmax differs from ONNX on a row holding +inf (pinned)") {
  const float inf = std::numeric_limits<float>::infinity();
  // A row holding +inf is all NaN in ONNX (the sum is NaN); oneDNN 2.6 gives NaN only where the inf was and 0
  // elsewhere: [0, inf, 1, 2] -> [0, NaN, 0, 0]. A kernel cannot decline by data, so this is a documented
  // difference, pinned here to notice if it changes.
  const Tensor with_inf = run_op("Softmax", {}, {make_tensor({1, 4}, {0.f, inf, 1.f, 2.f})}, 13, 1, "dnnl")[0];
  CHECK(std::isnan(with_inf.data<float>()[1]));
  CHECK(with_inf.data<float>()[0] == 0.f);
}


TEST_CASE("dnnl Relu, Clip and HardSigmoid turn a NaN input into a number where ONNX keeps NaN (pinned)") {
  // oneDNN's relu and clip compute with compare-and-select or max/min: NaN becomes relu's 0 or clip's lower
  // bound (HardSigmoid ends with a clip to [0, 1]). The reference kernels keep NaN, as ONNX does. A kernel
  // cannot decline by data, so this is a documented difference (ops/eltwise/unary_dnnl.cc): the case table
  // leaves NaN out of these ops' inputs, and this pins what oneDNN gives.
  const Tensor x = make_tensor({2}, {std::numeric_limits<float>::quiet_NaN(), 0.5f});
  Attributes bounds;
  bounds.set("min", float_attr(-1.f));
  bounds.set("max", float_attr(2.5f));
  struct Case {
    const char* op;
    Attributes attrs;
    int opset;
    float dnnl_gives;
  };
  const Case cases[] = {{"Relu", {}, 14, 0.f}, {"Clip", bounds, 6, -1.f}, {"HardSigmoid", {}, 6, 0.f}};
  for (const Case& c : cases) {
    const std::string op = c.op;
    CAPTURE(op);
    CHECK(std::isnan(run_op(c.op, c.attrs, {x}, c.opset, 1, "ref")[0].data<float>()[0]));
    const Tensor got = run_op(c.op, c.attrs, {x}, c.opset, 1, "dnnl")[0];
    CHECK(got.data<float>()[0] == c.dnnl_gives);
  }
}

TEST_CASE("dnnl Max and Min give a number for a NaN operand where ONNX gives NaN (pinned)") {
  // oneDNN's binary max and min (maxps/minps) give src1 when src0 is NaN (NaN when src1 is), where numpy's
  // maximum and minimum, and the reference kernels, give NaN either way. A kernel cannot decline by data, so
  // this is a documented difference (ops/eltwise/binary.h): the case table leaves NaN out of the dnnl cases,
  // and this pins it.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor a = make_tensor({2}, {nan, 1.f}), b = make_tensor({2}, {2.f, nan});
  for (const char* op : {"Max", "Min"}) {
    CAPTURE(op);
    const Tensor want = run_op(op, {}, {a, b}, 13, 1, "ref")[0];
    CHECK(std::isnan(want.data<float>()[0]));
    CHECK(std::isnan(want.data<float>()[1]));
    const Tensor got = run_op(op, {}, {a, b}, 13, 1, "dnnl")[0];
    CHECK(got.data<float>()[0] == 2.f);  // NaN in src0: src1
    CHECK(std::isnan(got.data<float>()[1]));  // NaN in src1: NaN
  }
}
