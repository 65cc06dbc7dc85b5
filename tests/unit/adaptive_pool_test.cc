// Unit tests of org.pytorch.aten adaptive_avg_pool{1,2,3}d (ops/pool/adaptive_pool.h): both kernels on small
// cases, bad nodes and inputs. kernel_cases_pool_test.cc runs the fast kernel against the reference on larger
// planes; tests/pool/adaptive_vs_torch.py compares real exports with PyTorch's output.
//
// Expected values: inputs are 1, 2, 3, ... row-major; window i of an axis covers [floor(i*I/O), ceil((i+1)*I/O)),
// so e.g. I = 5, O = 3 gives windows [0,2) [1,4) [3,5): means 1.5, 3, 4.5. Every table was also printed by
// torch.nn.functional.adaptive_avg_pool{1,2,3}d on the same input.
#include <doctest/doctest.h>

#include "ops/builtin_ops.h"
#include "ops/pool/adaptive_pool.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

Tensor counting(Shape shape) {
  Tensor t = make_tensor(shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] += 1.f;
  return t;
}

std::vector<float> floats_of(const Tensor& t) { return std::vector<float>(t.data<float>(), t.data<float>() + t.numel()); }

std::vector<Tensor> run_adaptive(int k, const Tensor& x, std::vector<int64_t> size, const std::string& kernel,
                                 Attributes attrs = {}) {
  const Tensor s = make_int_tensor({int64_t(size.size())}, size);
  return run_op("adaptive_avg_pool" + std::to_string(k) + "d", attrs, {x, s}, 1, 1, kernel, {false, true}, kAtenDomain);
}

}  // namespace

TEST_CASE("adaptive average pooling follows ATen's windows, both kernels") {
  struct Case {
    int k;
    Shape x;
    std::vector<int64_t> size;
    Shape y;
    std::vector<float> want;
  };
  const std::vector<Case> cases = {
      {1, {1, 1, 5}, {3}, {1, 1, 3}, {1.5f, 3.f, 4.5f}},
      {1, {1, 1, 5}, {7}, {1, 1, 7}, {1.f, 1.5f, 2.5f, 3.f, 3.5f, 4.5f, 5.f}},  // more outputs than inputs
      {2, {1, 1, 3, 4}, {2, 3}, {1, 1, 2, 3}, {3.5f, 4.5f, 5.5f, 7.5f, 8.5f, 9.5f}},
      {2, {1, 3, 4}, {2, 3}, {1, 2, 3}, {3.5f, 4.5f, 5.5f, 7.5f, 8.5f, 9.5f}},  // unbatched [C, H, W]
      {3, {1, 1, 2, 2, 2}, {1, 1, 1}, {1, 1, 1, 1, 1}, {4.5f}},
      {2, {1, 1, 3, 4}, {0, 3}, {1, 1, 0, 3}, {}},  // PyTorch allows empty outputs
  };
  for (const Case& c : cases) {
    for (const char* kernel : {"adaptive", "ref"}) {
      CAPTURE(c.k);
      CAPTURE(to_string(c.x));
      CAPTURE(str(c.size));
      CAPTURE(std::string(kernel));
      const Tensor y = run_adaptive(c.k, counting(c.x), c.size, kernel)[0];
      CHECK(y.shape() == c.y);
      CHECK(floats_of(y) == c.want);  // means of small integers: exact in float32
    }
  }
}

TEST_CASE("bad adaptive pooling nodes and inputs are errors naming what is wrong") {
  struct Case {
    const char* what;
    int k;
    Shape x;
    std::vector<int64_t> size;
    const char* want;
  };
  const std::vector<Case> cases = {
      {"rank too small", 2, {4, 4}, {2, 2}, "takes [N, C, 2 spatial dims]"},
      {"rank too large", 1, {1, 1, 4, 4}, {2}, "takes [N, C, 1 spatial dims]"},
      {"output_size of the wrong length", 2, {1, 1, 4, 4}, {2}, "input 1 (output_size) must be 1-D with 2 values"},
      {"negative output size", 2, {1, 1, 4, 4}, {2, -1}, "has value -1 at index 1"},
      {"empty spatial dim", 2, {1, 1, 0, 4}, {2, 2}, "empty spatial dim"},
      {"input size x output size overflows", 1, {1, 1, int64_t(1) << 30}, {int64_t(1) << 30}, "overflows"},
  };
  for (const Case& c : cases) {
    CAPTURE(std::string(c.what));
    std::string error;
    try {
      // Shapes only: infer runs before any data is touched (the overflow case has no data).
      const OpDef& def = builtin_ops().find(kAtenDomain, "adaptive_avg_pool" + std::to_string(c.k) + "d", 1);
      Node n = make_node("adaptive_avg_pool" + std::to_string(c.k) + "d", {}, 2, 1, 1, kAtenDomain);
      const std::vector<ValueInfo> in{ValueInfo::of(DType::f32, c.x),
                                      ValueInfo::of(make_int_tensor({int64_t(c.size.size())}, c.size))};
      with_node_context(n, [&] { return def.infer(*n.params, in); });
    } catch (const Error& e) {
      error = e.what();
    }
    CAPTURE(error);
    CHECK(error.find(c.want) != std::string::npos);
  }
  Attributes extra;
  extra.set("output_size", ints({2, 2}));
  CHECK_THROWS_AS(run_adaptive(2, counting({1, 1, 4, 4}), {2, 2}, "ref", extra), Error);
  // output_size computed at run time: unknown dims at load, and no kernel without them.
  const OpDef& def = builtin_ops().find(kAtenDomain, "adaptive_avg_pool2d", 1);
  Node n = make_node("adaptive_avg_pool2d", {}, 2, 1, 1, kAtenDomain);
  const auto out = def.infer(*n.params, {ValueInfo::of(DType::f32, {1, 1, 4, 4}), ValueInfo::of(DType::i64, {2})});
  CHECK(out[0].shape == Shape{1, 1, kUnknownDim, kUnknownDim});
}
