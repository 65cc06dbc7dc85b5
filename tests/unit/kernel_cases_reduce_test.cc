// Kernel cases of the reduce family (ops/reduce): ReduceMean ... ReduceLogSumExp, ArgMax, ArgMin, CumSum, TopK. Each
// case runs every kernel of its op against the op's reference kernel; tests/unit/kernel_cases.h says how, and how a
// table is registered.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

std::vector<KernelCase> reduce_mean_cases() {
  std::vector<KernelCase> cases;
  cases.push_back(KernelCase("ReduceMean", 13, "spatial axes").attr("axes", ints({2, 3})).in(random_in({2, 3, 5, 6})));
  cases.push_back(KernelCase("ReduceMean", 13, "axis 1, keepdims 0").attr("axes", ints({1}))
                      .attr("keepdims", int_attr(0)).in(random_in({2, 3, 4})));
  cases.push_back(KernelCase("ReduceMean", 13, "every axis").in(random_in({2, 3, 4}, 9.f, 11.f)));
  cases.push_back(KernelCase("ReduceMean", 1, "opset 1").attr("axes", ints({0, 2})).in(random_in({2, 3, 4})));
  cases.push_back(KernelCase("ReduceMean", 18, "axes input").in(random_in({2, 3, 4})).in(ints_in({-1})));
  cases.push_back(KernelCase("ReduceMean", 18, "flattened view").attr("keepdims", int_attr(0))
                      .in(random_in({2, 8, 49})).in(ints_in({2})));
  cases.push_back(KernelCase("ReduceMean", 18, "no axes: every axis").in(random_in({2, 3, 4})));
  cases.push_back(KernelCase("ReduceMean", 18, "noop_with_empty_axes").attr("noop_with_empty_axes", int_attr(1))
                      .in(random_in({2, 3, 4})).in(ints_in({})).declines("dnnl", "no axis is reduced"));
  return cases;
}

// The other Reduce* ops share ReduceMean's geometry: each kind over a few axes, the axes input form (opset 13
// for ReduceSum, 18 for the rest), noop_with_empty_axes, and the integer types where the kind takes them.
std::vector<KernelCase> reduce_cases() {
  std::vector<KernelCase> cases;
  const char* ops[] = {"ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
                       "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp"};
  for (const char* op : ops) {
    const std::string name = op;
    const int input_opset = name == "ReduceSum" ? 13 : 18;
    // Kinds with a oneDNN reduction (ops/reduce/reduce_dnnl.cc): it declines the cases it does not compute.
    const bool dnnl = name != "ReduceMax" && name != "ReduceMin" && name != "ReduceLogSum" && name != "ReduceLogSumExp";
    auto declining = [dnnl](KernelCase c, const char* why) { return dnnl ? std::move(c.declines("dnnl", why)) : c; };
    // LogSum needs positive sums; Prod stays O(1) with factors near 1.
    const float lo = name == "ReduceLogSum" || name == "ReduceProd" ? 0.5f : -1.f;
    const float hi = name == "ReduceProd" ? 1.5f : 1.f;
    cases.push_back(KernelCase(op, 11, "axes [1], keepdims 0").attr("axes", ints({1})).attr("keepdims", int_attr(0))
                        .in(random_in({2, 3, 4}, lo, hi)));
    cases.push_back(KernelCase(op, 1, "opset 1, axes [0, 2]").attr("axes", ints({0, 2})).in(random_in({2, 3, 4}, lo, hi)));
    cases.push_back(KernelCase(op, 11, "every axis").in(random_in({2, 3, 5, 6}, lo, hi)));
    cases.push_back(KernelCase(op, 11, "spatial axes, negative").attr("axes", ints({-1, -2}))
                        .in(random_in({2, 3, 5, 6}, lo, hi)));
    cases.push_back(KernelCase(op, input_opset, "axes input").in(random_in({2, 3, 4}, lo, hi)).in(ints_in({-1, 0})));
    cases.push_back(KernelCase(op, input_opset, "no axes: every axis").attr("keepdims", int_attr(0))
                        .in(random_in({2, 3, 4}, lo, hi)));
    cases.push_back(declining(KernelCase(op, input_opset, "noop_with_empty_axes").attr("noop_with_empty_axes", int_attr(1))
                                  .in(random_in({2, 3, 4}, lo, hi)).in(ints_in({})), "no axis is reduced"));
    Tensor f64(DType::f64, {3, 4});
    for (int64_t i = 0; i < f64.numel(); ++i) f64.data<double>()[i] = 1.0 + 0.25 * std::cos(double(i));
    cases.push_back(declining(KernelCase(op, 11, "float64").attr("axes", ints({1})).in(given(f64)), "not float32"));
  }
  for (const char* op : {"ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceSumSquare"}) {
    KernelCase c = KernelCase(op, 11, "int64").attr("axes", ints({0})).in(given(make_int_tensor({2, 3}, {-3, 5, 7, 2, -4, 9})));
    if (std::string(op) != "ReduceMax" && std::string(op) != "ReduceMin") c.declines("dnnl", "not float32");
    cases.push_back(c);
  }
  return cases;
}

std::vector<KernelCase> arg_reduce_cases() {
  std::vector<KernelCase> cases;
  for (const char* op : {"ArgMax", "ArgMin"}) {
    cases.push_back(KernelCase(op, 1, "default axis 0").in(random_in({3, 4, 5})));
    cases.push_back(KernelCase(op, 11, "axis -1, keepdims 0").attr("axis", int_attr(-1)).attr("keepdims", int_attr(0))
                        .in(random_in({3, 4, 5})));
    // Ties: a row of equal values picks the first index, or the last with select_last_index.
    const Tensor ties = make_tensor({2, 3}, {1.f, 1.f, 0.5f, 2.f, 2.f, 2.f});
    cases.push_back(KernelCase(op, 12, "ties, first").attr("axis", int_attr(1)).in(given(ties)));
    cases.push_back(KernelCase(op, 13, "ties, select_last_index").attr("axis", int_attr(1))
                        .attr("select_last_index", int_attr(1)).in(given(ties)));
    cases.push_back(KernelCase(op, 13, "int64").attr("axis", int_attr(1))
                        .in(given(make_int_tensor({2, 3}, {-3, 5, 7, 2, -4, 9}))));
  }
  return cases;
}

// CumSum: the reference only; every exclusive/reverse setting, a negative axis, int32 axis, int64 data.
std::vector<KernelCase> cumsum_cases() {
  std::vector<KernelCase> cases;
  for (int ex = 0; ex < 2; ++ex)
    for (int rev = 0; rev < 2; ++rev)
      cases.push_back(KernelCase("CumSum", 14, "exclusive " + std::to_string(ex) + ", reverse " + std::to_string(rev))
                          .attr("exclusive", int_attr(ex)).attr("reverse", int_attr(rev))
                          .in(random_in({3, 4, 5})).in(given(make_int_tensor({}, {1}))));
  Tensor axis32(DType::i32, {1});
  axis32.data<int32_t>()[0] = -1;
  cases.push_back(KernelCase("CumSum", 11, "axis -1 (int32)").in(random_in({3, 7})).in(given(axis32)));
  cases.push_back(KernelCase("CumSum", 11, "int64 data").in(given(make_int_tensor({2, 3}, {1, -2, 3, 4, 5, -6})))
                      .in(given(make_int_tensor({}, {0}))));
  return cases;
}

// TopK: the reference only; opset 1's attribute k, opset 10's K input, largest/smallest, ties.
std::vector<KernelCase> top_k_cases() {
  std::vector<KernelCase> cases;
  cases.push_back(KernelCase("TopK", 1, "opset 1, k 3, default axis").attr("k", int_attr(3)).outputs(2)
                      .in(random_in({3, 4, 5})));
  cases.push_back(KernelCase("TopK", 10, "opset 10, K input, axis 1").attr("axis", int_attr(1)).outputs(2)
                      .in(random_in({3, 4, 5})).in(ints_in({2})));
  for (int largest = 0; largest < 2; ++largest)
    cases.push_back(KernelCase("TopK", 11, "largest " + std::to_string(largest) + ", axis -2")
                        .attr("axis", int_attr(-2)).attr("largest", int_attr(largest)).attr("sorted", int_attr(1))
                        .outputs(2).in(random_in({2, 6, 3})).in(ints_in({4})));
  cases.push_back(KernelCase("TopK", 11, "ties pick the lower index").outputs(2)
                      .in(given(make_tensor({2, 4}, {1, 2, 2, 1, 3, 3, 3, 3}))).in(ints_in({3})));
  cases.push_back(KernelCase("TopK", 11, "k 0").outputs(2).in(random_in({2, 4})).in(ints_in({0})));
  return cases;
}

}  // namespace

KERNEL_CASES("ReduceMean", reduce_mean_cases)
KERNEL_CASES("ReduceSum, Max, Min, Prod, L1, L2, SumSquare, LogSum, LogSumExp, ArgMax, ArgMin",
             reduce_cases, arg_reduce_cases)
KERNEL_CASES("CumSum", cumsum_cases)
KERNEL_CASES("TopK", top_k_cases)
