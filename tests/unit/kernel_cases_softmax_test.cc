// Kernel cases of the softmax family (ops/softmax): Softmax, LogSoftmax, Hardmax. Each case runs every kernel of its
// op against the op's reference kernel; tests/unit/kernel_cases.h says how, and how a table is registered.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

// Rows (axis 1) of special values: [-inf, x, -inf, x] (the infinities weigh 0), all -inf (NaN, as
// Exp/ReduceSum/Div give), large values (no overflow after subtracting the max), one holding +inf and one
// holding NaN (all NaN: ONNX's sum is NaN). Along axis 0, columns mix them.
Tensor softmax_specials() {
  return make_tensor({5, 4}, {-kInf, 1.f, -kInf, 2.f, -kInf, -kInf, -kInf, -kInf, 1e30f, 1e30f, 3e30f, -1e30f,
                              0.f, kInf, 1.f, 2.f, 3.f, -1.f, kNaN, -kInf});
}

// The input shapes, axes and opsets Softmax, LogSoftmax and Hardmax are tried with (opsets 1-12 coerce to 2-D
// at axis, 13+ one axis).
struct AxisSetting {
  Shape x;
  int64_t axis;
  int opset;
};
const AxisSetting axis_settings[] = {
    {{2, 3, 4}, 0, 13}, {{2, 3, 4}, 1, 13},    {{2, 3, 4}, 2, 13},  {{2, 3, 4}, -1, 13},
    {{5}, 0, 13},       {{2, 3, 4, 5}, 1, 13}, {{2, 1000}, 1, 13},  {{2, 3, 4}, 0, 11},
    {{2, 3, 4}, 1, 11}, {{2, 3, 4}, 2, 11},    {{2, 3, 4, 5}, -2, 1}, {{3, 10}, 1, 1},
};

std::vector<KernelCase> softmax_cases() {
  std::vector<KernelCase> cases;
  for (const AxisSetting& s : axis_settings)
    cases.push_back(KernelCase("Softmax", s.opset, "X " + to_string(s.x))
                        .attr("axis", int_attr(s.axis)).in(random_in(s.x, -10.f, 10.f)));
  cases.push_back(KernelCase("Softmax", 13, "default axis").in(random_in({4, 7}, -10.f, 10.f)));
  // Rows [-inf, x, -inf, x] (the infinities weigh 0), all -inf (NaN, as Exp/ReduceSum/Div give), large values
  // (no overflow after subtracting the max), a row holding +inf and one holding NaN (all NaN).
  for (int64_t axis : {1, 0})
    cases.push_back(KernelCase("Softmax", 13, "infinities, NaN and large values, axis " + std::to_string(axis))
                        .attr("axis", int_attr(axis)).in(given(softmax_specials())));
  return cases;
}

// LogSoftmax and Hardmax: Softmax's settings (opsets 1-12 coerce to 2-D at axis, 13+ one axis).
std::vector<KernelCase> log_softmax_hardmax_cases() {
  std::vector<KernelCase> cases;
  for (const char* op : {"LogSoftmax", "Hardmax"}) {
    for (const AxisSetting& s : axis_settings)
      cases.push_back(KernelCase(op, s.opset, "X " + to_string(s.x) + " axis " + std::to_string(s.axis))
                          .attr("axis", int_attr(s.axis)).in(random_in(s.x, -10.f, 10.f)));
    cases.push_back(KernelCase(op, 13, "default axis").in(random_in({4, 7}, -10.f, 10.f)));
    cases.push_back(KernelCase(op, 11, "default axis (1, coerced to 2-D)").in(random_in({2, 3, 4}, -10.f, 10.f)));
  }
  for (int64_t axis : {1, 0})
    cases.push_back(KernelCase("LogSoftmax", 13, "infinities, NaN and large values, axis " + std::to_string(axis))
                        .attr("axis", int_attr(axis)).in(given(softmax_specials())));
  // Ties take the first maximum; a NaN is taken as the maximum (numpy argmax).
  cases.push_back(KernelCase("Hardmax", 13, "ties, infinities, NaN")
                      .in(given(make_tensor({4, 3}, {1.f, 3.f, 3.f, -kInf, -kInf, -kInf, 2.f, std::nanf(""), kInf,
                                                     kInf, 1.f, kInf}))));
  return cases;
}

}  // namespace

KERNEL_CASES("Softmax", softmax_cases)
KERNEL_CASES("LogSoftmax, Hardmax", log_softmax_hardmax_cases)
