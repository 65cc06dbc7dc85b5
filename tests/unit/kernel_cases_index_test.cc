// Kernel cases of the index family (ops/index): Gather, GatherElements, GatherND, ScatterND, ScatterElements, Scatter,
// NonZero, Compress, Unique, Trilu, ReverseSequence, OneHot (ops/families.h). Each case runs every kernel of its op
// against the op's reference kernel; tests/unit/kernel_cases.h says how, and how a table is registered.
#include <doctest/doctest.h>

#include <limits>

#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

// ---- Gather (dnnl: one reorder from the sub-memory at one constant index) ----

std::vector<KernelCase> gather_cases() {
  std::vector<KernelCase> cases;
  cases.push_back(KernelCase("Gather", 13, "constant indices").attr("axis", int_attr(1)).in(random_in({3, 4, 5}))
                      .in(given(make_int_tensor({3}, {2, -1, 0})).constant()).declines("dnnl", "3 indices"));
  cases.push_back(KernelCase("Gather", 13, "runtime 2-D indices").in(random_in({5, 2}))
                      .in(given(make_int_tensor({2, 2}, {4, 0, -2, 1}))).declines("dnnl", "known only at run time"));
  cases.push_back(KernelCase("Gather", 13, "scalar index, axis 0 (Swin's q/k/v)").in(random_in({3, 4, 2, 7, 8}))
                      .in(given(make_int_tensor({}, {1})).constant()));
  cases.push_back(KernelCase("Gather", 13, "one index, negative, last axis").attr("axis", int_attr(-1))
                      .in(random_in({3, 4, 5})).in(given(make_int_tensor({1}, {-2})).constant()));
  cases.push_back(KernelCase("Gather", 13, "one 2-D index, axis 1").attr("axis", int_attr(1))
                      .in(random_in({3, 4, 5})).in(given(make_int_tensor({1, 1}, {3})).constant()));
  cases.push_back(KernelCase("Gather", 13, "image 1 of nChw16c").in(random_in({2, 32, 3, 3}).blocked())
                      .in(given(make_int_tensor({}, {1})).constant()).runs("dnnl", Takes::offered));
  cases.push_back(KernelCase("Gather", 13, "channel 20 of nChw16c (inside a block)").attr("axis", int_attr(1))
                      .in(random_in({1, 32, 3, 3}).blocked()).in(given(make_int_tensor({1}, {20})).constant())
                      .runs("dnnl", Takes::plain));
  cases.push_back(KernelCase("Gather", 13, "scalar output").in(random_in({5}))
                      .in(given(make_int_tensor({}, {4})).constant()).declines("dnnl", "the output is a scalar"));
  cases.push_back(KernelCase("Gather", 13, "empty output").in(random_in({4, 0}))
                      .in(given(make_int_tensor({}, {2})).constant()).declines("dnnl", "is empty"));
  cases.push_back(KernelCase("Gather", 1, "opset 1").in(random_in({4, 2})).in(given(make_int_tensor({2}, {3, 0})))
                      .declines("dnnl", "known only at run time"));
  cases.push_back(KernelCase("Gather", 1, "opset 1, one constant index").in(random_in({4, 2}))
                      .in(given(make_int_tensor({1}, {3})).constant()));
  return cases;
}

// ---- ops that select or place elements by index or by data: reference kernels only ----

std::vector<KernelCase> select_cases() {
  std::vector<KernelCase> cases;
  const Tensor ints6 = make_int_tensor({2, 3}, {1, -2, 3, -4, 5, -6});
  auto int_scalar = [](int64_t v) { return given(make_int_tensor({}, {v})).constant(); };
  auto bools = [](std::vector<bool> v) {
    Tensor t(DType::boolean, {int64_t(v.size())});
    for (size_t i = 0; i < v.size(); ++i) t.data<bool>()[i] = v[i];
    return given(t).constant();
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  cases.push_back(KernelCase("NonZero", 13, "zeros, -0, NaN").in(
      given(make_tensor({2, 3}, {0.f, -0.f, nan, 1.f, 0.f, -2.f})).constant()));
  cases.push_back(KernelCase("NonZero", 13, "int64, rank 3").in(given(make_int_tensor({1, 2, 3}, {0, 5, 0, 0, 0, 7})).constant()));
  cases.push_back(KernelCase("NonZero", 13, "none").in(given(make_int_tensor({3}, {0, 0, 0})).constant()));
  cases.push_back(KernelCase("Compress", 11, "axis 1, shorter condition").attr("axis", int_attr(1))
                      .in(random_in({2, 4, 3})).in(bools({true, false, true})));
  cases.push_back(KernelCase("Compress", 11, "axis -1").attr("axis", int_attr(-1))
                      .in(random_in({2, 3})).in(bools({false, true, true})));
  cases.push_back(KernelCase("Compress", 9, "flattened").in(random_in({2, 3})).in(bools({true, false, false, true})));
  cases.push_back(KernelCase("Unique", 11, "sorted, NaN and -0").in(
      given(make_tensor({7}, {2.f, nan, -0.f, 2.f, 0.f, nan, -1.f})).constant()));
  cases.push_back(KernelCase("Unique", 11, "first occurrence, axis 1").attr("sorted", int_attr(0)).attr("axis", int_attr(1))
                      .in(given(make_int_tensor({2, 4}, {1, 0, 1, 0, 2, 3, 2, 3})).constant()));
  cases.push_back(KernelCase("Compress", 9, "none kept").in(random_in({2, 3})).in(bools({false, false})));
  cases.push_back(KernelCase("GatherElements", 13, "axis 1, negative indices").attr("axis", int_attr(1))
                      .in(random_in({3, 4})).in(given(make_int_tensor({3, 2}, {0, -1, 3, 2, 1, 1}))));
  cases.push_back(KernelCase("GatherElements", 11, "axis 0, int64 data").in(given(ints6))
                      .in(given(make_int_tensor({1, 3}, {1, 0, 1}))));
  cases.push_back(KernelCase("GatherND", 13, "tuples of 2").in(random_in({2, 3, 4}))
                      .in(given(make_int_tensor({2, 2}, {0, 1, 1, -1}))));
  cases.push_back(KernelCase("GatherND", 12, "batch_dims 1").attr("batch_dims", int_attr(1)).in(random_in({2, 3, 4}))
                      .in(given(make_int_tensor({2, 1}, {2, 0}))));
  cases.push_back(KernelCase("ScatterND", 11, "slices").in(random_in({4, 3}))
                      .in(given(make_int_tensor({2, 1}, {3, 0}))).in(random_in({2, 3})));
  for (const char* r : {"add", "mul", "max", "min"})
    cases.push_back(KernelCase("ScatterND", 18, r).attr("reduction", string_attr(r)).in(random_in({4, 3}))
                        .in(given(make_int_tensor({3, 2}, {1, 1, 1, 1, -1, 0}))).in(random_in({3})));
  cases.push_back(KernelCase("ScatterElements", 11, "axis 1, negative indices").attr("axis", int_attr(1))
                      .in(random_in({3, 4})).in(given(make_int_tensor({3, 2}, {0, -1, 3, 2, 1, 1})))
                      .in(random_in({3, 2})));
  for (const char* r : {"add", "mul", "max", "min"})
    cases.push_back(KernelCase("ScatterElements", 18, r).attr("reduction", string_attr(r)).in(random_in({4, 3}))
                        .in(given(make_int_tensor({2, 3}, {1, 1, 3, 1, 0, 3}))).in(random_in({2, 3})));
  cases.push_back(KernelCase("Scatter", 9, "opset 9, int64 data").in(given(ints6))
                      .in(given(make_int_tensor({1, 3}, {1, 0, 1}))).in(given(make_int_tensor({1, 3}, {7, 8, 9}))));
  cases.push_back(KernelCase("Trilu", 14, "upper").in(random_in({2, 3, 4})));
  cases.push_back(KernelCase("Trilu", 14, "lower, k -1").attr("upper", int_attr(0)).in(random_in({4, 3}))
                      .in(int_scalar(-1)));
  cases.push_back(KernelCase("Trilu", 14, "int64, k beyond").in(given(ints6)).in(int_scalar(5)));
  return cases;
}

// ---- ReverseSequence and OneHot: reference only ----

std::vector<KernelCase> reverse_one_hot_cases() {
  std::vector<KernelCase> cases;
  const auto lens = [](std::vector<int64_t> v) { return ints_in(std::move(v)); };
  cases.push_back(KernelCase("ReverseSequence", 10, "time axis 0").in(random_in({4, 3, 2})).in(lens({4, 0, 2})));
  cases.push_back(KernelCase("ReverseSequence", 10, "batch axis 0, int64").attr("batch_axis", int_attr(0))
                      .attr("time_axis", int_attr(1)).in(given(make_int_tensor({2, 3}, {1, 2, 3, 4, 5, 6})))
                      .in(lens({3, 1})));
  const auto depth = [](int64_t v) { return given(make_int_tensor({}, {v})).constant(); };
  cases.push_back(KernelCase("OneHot", 11, "axis -1, negative and outside indices")
                      .in(given(make_int_tensor({2, 3}, {0, -1, 5, 2, -4, 1}))).in(depth(4)).in(floats_in({-1.f, 3.f})));
  cases.push_back(KernelCase("OneHot", 11, "axis 0, float indices").attr("axis", int_attr(0))
                      .in(given(make_tensor({3}, {0.f, 2.9f, -0.5f}))).in(depth(3)).in(floats_in({0.f, 1.f})));
  cases.push_back(KernelCase("OneHot", 9, "opset 9: a negative index is outside")
                      .in(given(make_int_tensor({2}, {-1, 1}))).in(depth(2)).in(floats_in({0.f, 1.f})));
  return cases;
}

}  // namespace

KERNEL_CASES("Gather", gather_cases)
KERNEL_CASES("selected and placed by index", select_cases)
KERNEL_CASES("ReverseSequence, OneHot", reverse_one_hot_cases)
