// Kernel cases of the detect family (ops/detect): NonMaxSuppression, with every input's data known (its output's
// length is that data's). tests/unit/kernel_cases.h says how a table runs; the selections themselves are
// checked against ONNX's node tests and by hand below.
#include <doctest/doctest.h>

#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

CaseInput floats3(Shape shape, std::vector<float> v) { return given(make_tensor(std::move(shape), std::move(v))).constant(); }

std::vector<KernelCase> detect_cases() {
  // Three boxes: 0 and 1 overlap (IoU 0.81), 2 apart.
  const std::vector<float> corners = {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 10, 1, 11};
  const std::vector<float> centers = {0.5f, 0.5f, 1, 1, 0.5f, 0.6f, 1, 1, 0.5f, 10.5f, 1, 1};
  std::vector<KernelCase> cases;
  cases.push_back(KernelCase("NonMaxSuppression", 11, "corners, IoU 0.5").in(floats3({1, 3, 4}, corners))
                      .in(floats3({1, 1, 3}, {0.9f, 0.95f, 0.3f})).in(given(make_int_tensor({1}, {3})).constant())
                      .in(floats3({1}, {0.5f})));
  cases.push_back(KernelCase("NonMaxSuppression", 11, "centers, score threshold, 2 classes")
                      .attr("center_point_box", int_attr(1)).in(floats3({1, 3, 4}, centers))
                      .in(floats3({1, 2, 3}, {0.9f, 0.95f, 0.3f, 0.1f, 0.2f, 0.8f}))
                      .in(given(make_int_tensor({1}, {2})).constant()).in(floats3({1}, {0.5f})).in(floats3({1}, {0.25f})));
  cases.push_back(KernelCase("NonMaxSuppression", 10, "defaults: no boxes").in(floats3({1, 3, 4}, corners))
                      .in(floats3({1, 1, 3}, {0.9f, 0.95f, 0.3f})));
  return cases;
}

}  // namespace

KERNEL_CASES("NonMaxSuppression", detect_cases)

TEST_CASE("NonMaxSuppression keeps boxes by score, suppressing overlaps past the threshold") {
  const std::vector<Tensor> in = {make_tensor({1, 3, 4}, {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 10, 1, 11}),
                                  make_tensor({1, 1, 3}, {0.9f, 0.95f, 0.3f}), make_int_tensor({1}, {3}),
                                  make_tensor({1}, {0.5f})};
  const Tensor y = run_op("NonMaxSuppression", {}, in, 11, 1, "ref", {true, true, true, true})[0];
  REQUIRE(y.shape() == Shape{2, 3});
  const int64_t want[] = {0, 0, 1, 0, 0, 2};  // box 1 (0.95), then box 2; box 0 overlaps box 1 by IoU 0.81
  for (int i = 0; i < 6; ++i) CHECK(y.data<int64_t>()[i] == want[i]);
  CHECK_THROWS_WITH_AS(run_op("NonMaxSuppression", {}, {make_tensor({3, 4}), make_tensor({1, 1, 3})}, 11, 1, "ref",
                              {true, true}),
                       doctest::Contains("boxes must be [batches, boxes, 4]"), Error);
  CHECK_THROWS_WITH_AS(run_op("NonMaxSuppression", {}, {in[0], in[1], make_int_tensor({1}, {-1})}, 11, 1, "ref",
                              {true, true, true}),
                       doctest::Contains("must be >= 0"), Error);
}
