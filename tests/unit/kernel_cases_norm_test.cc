// Kernel cases of the norm family (ops/norm): BatchNormalization, LRN, LayerNormalization, InstanceNormalization,
// GroupNormalization. Each case runs every kernel of its op against the op's reference kernel;
// tests/unit/kernel_cases.h says how, and how a table is registered.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "dnnl/cpu_blocks.h"
#include "ops/norm/batch_norm.h"
#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

// ---- normalization ----

std::vector<KernelCase> batch_norm_cases() {
  struct Setting {
    Shape x;
    float epsilon;
    int opset;
  };
  const Setting settings[] = {
      {{2, 3}, 1e-5f, 15},         {{2, 3, 5}, 1e-5f, 15}, {{2, 3, 4, 5}, 1e-3f, 15},       {{1, 2, 3, 4, 5}, 1e-5f, 9},
      {{6}, 1e-5f, 9},             {{2, 3, 2, 2, 2, 2}, 0.f, 14}, {{1, 64, 14, 14}, 1e-5f, 7},
  };
  // The native kernel takes channels-last inputs only (the cases at the end).
  auto bn = [](const std::string& what, const Shape& x, int opset, CaseInput x_input) {
    const int64_t C = x.size() == 1 ? 1 : x[1];
    KernelCase c("BatchNormalization", opset, what);
    c.in(x_input).in(random_in({C}, 0.5f, 2.f)).in(random_in({C})).in(random_in({C})).in(random_in({C}, 0.1f, 3.f));
    return x_input.offer == Offer::plain || x_input.offer == Offer::blocked ? c.declines("native", "not channels-last")
                                                                           : c;
  };
  std::vector<KernelCase> cases;
  for (const Setting& s : settings)
    cases.push_back(bn("X " + to_string(s.x), s.x, s.opset, random_in(s.x, -3.f, 3.f))
                        .attr("epsilon", float_attr(s.epsilon)));
  cases.push_back(bn("constant statistics", {2, 8, 3, 3}, 15, random_in({2, 8, 3, 3}, -3.f, 3.f)));
  for (size_t i = 1; i < 5; ++i) cases.back().inputs[i] = cases.back().inputs[i].constant();
  cases.push_back(bn("X offered nChw16c", {1, 32, 7, 7}, 15, random_in({1, 32, 7, 7}, -3.f, 3.f).blocked())
                      .runs("dnnl", Takes::offered_through));
  // The fuse-conv pass's BatchNormalization + Relu (then_relu: oneDNN's fuse_norm_relu), plain and blocked.
  const auto then_relu = [](const Node& n) -> ParamsPtr {
    auto p = std::make_shared<BatchNormParams>(parse_batch_norm(n));
    p->then_relu = true;
    return p;
  };
  for (bool blocked : {false, true}) {
    CaseInput x = random_in({1, 32, 7, 7}, -3.f, 3.f);
    cases.push_back(bn(std::string("then Relu") + (blocked ? ", X offered nChw16c" : ""), {1, 32, 7, 7}, 15,
                       blocked ? x.blocked() : x)
                        .params("then_relu", then_relu));
  }
  cases.push_back(bn("training_mode", {2, 3, 4}, 15, random_in({2, 3, 4}, -3.f, 3.f))
                      .attr("training_mode", int_attr(1)).declines("dnnl", "training_mode = 1"));
  cases.push_back(bn("training_mode, running statistics out", {3, 2, 2, 3}, 15, random_in({3, 2, 2, 3}, -3.f, 3.f))
                      .attr("training_mode", int_attr(1)).attr("momentum", float_attr(0.8f)).outputs(3)
                      .declines("dnnl", "training_mode = 1"));
  // Channels-last X (what oneDNN's AVX-512 convolutions write): the native kernel, with constant statistics
  // only (it folds them at compile time); with then_relu (special values: a NaN stays NaN); a batch; stored in
  // bfloat16 in a native bfloat16 plan (on CPUs with native bfloat16: oneDNN's bf16 normalization is the other
  // kernel), where the output is stored so only when its rounding alone reads it.
  auto constant_statistics = [](KernelCase c) {
    for (size_t i = 1; i < 5; ++i) c.inputs[i] = c.inputs[i].constant();
    return c;
  };
  const Shape cl{1, 40, 5, 6}, batch{3, 20, 4, 4};
  cases.push_back(constant_statistics(bn("X offered channels-last", cl, 15, random_in(cl, -3.f, 3.f).channels_last()))
                      .runs("native", Takes::offered_through).runs("dnnl", Takes::offered_through));
  cases.push_back(constant_statistics(bn("then Relu, X offered channels-last, batch 3", batch, 15,
                                         random_in(batch, -3.f, 3.f).channels_last()))
                      .params("then_relu", then_relu).runs("native", Takes::offered_through));
  cases.push_back(bn("X offered channels-last, statistics not constant", cl, 15, random_in(cl, -3.f, 3.f).channels_last())
                      .declines("native", "input 1 is not a constant"));
  // The native kernel's bfloat16 rows on every CPU (its own code: widened, multiplied-added and rounded 16 lanes
  // at a time with AVX-512F, one at a time without), special values too; oneDNN's bf16 normalization beside it
  // where oneDNN has one (AVX-512; its fused Relu's maxps turns a NaN into 0, as for float32). Taken in float32
  // where the output is read so.
  const bool dnnl_bf16 = dnnl_cpu_isa().rfind("avx512", 0) == 0 || dnnl_cpu_isa().rfind("avx10", 0) == 0;
  const CaseInput stored = random_in(cl, -3.f, 3.f).channels_last().stored_bfloat16();
  KernelCase stored_case =
      constant_statistics(bn("native bf16, then Relu: X channels-last, stored in bfloat16", cl, 15, stored))
          .native_bfloat16_stored().params("then_relu", then_relu).runs("native", Takes::offered_through);
  if (dnnl_bf16) stored_case.runs("dnnl", Takes::offered_through);
  else stored_case.declines("dnnl", "oneDNN refuses");
  cases.push_back(stored_case);
  KernelCase read_as_float32 = constant_statistics(
      bn("native bf16: X channels-last, stored in bfloat16, output read as float32", cl, 15, stored)).native_bfloat16();
  cases.push_back(read_as_float32);
  return cases;
}

std::vector<KernelCase> lrn_cases() {
  struct Setting {
    Shape x;
    int64_t size;
    float alpha, beta, bias;
  };
  const Setting settings[] = {
      {{2, 7, 3, 3}, 1, 1e-4f, 0.75f, 1.f},  {{2, 7, 3, 3}, 3, 1e-2f, 0.75f, 1.f},  {{1, 5, 4}, 5, 0.5f, 0.5f, 2.f},
      {{1, 3, 2, 2, 2}, 3, 2e-4f, 1.f, 1.f}, {{1, 16, 6, 6}, 5, 1e-4f, 0.75f, 2.f}, {{2, 4, 3}, 7, 0.3f, 0.6f, 0.5f},
      {{1, 6, 2, 2}, 4, 0.5f, 0.75f, 1.f},   {{1, 4, 1, 1}, 2, 1.f, 1.f, 1.f},
  };
  std::vector<KernelCase> cases;
  for (const Setting& s : settings) {
    KernelCase c("LRN", 13, "size " + std::to_string(s.size));
    c.attr("size", int_attr(s.size)).attr("alpha", float_attr(s.alpha)).attr("beta", float_attr(s.beta));
    c.attr("bias", float_attr(s.bias)).in(random_in(s.x, -3.f, 3.f));
    if (s.size % 2 == 0) c.declines("dnnl", "even size");
    cases.push_back(c);
  }
  cases.push_back(KernelCase("LRN", 13, "X offered nChw16c").attr("size", int_attr(5))
                      .in(random_in({1, 32, 6, 6}, -3.f, 3.f).blocked()).runs("dnnl", Takes::offered_through));
  return cases;
}

// LayerNormalization, InstanceNormalization, GroupNormalization, and BatchNormalization's legacy opsets.
std::vector<KernelCase> layer_group_norm_cases() {
  std::vector<KernelCase> cases;
  struct Layer {
    Shape x;
    int64_t axis;
    Shape scale;  // B has the same shape unless omitted
    bool bias;
    float epsilon;
    const char* dnnl_declines;  // nullptr: dnnl runs
  };
  const Layer layers[] = {
      {{2, 3, 8}, -1, {8}, true, 1e-5f, nullptr},            // 1 trailing axis
      {{2, 3, 8}, -1, {8}, false, 1e-5f, nullptr},           // without B
      {{2, 3, 4, 5}, 2, {4, 5}, true, 1e-5f, nullptr},       // 2 trailing axes
      {{2, 3, 4, 5}, -2, {4, 5}, false, 0.1f, nullptr},      // 2 trailing axes, no B, large epsilon
      {{3, 4, 5}, 0, {3, 4, 5}, true, 1e-3f, nullptr},       // every axis
      {{2, 64}, 1, {1, 64}, true, 1e-5f, nullptr},           // leading 1 in Scale
      {{4, 768}, -1, {768}, true, 1e-12f, nullptr},          // a transformer's row
      {{2, 4096}, -1, {4096}, true, 1e-5f, nullptr},         // long rows
      {{2, 3, 4}, 3, {1}, true, 1e-5f, nullptr},             // axis = rank: each value alone
      {{2, 3, 4}, 1, {4}, true, 1e-5f, "not one value per normalized element"},  // Scale broadcast over axis 1
      {{2, 3, 4}, -1, {1}, true, 1e-5f, "not one value per normalized element"}, // scalar-like Scale
      {{2, 3, 4}, -1, {3, 4}, false, 1e-5f, "not one value per normalized element"},  // Scale varies by row
  };
  for (const Layer& l : layers) {
    KernelCase c("LayerNormalization", 17, "X " + to_string(l.x) + " axis " + std::to_string(l.axis) + " Scale " +
                                               to_string(l.scale) + (l.bias ? " with B" : " without B"));
    c.attr("axis", int_attr(l.axis)).attr("epsilon", float_attr(l.epsilon)).in(random_in(l.x, -3.f, 3.f))
        .in(random_in(l.scale, 0.5f, 2.f));
    if (l.bias) c.in(random_in(l.scale));
    if (l.dnnl_declines) c.declines("dnnl", l.dnnl_declines);
    cases.push_back(c);
  }
  cases.push_back(KernelCase("LayerNormalization", 17, "Mean and InvStdDev out").attr("axis", int_attr(1))
                      .in(random_in({2, 3, 5}, -3.f, 3.f)).in(random_in({3, 5})).in(random_in({3, 5})).outputs(3));
  cases.push_back(KernelCase("LayerNormalization", 17, "InvStdDev only, no B").in(random_in({6, 7}, -3.f, 3.f))
                      .in(random_in({7})).outputs(3).omit_output(1));
  cases.push_back(KernelCase("LayerNormalization", 17, "rows offset from 0").in(random_in({3, 32}, 5.f, 7.f))
                      .in(random_in({32})).in(random_in({32})));
  cases.push_back(KernelCase("LayerNormalization", 17, "empty").in(random_in({0, 4})).in(random_in({4}))
                      .declines("dnnl", "is empty"));

  struct Group {
    const char* op;
    int opset;
    Shape x;
    int64_t groups;  // 0: InstanceNormalization
    float epsilon;
  };
  const Group groups[] = {
      {"InstanceNormalization", 6, {2, 3, 4, 5}, 0, 1e-5f}, {"InstanceNormalization", 6, {1, 4, 7}, 0, 0.1f},
      {"InstanceNormalization", 1, {2, 2, 3, 3}, 0, 1e-5f}, {"InstanceNormalization", 6, {1, 3, 2, 2, 3}, 0, 1e-5f},
      {"InstanceNormalization", 6, {3, 5}, 0, 1e-5f},        {"InstanceNormalization", 6, {1, 32, 16, 16}, 0, 1e-5f},
      {"GroupNormalization", 18, {2, 6, 4, 4}, 3, 1e-5f},    {"GroupNormalization", 18, {2, 6, 4, 4}, 1, 1e-3f},
      {"GroupNormalization", 18, {2, 6, 4, 4}, 6, 1e-5f},    {"GroupNormalization", 18, {3, 8, 5}, 2, 0.f},
      {"GroupNormalization", 18, {1, 32, 9, 9}, 8, 1e-5f},   {"GroupNormalization", 18, {2, 4}, 2, 1e-5f},
  };
  for (const Group& g : groups) {
    const int64_t n = g.groups ? g.groups : g.x[1];
    KernelCase c(g.op, g.opset, "X " + to_string(g.x) + (g.groups ? " groups " + std::to_string(g.groups) : ""));
    c.attr("epsilon", float_attr(g.epsilon)).in(random_in(g.x, -3.f, 3.f)).in(random_in({n}, 0.5f, 2.f))
        .in(random_in({n}));
    if (g.groups) c.attr("num_groups", int_attr(g.groups));
    cases.push_back(c);
  }
  cases.push_back(KernelCase("InstanceNormalization", 1, "consumed_inputs").attr("consumed_inputs", ints({0, 0, 0}))
                      .in(random_in({1, 3, 4, 4}, -3.f, 3.f)).in(random_in({3})).in(random_in({3})));
  cases.push_back(KernelCase("InstanceNormalization", 6, "X offered nChw16c: taken plain")
                      .in(random_in({1, 16, 4, 4}, -3.f, 3.f).blocked()).in(random_in({16})).in(random_in({16}))
                      .runs("dnnl", Takes::plain));
  cases.push_back(KernelCase("GroupNormalization", 18, "empty").attr("num_groups", int_attr(2))
                      .in(random_in({0, 4, 3})).in(random_in({2})).in(random_in({2})).declines("dnnl", "is empty"));

  // BatchNormalization opsets 1 and 6 (is_test, consumed_inputs, spatial) and opset 7's spatial = 0.
  auto bn = [](int opset, const std::string& what, const Shape& x, const Shape& stats) {
    return KernelCase("BatchNormalization", opset, what).in(random_in(x, -3.f, 3.f)).in(random_in(stats, 0.5f, 2.f))
        .in(random_in(stats)).in(random_in(stats)).in(random_in(stats, 0.1f, 3.f))
        .declines("native", "not channels-last");
  };
  cases.push_back(bn(1, "is_test 1, consumed_inputs", {2, 3, 4, 4}, {3})
                      .attr("is_test", int_attr(1)).attr("consumed_inputs", ints({0, 0, 0, 1, 1})));
  cases.push_back(bn(6, "is_test 1", {2, 3, 5}, {3}).attr("is_test", int_attr(1)).attr("epsilon", float_attr(1e-3f)));
  cases.push_back(bn(6, "is_test 0: batch statistics", {3, 2, 2, 3}, {2}).declines("dnnl", "is_test = 0"));
  cases.push_back(bn(6, "is_test 0, running mean and var out", {3, 2, 2, 3}, {2})
                      .attr("momentum", float_attr(0.7f)).outputs(3).declines("dnnl", "is_test = 0"));
  cases.push_back(bn(7, "spatial 0", {2, 3, 2, 2}, {3, 2, 2}).attr("spatial", int_attr(0)));
  cases.push_back(bn(7, "spatial 0, 1-D statistics", {2, 3, 2}, {6}).attr("spatial", int_attr(0)));
  cases.push_back(bn(6, "spatial 0, X offered nChw16c: taken plain", {1, 16, 2, 2}, {16, 2, 2})
                      .attr("spatial", int_attr(0)).attr("is_test", int_attr(1)).runs("dnnl", Takes::plain));
  cases.back().inputs[0] = cases.back().inputs[0].blocked();
  cases.push_back(bn(6, "spatial 0, is_test 0", {4, 2, 3}, {2, 3}).attr("spatial", int_attr(0)).outputs(3)
                      .declines("dnnl", "is_test = 0"));
  KernelCase channels_last = bn(6, "is_test 1, X offered channels-last, constant statistics", {1, 16, 3, 3}, {16});
  channels_last.attr("is_test", int_attr(1)).expects.clear();  // the native kernel runs it
  channels_last.inputs[0] = channels_last.inputs[0].channels_last();
  for (size_t i = 1; i < 5; ++i) channels_last.inputs[i] = channels_last.inputs[i].constant();
  cases.push_back(channels_last.runs("native", Takes::offered_through));
  return cases;
}

// ---- LpNormalization and MeanVarianceNormalization: reference only ----

std::vector<KernelCase> lp_mvn_cases() {
  std::vector<KernelCase> cases;
  cases.push_back(KernelCase("LpNormalization", 1, "L2, last axis").in(random_in({2, 3, 4})));
  cases.push_back(KernelCase("LpNormalization", 1, "L1, axis 1").attr("p", int_attr(1)).attr("axis", int_attr(1))
                      .in(random_in({2, 3, 4})));
  cases.push_back(KernelCase("MeanVarianceNormalization", 13, "default axes").in(random_in({2, 3, 4, 5})));
  cases.push_back(KernelCase("MeanVarianceNormalization", 13, "axes [1]").attr("axes", ints({1}))
                      .in(random_in({2, 6, 3}, -3.f, 5.f)));
  return cases;
}

}  // namespace

KERNEL_CASES("BatchNormalization, LRN", batch_norm_cases, lrn_cases)
KERNEL_CASES("LayerNormalization, InstanceNormalization, GroupNormalization, legacy BatchNormalization",
             layer_group_norm_cases)
KERNEL_CASES("LpNormalization, MeanVarianceNormalization", lp_mvn_cases)
