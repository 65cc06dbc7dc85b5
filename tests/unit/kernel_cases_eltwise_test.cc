// Kernel cases of the eltwise family (ops/eltwise): activations, Clip, Not, PRelu, Add ... Mean, Pow, Mod,
// comparisons, logical ops, Where. Each case runs every kernel of its op against the op's reference kernel;
// tests/unit/kernel_cases.h says how, and how a table is registered.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "dnnl/cpu_blocks.h"
#include "ops/common/activation.h"
#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

// ---- activations: one unary op per row of the activation table, and Clip ----

std::vector<KernelCase> activation_cases() {
  std::vector<KernelCase> cases;
  for (const ActivationDef& row : activations()) {
    if (row.since == 0) continue;  // Clip has its own cases below; Swish is only fused (fused_conv_cases)
    cases.push_back(KernelCase(row.name, kMaxOpset, "defaults, special values").in_domain(row.domain)
                        .in(given(special_values())));
    cases.push_back(KernelCase(row.name, kMaxOpset, "defaults, 4-D").in_domain(row.domain)
                        .in(random_in({2, 3, 5, 7}, -6.f, 6.f)));
    KernelCase empty(row.name, kMaxOpset, "empty");
    empty.in_domain(row.domain).in(random_in({0, 3}));
    if (has_dnnl_kernel(row)) empty.declines("dnnl", "is empty");
    cases.push_back(empty);
    if (row.integer) {  // oneDNN's eltwise is float: the reference alone computes integers
      KernelCase integers(row.name, kMaxOpset, "int64");
      integers.in_domain(row.domain).in(given(make_int_tensor({5}, {std::numeric_limits<int64_t>::min(), -3, 0, 5,
                                                                   std::numeric_limits<int64_t>::max()})));
      if (has_dnnl_kernel(row)) integers.declines("dnnl", "not float32");
      cases.push_back(integers);
    }
  }
  const Tensor x = special_values();
  cases.push_back(KernelCase("LeakyRelu", 16, "alpha 0.3").attr("alpha", float_attr(0.3f)).in(given(x)));
  cases.push_back(KernelCase("LeakyRelu", 16, "negative alpha").attr("alpha", float_attr(-2.f)).in(given(x)));
  cases.push_back(KernelCase("HardSigmoid", 6, "alpha 0.5, beta 0.6")
                      .attr("alpha", float_attr(0.5f)).attr("beta", float_attr(0.6f)).in(given(x)));
  cases.push_back(KernelCase("HardSigmoid", 6, "negative alpha")
                      .attr("alpha", float_attr(-0.3f)).attr("beta", float_attr(0.1f)).in(given(x)));
  // Attributes of the other rows (Celu's dnnl kernel declines an alpha it cannot divide by).
  cases.push_back(KernelCase("Elu", 6, "alpha 0.5").attr("alpha", float_attr(0.5f)).in(given(x)));
  cases.push_back(KernelCase("Elu", 6, "alpha -2").attr("alpha", float_attr(-2.f)).in(given(x)));
  cases.push_back(KernelCase("Selu", 6, "alpha 2, gamma 0.5")
                      .attr("alpha", float_attr(2.f)).attr("gamma", float_attr(0.5f)).in(given(x)));
  cases.push_back(KernelCase("Selu", 1, "opset 1 defaults, consumed_inputs").attr("consumed_inputs", ints({0}))
                      .in(given(x)));
  cases.push_back(KernelCase("Celu", 12, "alpha 2").attr("alpha", float_attr(2.f)).in(given(x)));
  cases.push_back(KernelCase("Celu", 12, "alpha 0.3").attr("alpha", float_attr(0.3f)).in(given(x)));
  // oneDNN's elu is e^x - 1 in float, times the scale: beyond |scale| 4 its error near 0 is beyond the bound
  // (the wrong-answer fuzzer's Celu with alpha 6.2e26 gave 0 for -1.5).
  cases.push_back(KernelCase("Celu", 12, "alpha 6.2e26 (fuzzer)").attr("alpha", float_attr(6.1897e26f))
                      .in(given(make_tensor({4}, {-1.5f, 2.f, -3e-30f, 0.f}))).declines("dnnl", "> 4"));
  cases.push_back(KernelCase("Elu", 6, "alpha 100").attr("alpha", float_attr(100.f)).in(given(x))
                      .declines("dnnl", "> 4"));
  cases.push_back(KernelCase("Selu", 6, "alpha 3, gamma 2").attr("alpha", float_attr(3.f))
                      .attr("gamma", float_attr(2.f)).in(given(x)).declines("dnnl", "> 4"));
  cases.push_back(KernelCase("Celu", 12, "alpha 0").attr("alpha", float_attr(0.f)).in(given(x))
                      .declines("dnnl", "alpha is not a positive number"));
  cases.push_back(KernelCase("ThresholdedRelu", 10, "alpha -0.5").attr("alpha", float_attr(-0.5f)).in(given(x)));
  cases.push_back(KernelCase("ThresholdedRelu", 10, "alpha 3 (a special value)").attr("alpha", float_attr(3.f))
                      .in(given(x)));
  // Round: halves go to even, in oneDNN's roundps as in nearbyint.
  cases.push_back(KernelCase("Round", 11, "halves").in(given(make_tensor(
      {14}, {-3.5f, -2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 3.5f, 0.49999997f, -0.49999997f, 8388607.5f, 1e30f, kNaN,
             -kInf}))));
  // Positive-only inputs for the rows with a restricted domain (the special values cover the rest).
  for (const char* op : {"Log", "Sqrt", "Reciprocal"})
    cases.push_back(KernelCase(op, 13, "positive, wide range").in(random_in({4, 250}, 1e-3f, 1e3f)));
  // Opsets 1-5: `consumed_inputs` is accepted (and ignored) by every op that had it.
  for (const ActivationDef& row : activations())
    if (row.consumed_inputs)
      cases.push_back(KernelCase(row.name, 1, "opset 1, consumed_inputs")
                          .attr("consumed_inputs", ints({0})).in(random_in({2, 3, 4}, 0.5f, 4.f)));
  // Blocked inputs: oneDNN 2.6's logistic over nChw16c with padded channels (C not a multiple of 16) is its
  // reference implementation, so such an input is taken plain.
  cases.push_back(KernelCase("Sigmoid", 14, "nChw16c, 32 channels")
                      .in(random_in({1, 32, 5, 5}, -4.f, 4.f).blocked()).runs("dnnl", Takes::offered_through));
  cases.push_back(KernelCase("Sigmoid", 14, "nChw16c, 20 channels (padded)")
                      .in(random_in({1, 20, 5, 5}, -4.f, 4.f).blocked()).runs("dnnl", Takes::plain));
  cases.push_back(KernelCase("Relu", 14, "nChw16c, 20 channels (padded)")
                      .in(random_in({1, 20, 5, 5}).blocked()).runs("dnnl", Takes::offered_through));
  cases.push_back(KernelCase("Tanh", 13, "nChw16c, 3-D").in(random_in({2, 16, 9}, -3.f, 3.f).blocked()));
  return cases;
}

// Not (bool): the reference only.
std::vector<KernelCase> prelu_cases() {
  struct Setting {
    Shape x, slope;
    int opset;
  };
  const Setting settings[] = {
      {{2, 3, 4, 5}, {3, 1, 1}, 9},  {{2, 3, 4, 5}, {1}, 16},     {{2, 3, 4, 5}, {2, 3, 4, 5}, 7},
      {{2, 3, 4, 5}, {5}, 16},       {{2, 3, 4, 5}, {4, 5}, 16},  {{2, 3, 4, 5}, {1, 4, 1}, 9},
      {{1, 32, 7, 7}, {32, 1, 1}, 16}, {{3, 4}, {4}, 6},          {{3, 4}, {3, 4}, 1},
      {{6}, {1}, 7},                 {{2, 3, 2, 2, 3}, {3, 1, 1, 1}, 16},
  };
  std::vector<KernelCase> cases;
  for (const Setting& s : settings)
    cases.push_back(KernelCase("PRelu", s.opset, "X " + to_string(s.x) + ", slope " + to_string(s.slope))
                        .in(random_in(s.x, -3.f, 3.f)).in(random_in(s.slope, -1.f, 1.f).constant()));
  cases.push_back(KernelCase("PRelu", 1, "opset 1 consumed_inputs").attr("consumed_inputs", ints({0}))
                      .in(random_in({2, 3}, -3.f, 3.f)).in(random_in({1}, 0.f, 1.f).constant()));
  // oneDNN multiplies x > 0 by the slope too: a slope that may be NaN or infinite is the reference's.
  cases.push_back(KernelCase("PRelu", 16, "runtime slope").in(random_in({2, 8, 3, 3}, -3.f, 3.f))
                      .in(random_in({8, 1, 1}, 0.f, 0.5f)).declines("dnnl", "not a constant of finite values"));
  cases.push_back(KernelCase("PRelu", 16, "constant slope with NaN and inf").in(random_in({2, 3}, -3.f, 3.f))
                      .in(given(make_tensor({3}, {kNaN, kInf, 0.5f})).constant())
                      .declines("dnnl", "not a constant of finite values"));
  cases.push_back(KernelCase("PRelu", 16, "infinities, NaN, zeros")
                      .in(given(make_tensor({6}, {-kInf, kInf, std::nanf(""), 0.f, -0.f, -2.f})))
                      .in(given(make_tensor({1}, {0.25f})).constant()));
  return cases;
}

std::vector<KernelCase> not_cases() {
  Tensor b(DType::boolean, {3, 5});
  for (int64_t i = 0; i < b.numel(); ++i) b.data<bool>()[i] = i % 3 == 0;
  return {KernelCase("Not", 1, "3x5").in(given(b)),
          KernelCase("Not", 1, "empty").in(given(Tensor(DType::boolean, {0, 2})))};
}

std::vector<KernelCase> clip_cases() {
  std::vector<KernelCase> cases;
  const Tensor x = special_values(false);
  auto clip6 = [&](const char* what) { return KernelCase("Clip", 6, what).in(given(x)); };
  cases.push_back(KernelCase("Clip", 1, "opset 1, min -1, consumed_inputs (ignored)")
                      .attr("min", float_attr(-1.f)).attr("consumed_inputs", ints({0})).in(given(x)));
  cases.push_back(clip6("attributes min -1, max 2.5").attr("min", float_attr(-1.f)).attr("max", float_attr(2.5f)));
  cases.push_back(clip6("attribute min 0 only").attr("min", float_attr(0.f)));
  cases.push_back(clip6("no attributes"));
  // ONNX gives max everywhere when min > max; oneDNN's clip gives min where x <= min.
  cases.push_back(clip6("attributes min > max").attr("min", float_attr(1.f)).attr("max", float_attr(0.f))
                      .declines("dnnl", "min > max"));
  const CaseInput y = random_in({2, 3, 7}, -3.f, 3.f);
  const CaseInput lo = given(make_tensor({}, {-1.f})), hi = given(make_tensor({1}, {0.5f}));
  auto clip13 = [&](const char* what) { return KernelCase("Clip", 13, what).in(y); };
  cases.push_back(clip13("constant bounds").in(lo.constant()).in(hi.constant()));
  cases.push_back(clip13("constant min only").in(lo.constant()));
  cases.push_back(clip13("constant max only").in(omitted()).in(hi.constant()));
  cases.push_back(clip13("no bounds"));
  cases.push_back(clip13("runtime min").in(lo).in(hi.constant()).declines("dnnl", "runtime tensors"));
  cases.push_back(clip13("runtime max").in(lo.constant()).in(hi).declines("dnnl", "runtime tensors"));
  cases.push_back(clip13("constant min > max")
                      .in(given(make_tensor({}, {1.f})).constant()).in(given(make_tensor({}, {0.f})).constant())
                      .declines("dnnl", "min > max"));
  cases.push_back(clip13("NaN min").in(given(make_tensor({}, {kNaN})).constant()).declines("dnnl", "NaN"));
  cases.push_back(clip13("nChw16c").in(lo.constant()).in(hi.constant()));
  cases.back().inputs[0] = random_in({1, 16, 3, 3}, -3.f, 3.f).blocked();
  cases.back().expects.push_back({"dnnl", true, "", Takes::offered_through});
  cases.push_back(KernelCase("Clip", 13, "int64").in(given(make_int_tensor({2}, {1, 2})))
                      .declines("dnnl", "int64, not float32"));
  cases.push_back(KernelCase("Clip", 13, "int64 with int64 bounds")
                      .in(given(make_int_tensor({6}, {-5, -1, 0, 2, 7, 9})))
                      .in(given(make_int_tensor({}, {-2})).constant()).in(given(make_int_tensor({}, {3})).constant())
                      .declines("dnnl", "int64, not float32"));
  return cases;
}

// ---- binary ops ----

std::vector<KernelCase> binary_cases() {
  struct Pattern {
    Shape a, b;
    bool a_broadcasts;  // A must grow to the output shape: Add and Mul swap operands, Sub and Div decline
  };
  const Pattern patterns[] = {
      {{2, 3, 4}, {2, 3, 4}, false},       {{3, 4}, {4}, false},      {{2, 3, 4}, {2, 1, 4}, false},
      {{2, 3, 4, 5}, {3, 1, 1}, false},    {{2, 3, 4}, {}, false},    {{2, 3, 4}, {1}, false},
      {{1, 16, 7, 7}, {1, 16, 1, 1}, false}, {{5}, {5}, false},       {{4}, {3, 4}, true},
      {{}, {2, 3}, true},                  {{2, 1, 4}, {2, 3, 4}, true},
      // Swin's attention mask: B broadcasts along a middle dim (oneDNN runs it over collapsed dims), and at
      // batch 2 along the batch too (a loop over the batch; oneDNN's reference below 1024 elements an
      // execution); B stepping along a looped dim.
      {{1, 4, 3, 5, 5}, {1, 4, 1, 5, 5}, false}, {{2, 4, 3, 10, 10}, {1, 4, 1, 10, 10}, false},
      {{2, 4, 3, 5, 5}, {1, 4, 1, 5, 5}, false}, {{2, 16, 3, 25}, {2, 1, 3, 1}, false},
  };
  std::vector<KernelCase> cases;
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Max", "Min"}) {
    const bool commutative = std::string(op) != "Sub" && std::string(op) != "Div";
    const bool variadic = std::string(op) == "Max" || std::string(op) == "Min";  // two inputs: oneDNN binary
    for (const Pattern& p : patterns) {
      // Divisors away from 0 keep quotients finite.
      KernelCase c = KernelCase(op, 14, p.a_broadcasts ? "A broadcasts" : "B broadcasts")
                         .in(random_in(p.a)).in(random_in(p.b, 0.5f, 2.f));
      if (p.a_broadcasts && !commutative) c.declines("dnnl", "oneDNN broadcasts only its second source");
      cases.push_back(c);
    }
    cases.push_back(KernelCase(op, 14, "both broadcast")
                        .in(random_in({2, 1, 4})).in(random_in({3, 1}, 0.5f, 2.f))
                        .declines("dnnl", commutative ? "and so would B" : "would be broadcast"));
    cases.push_back(KernelCase(op, 14, "int64")
                        .in(given(make_int_tensor({4}, {7, -7, 7, -7})))
                        .in(given(make_int_tensor({4}, {2, 2, -2, -3})))
                        .declines("dnnl", "int64, not float32"));
    // Max and Min broadcast from opset 8 on (7 for the binary ops).
    cases.push_back(KernelCase(op, variadic ? 8 : 7, "first broadcasting opset").in(random_in({3, 4})).in(random_in({4}, 0.5f, 2.f)));
  }
  // oneDNN 2.6 runs a broadcast src1 (per channel, or one scalar) over nChw16c with its reference
  // implementation only: the dnnl kernel takes such inputs plain (the plan reorders) instead, and the channel
  // kernel runs them where they arrive.
  for (const char* op : {"Add", "Mul"}) {
    cases.push_back(KernelCase(op, 14, "nChw16c, same shapes")
                        .in(random_in({1, 32, 9, 9}).blocked()).in(random_in({1, 32, 9, 9}).blocked())
                        .runs("dnnl", Takes::offered_through).declines("channel", "nothing is broadcast"));
    cases.push_back(KernelCase(op, 14, "nChw16c, per-channel B")
                        .in(random_in({1, 32, 9, 9}).blocked()).in(random_in({1, 32, 1, 1}))
                        .runs("dnnl", Takes::plain).runs("channel", Takes::offered_through));
    cases.push_back(KernelCase(op, 14, "nChw16c, scalar B")
                        .in(random_in({1, 32, 9, 9}).blocked()).in(random_in({1}))
                        .runs("dnnl", Takes::plain).runs("channel", Takes::offered_through));
  }
  // The channel kernel (binary_channel.cc): every arithmetic op, either operand the broadcast one (a
  // squeeze-and-excitation block's `scale * x`), channels that fill no whole block (the padding lanes),
  // per batch and channel (batch 3), per batch only, B of lower rank, B blocked itself, 3-D and 5-D, rows
  // past one work item (kRowsPerItem 512), and what it leaves to the others.
  for (const char* op : {"Add", "Sub", "Mul", "Div"}) {
    const bool commutative = std::string(op) == "Add" || std::string(op) == "Mul";
    cases.push_back(KernelCase(op, 14, "blocked A, per-channel B, 20 channels")
                        .in(random_in({1, 20, 5, 7}).blocked()).in(random_in({1, 20, 1, 1}, 0.5f, 2.f))
                        .runs("channel", Takes::offered_through));
    KernelCase swapped = KernelCase(op, 14, "per-channel A, blocked B, 20 channels")
                             .in(random_in({1, 20, 1, 1}, 0.5f, 2.f)).in(random_in({1, 20, 5, 7}, 0.5f, 2.f).blocked())
                             .runs("channel");
    if (!commutative) swapped.declines("dnnl", "oneDNN broadcasts only its second source");
    cases.push_back(swapped);
    cases.push_back(KernelCase(op, 14, "blocked A, B per batch and channel")
                        .in(random_in({3, 24, 6, 5}).blocked()).in(random_in({3, 24, 1, 1}, 0.5f, 2.f))
                        .runs("channel", Takes::offered_through));
    cases.push_back(KernelCase(op, 14, "blocked A, B per batch")
                        .in(random_in({2, 12, 3, 3}).blocked()).in(random_in({2, 1, 1, 1}, 0.5f, 2.f))
                        .runs("channel", Takes::offered_through));
    cases.push_back(KernelCase(op, 14, "blocked A, B [C, 1, 1]")
                        .in(random_in({2, 16, 4, 4}).blocked()).in(random_in({16, 1, 1}, 0.5f, 2.f))
                        .runs("channel", Takes::offered_through));
    cases.push_back(KernelCase(op, 14, "blocked A, blocked per-channel B")
                        .in(random_in({1, 24, 33, 17}).blocked()).in(random_in({1, 24, 1, 1}, 0.5f, 2.f).blocked())
                        .runs("channel", Takes::offered_through));
    cases.push_back(KernelCase(op, 14, "blocked 3-D A, per-channel B")
                        .in(random_in({2, 10, 9}).blocked()).in(random_in({1, 10, 1}, 0.5f, 2.f))
                        .runs("channel", Takes::offered_through));
    cases.push_back(KernelCase(op, 14, "blocked 5-D A, per-channel B")
                        .in(random_in({1, 9, 3, 4, 5}).blocked()).in(random_in({1, 9, 1, 1, 1}, 0.5f, 2.f))
                        .runs("channel", Takes::offered_through));
    cases.push_back(KernelCase(op, 14, "plain A, per-channel B")
                        .in(random_in({1, 16, 4, 4})).in(random_in({1, 16, 1, 1}, 0.5f, 2.f))
                        .declines("channel", "no input arrives channel-blocked"));
    cases.push_back(KernelCase(op, 14, "channels-last A, per-channel B")
                        .in(random_in({1, 16, 4, 4}).channels_last()).in(random_in({1, 16, 1, 1}, 0.5f, 2.f))
                        .declines("channel", "not channel-blocked"));
    cases.push_back(KernelCase(op, 14, "blocked A, B along W")
                        .in(random_in({1, 16, 4, 4}).blocked()).in(random_in({1, 1, 1, 4}, 0.5f, 2.f))
                        .declines("channel", "varies along spatial dim 3"));
    // A native bfloat16 plan (dnnl/layouts.h): A stored in bfloat16 is read so by the dnnl kernel, float32
    // arithmetic on its values, output float32 (but with native_bfloat16_stored: CompileContext::store_bfloat16);
    // B too where it arrives so, of A's shape or broadcast plain (a squeeze-and-excitation gate); the channel
    // kernel declines them (the plan reorders). Only on CPUs with native bfloat16: elsewhere no plan compiles a kernel
    // in bf16, and oneDNN has no bf16 binary without AVX-512.
    if (!dnnl_cpu_has_native_bfloat16()) continue;
    cases.push_back(KernelCase(op, 14, "native bf16: A stored in bfloat16, per-channel B").native_bfloat16()
                        .in(random_in({1, 16, 4, 4}).stored_bfloat16()).in(random_in({1, 16, 1, 1}, 0.5f, 2.f))
                        .declines("channel", "not channel-blocked").runs("dnnl", Takes::offered)
                        .without_special_values(kStoredBfloat16FlushesSubnormals));
    cases.push_back(KernelCase(op, 14, "native bf16: A channels-last and per-channel B, both stored in bfloat16")
                        .native_bfloat16_stored().in(random_in({1, 16, 4, 4}).channels_last().stored_bfloat16())
                        .in(random_in({1, 16, 1, 1}, 0.5f, 2.f).stored_bfloat16())
                        .declines("channel", "not channel-blocked").runs("dnnl", Takes::offered)
                        .without_special_values(kStoredBfloat16FlushesSubnormals));
    cases.push_back(KernelCase(op, 14, "native bf16: A stored in bfloat16, B of its shape").native_bfloat16()
                        .in(random_in({2, 3, 5}).stored_bfloat16()).in(random_in({2, 3, 5}, 0.5f, 2.f))
                        .declines("channel", "nothing is broadcast").runs("dnnl", Takes::offered)
                        .without_special_values(kStoredBfloat16FlushesSubnormals));
    cases.push_back(KernelCase(op, 14, "native bf16: A and B stored in bfloat16").native_bfloat16()
                        .in(random_in({2, 3, 5}).stored_bfloat16()).in(random_in({2, 3, 5}, 0.5f, 2.f).stored_bfloat16())
                        .declines("channel", "nothing is broadcast").runs("dnnl", Takes::offered)
                        .without_special_values(kStoredBfloat16FlushesSubnormals));
  }
  // Before opset 7: B broadcasts onto A only with broadcast=1, placed at axis (suffix without it).
  cases.push_back(KernelCase("Add", 6, "legacy, broadcast at axis 1").attr("broadcast", int_attr(1))
                      .attr("axis", int_attr(1)).in(random_in({2, 3, 4, 5})).in(random_in({3, 4})));
  cases.push_back(KernelCase("Add", 6, "legacy, broadcast at axis 0").attr("broadcast", int_attr(1))
                      .attr("axis", int_attr(0)).in(random_in({2, 3, 4})).in(random_in({2})));
  cases.push_back(KernelCase("Sub", 6, "legacy, suffix broadcast").attr("broadcast", int_attr(1))
                      .in(random_in({2, 3, 4})).in(random_in({3, 4})));
  cases.push_back(KernelCase("Mul", 6, "legacy, scalar B").attr("broadcast", int_attr(1))
                      .in(random_in({2, 3, 4})).in(random_in({})));
  cases.push_back(KernelCase("Div", 6, "legacy, B of one element, rank 2").attr("broadcast", int_attr(1))
                      .in(random_in({2, 3, 4})).in(random_in({1, 1}, 0.5f, 2.f)));
  cases.push_back(KernelCase("Div", 6, "legacy, NCHW per-channel B at axis 1").attr("broadcast", int_attr(1))
                      .attr("axis", int_attr(1)).in(random_in({1, 16, 5, 5})).in(random_in({16}, 0.5f, 2.f)));
  cases.push_back(KernelCase("Add", 1, "legacy, consumed_inputs, same shapes").attr("consumed_inputs", ints({0, 0}))
                      .in(random_in({3, 4})).in(random_in({3, 4})));
  cases.push_back(KernelCase("Mul", 6, "legacy, same shapes, no broadcast").in(random_in({3, 4})).in(random_in({3, 4})));
  cases.push_back(KernelCase("Sub", 6, "legacy int64").attr("broadcast", int_attr(1))
                      .in(given(make_int_tensor({2, 2}, {5, -5, 7, 9}))).in(given(make_int_tensor({2}, {3, -4})))
                      .declines("dnnl", "int64, not float32"));
  // Variadic ops: oneDNN binary takes two inputs; Mean runs its reference only.
  for (const char* op : {"Sum", "Max", "Min"}) {
    cases.push_back(KernelCase(op, 13, "one input").in(random_in({2, 3})).declines("dnnl", "1 inputs"));
    cases.push_back(KernelCase(op, 13, "three inputs, broadcast")
                        .in(random_in({2, 3, 4})).in(random_in({3, 1})).in(random_in({4})).declines("dnnl", "3 inputs"));
    cases.push_back(KernelCase(op, 6, "opset 6, same shapes").in(random_in({5, 6})).in(random_in({5, 6})));
    cases.push_back(KernelCase(op, 1, "opset 1, consumed_inputs").attr("consumed_inputs", ints({0, 0}))
                        .in(random_in({5, 6})).in(random_in({5, 6})));
    cases.push_back(KernelCase(op, 8, "opset 8, two inputs broadcast").in(random_in({2, 3, 4})).in(random_in({3, 1})));
    cases.push_back(KernelCase(op, 13, "int64")
                        .in(given(make_int_tensor({3}, {1, -5, 9}))).in(given(make_int_tensor({3}, {2, -7, 9})))
                        .declines("dnnl", "int64, not float32"));
  }
  // Max and Min keep NaN where either operand is NaN, as numpy does (the reference); oneDNN's maxps/minps give
  // the other operand where the first is NaN, and its kernel puts NaN back (binary_dnnl.cc).
  for (const char* op : {"Max", "Min"}) {
    cases.push_back(KernelCase(op, 13, "NaN, infinities, signed zeros, two inputs")
                        .in(given(make_tensor({6}, {kNaN, 1.f, -kInf, 0.f, -0.f, kNaN})))
                        .in(given(make_tensor({6}, {1.f, kNaN, 3.f, -0.f, 0.f, kNaN}))));
    cases.push_back(KernelCase(op, 13, "special values, broadcast scalar").in(given(special_values()))
                        .in(given(make_tensor({1}, {0.5f}))));
    cases.push_back(KernelCase(op, 13, "scalar first, special values broadcast")
                        .in(given(make_tensor({1}, {kNaN}))).in(given(special_values())));
  }
  cases.push_back(KernelCase("Max", 13, "NaN, infinities, signed zeros, three inputs")
                      .in(given(make_tensor({5}, {kNaN, 1.f, -kInf, 0.f, -0.f}))).in(given(make_tensor({5}, {1.f, kNaN, 3.f, -0.f, 0.f})))
                      .in(given(make_tensor({1}, {kInf}))).declines("dnnl", "3 inputs"));
  cases.push_back(KernelCase("Min", 13, "NaN, three inputs")
                      .in(given(make_tensor({3}, {kNaN, 1.f, -kInf}))).in(given(make_tensor({3}, {1.f, kNaN, 3.f})))
                      .in(given(make_tensor({1}, {-1.f}))).declines("dnnl", "3 inputs"));
  cases.push_back(KernelCase("Mean", 13, "one input").in(random_in({2, 3})));
  cases.push_back(KernelCase("Mean", 13, "two inputs").in(random_in({2, 3})).in(random_in({2, 3})));
  cases.push_back(KernelCase("Mean", 13, "three inputs, broadcast")
                      .in(random_in({2, 3, 4})).in(random_in({3, 1})).in(random_in({4})));
  cases.push_back(KernelCase("Mean", 6, "opset 6, same shapes").in(random_in({5, 6})).in(random_in({5, 6})));
  cases.push_back(KernelCase("Mean", 1, "opset 1, consumed_inputs").attr("consumed_inputs", ints({0}))
                      .in(random_in({5, 6})).in(random_in({5, 6})));
  // The channel kernel of Add, Sub, Mul and Div declines every case not written for it: all inputs plain
  // (integers are refused before their layout is looked at).
  for (KernelCase& c : cases) {
    const bool arithmetic = c.op == "Add" || c.op == "Sub" || c.op == "Mul" || c.op == "Div";
    const bool named = std::any_of(c.expects.begin(), c.expects.end(), [](const Expect& e) { return e.kernel == "channel"; });
    if (!arithmetic || named) continue;
    const bool integers = std::any_of(c.inputs.begin(), c.inputs.end(),
                                      [](const CaseInput& i) { return i.data.defined() && i.data.dtype() != DType::f32; });
    REQUIRE(std::all_of(c.inputs.begin(), c.inputs.end(), [](const CaseInput& i) { return i.offer == Offer::plain; }));
    c.declines("channel", integers ? "not a float32" : "no input arrives channel-blocked");
  }
  return cases;
}

// ---- Pow, Mod, comparisons, logical ops, Where: reference kernels only (ops/eltwise/binary.cc says why) ----

std::vector<KernelCase> pow_mod_cases() {
  std::vector<KernelCase> cases;
  cases.push_back(KernelCase("Pow", 15, "float32, broadcast").in(random_in({2, 3, 4}, 0.1f, 3.f)).in(random_in({4}, -3.f, 3.f)).declines("dnnl", "runtime tensor"));
  cases.push_back(KernelCase("Pow", 15, "A broadcasts").in(random_in({4}, 0.1f, 3.f)).in(random_in({3, 4}, -3.f, 3.f)).declines("dnnl", "runtime tensor"));
  cases.push_back(KernelCase("Pow", 15, "special values")
                      .in(given(make_tensor({8}, {-2.f, -2.f, 0.f, 0.f, kInf, kNaN, 1.f, -8.f})))
                      .in(given(make_tensor({8}, {3.f, 0.5f, -1.f, 0.f, -1.f, 0.f, kNaN, 1.f / 3}))).declines("dnnl", "runtime tensor"));
  cases.push_back(KernelCase("Pow", 15, "float32 base, int64 exponent")
                      .in(random_in({2, 3}, -2.f, 2.f)).in(given(make_int_tensor({3}, {0, 3, -2}))).declines("dnnl", "runtime tensor"));
  cases.push_back(KernelCase("Pow", 15, "int64 base and exponent")
                      .in(given(make_int_tensor({6}, {2, -3, 1, -1, 5, 7}))).in(given(make_int_tensor({6}, {10, 3, -4, -3, 0, 2}))).declines("dnnl", "int64, not float32"));
  cases.push_back(KernelCase("Pow", 15, "int32 base, float32 exponent")
                      .in(given(typed_tensor<int32_t>({4}, {2, 3, 4, -2}))).in(given(make_tensor({4}, {0.5f, 2.f, -1.f, 3.f}))).declines("dnnl", "int32, not float32"));
  cases.push_back(KernelCase("Pow", 15, "float64").in(given(typed_tensor<double>({3}, {1.5, 2, 0.25})))
                      .in(given(typed_tensor<double>({1}, {2.5}))).declines("dnnl", "float64, not float32"));
  cases.push_back(KernelCase("Pow", 1, "legacy, broadcast at axis 1").attr("broadcast", int_attr(1))
                      .attr("axis", int_attr(1)).in(random_in({2, 3, 4}, 0.1f, 2.f)).in(random_in({3}, -2.f, 2.f)).declines("dnnl", "runtime tensor"));
  cases.push_back(KernelCase("Pow", 7, "opset 7, same shapes").in(random_in({3, 4}, 0.1f, 2.f)).in(random_in({3, 4})).declines("dnnl", "runtime tensor"));
  // One constant exponent: oneDNN's eltwise pow, over special values and a negative base.
  Tensor x = special_values(true);
  for (float e : {2.f, 3.f, -1.f, 1.5f, 2.7f, 0.f, 1.f, -2.f, -0.5f, 4.f}) {
    const std::string what = "constant exponent " + std::to_string(e);
    cases.push_back(KernelCase("Pow", 15, what).in(given(x)).in(given(make_tensor({}, {e})).constant()));
    cases.push_back(KernelCase("Pow", 15, what + ", 4-D").in(random_in({2, 3, 4, 5}, -3.f, 3.f))
                        .in(given(make_tensor({1}, {e})).constant()));
  }
  cases.push_back(KernelCase("Pow", 15, "constant exponent 0.5").in(given(x)).in(given(make_tensor({}, {0.5f})).constant())
                      .declines("dnnl", "sqrt"));
  cases.push_back(KernelCase("Pow", 15, "constant exponent of two elements").in(random_in({2, 2}, 0.1f, 2.f))
                      .in(given(make_tensor({2}, {2.f, 3.f})).constant()).declines("dnnl", "has 2 elements"));
  cases.push_back(KernelCase("Pow", 15, "constant NaN exponent").in(random_in({2, 2}))
                      .in(given(make_tensor({}, {kNaN})).constant()).declines("dnnl", "not a finite float32"));
  cases.push_back(KernelCase("Pow", 15, "constant int64 exponent").in(random_in({2, 3}, -2.f, 2.f))
                      .in(given(make_int_tensor({}, {3})).constant()));

  const Tensor dividend = make_int_tensor({8}, {7, -7, 7, -7, 0, 5, -9, 9});
  const Tensor divisor = make_int_tensor({8}, {3, 3, -3, -3, 4, 5, 4, -4});
  cases.push_back(KernelCase("Mod", 13, "int64, sign of the divisor").in(given(dividend)).in(given(divisor)));
  cases.push_back(KernelCase("Mod", 13, "int64, fmod").attr("fmod", int_attr(1)).in(given(dividend)).in(given(divisor)));
  cases.push_back(KernelCase("Mod", 10, "int32, broadcast")
                      .in(given(typed_tensor<int32_t>({2, 3}, {-5, 4, 11, -1, 0, 8}))).in(given(typed_tensor<int32_t>({3}, {3, -3, 7}))));
  cases.push_back(KernelCase("Mod", 13, "int8, lowest % -1")
                      .in(given(typed_tensor<int8_t>({3}, {-128, -7, 127}))).in(given(typed_tensor<int8_t>({3}, {-1, 2, -2}))));
  cases.push_back(KernelCase("Mod", 13, "uint8").in(given(typed_tensor<uint8_t>({3}, {200, 7, 255})))
                      .in(given(typed_tensor<uint8_t>({1}, {7}))));
  cases.push_back(KernelCase("Mod", 13, "float32, fmod").attr("fmod", int_attr(1))
                      .in(random_in({2, 3, 4}, -10.f, 10.f)).in(random_in({4}, 0.5f, 3.f)));
  cases.push_back(KernelCase("Mod", 13, "float32 mixed signs, fmod").attr("fmod", int_attr(1))
                      .in(given(make_tensor({4}, {5.5f, -5.5f, 5.5f, -5.5f}))).in(given(make_tensor({4}, {2.f, 2.f, -2.f, -2.f}))));
  return cases;
}

std::vector<KernelCase> compare_logic_cases() {
  std::vector<KernelCase> cases;
  const Tensor a = make_tensor({2, 3}, {1.f, 2.f, kNaN, -0.f, kInf, 3.f});
  const Tensor b = make_tensor({3}, {1.f, kNaN, 0.f});
  const Tensor ia = make_int_tensor({2, 3}, {1, 5, -3, 7, 7, 0}), ib = make_int_tensor({3}, {1, 7, -4});
  const Tensor a2 = make_tensor({2, 3}, {1.f, kNaN, kNaN, 0.f, -kInf, 2.f});
  // oneDNN: eq/lt/le as they are (B may broadcast), gt/ge as lt/le with swapped operands (A may broadcast);
  // Equal swaps either way (ops/eltwise/binary.h).
  for (const char* op : {"Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual"}) {
    const std::string o = op;
    const bool greater = o == "Greater" || o == "GreaterOrEqual", equal = o == "Equal";
    auto b_broadcasts = [&](KernelCase c) { return greater ? c.declines("dnnl", "true for NaN") : c; };
    auto a_broadcasts = [&](KernelCase c) {
      return greater || equal ? c : c.declines("dnnl", "oneDNN broadcasts only its second source");
    };
    cases.push_back(KernelCase(op, 16, "float32 with NaN and signed zeros, same shapes").in(given(a)).in(given(a2)));
    cases.push_back(b_broadcasts(KernelCase(op, 16, "float32 with NaN and signed zeros, broadcast").in(given(a)).in(given(b))));
    cases.push_back(b_broadcasts(KernelCase(op, 16, "random float32").in(random_in({2, 3, 4})).in(random_in({3, 1}))));
    cases.push_back(a_broadcasts(KernelCase(op, 16, "A broadcasts").in(given(b)).in(given(a))));
    cases.push_back(KernelCase(op, 16, "both broadcast").in(random_in({2, 1, 3})).in(random_in({4, 1}))
                        .declines("dnnl", "would be broadcast"));
    cases.push_back(KernelCase(op, 16, "int64, broadcast").in(given(ia)).in(given(ib)).declines("dnnl", "int64, not float32"));
    cases.push_back(KernelCase(op, 16, "nChw16c offered: taken plain").in(random_in({1, 16, 3, 3}).blocked())
                        .in(random_in({1, 16, 3, 3}).blocked()).runs("dnnl", Takes::plain));
  }
  cases.push_back(KernelCase("Equal", 13, "bool").in(given(bool_tensor({4}, {0, 1, 0, 1})))
                      .in(given(bool_tensor({4}, {0, 0, 1, 1}))).declines("dnnl", "bool, not float32"));
  cases.push_back(KernelCase("Equal", 11, "uint8").in(given(typed_tensor<uint8_t>({3}, {0, 200, 7})))
                      .in(given(typed_tensor<uint8_t>({3}, {0, 100, 7}))).declines("dnnl", "uint8, not float32"));
  cases.push_back(KernelCase("Less", 1, "legacy, broadcast at axis 0").attr("broadcast", int_attr(1))
                      .attr("axis", int_attr(0)).in(random_in({3, 4})).in(random_in({3})));
  cases.push_back(KernelCase("Equal", 7, "opset 7, broadcast").in(random_in({3, 4})).in(random_in({4})));
  cases.push_back(KernelCase("Greater", 1, "legacy, broadcast at axis 0").attr("broadcast", int_attr(1))
                      .attr("axis", int_attr(0)).in(random_in({3, 4})).in(random_in({3})).declines("dnnl", "true for NaN"));
  cases.push_back(KernelCase("Greater", 1, "legacy, same shapes").in(random_in({3, 4})).in(random_in({3, 4})));
  const Tensor p = bool_tensor({2, 2, 2}, {0, 0, 1, 1, 0, 1, 0, 1}), q = bool_tensor({2}, {0, 1});
  for (const char* op : {"And", "Or", "Xor"}) {
    cases.push_back(KernelCase(op, 7, "every pair").in(given(bool_tensor({4}, {0, 0, 1, 1})))
                        .in(given(bool_tensor({4}, {0, 1, 0, 1}))));
    cases.push_back(KernelCase(op, 7, "broadcast").in(given(p)).in(given(q)));
    cases.push_back(KernelCase(op, 7, "A broadcasts").in(given(q)).in(given(p)));
    cases.push_back(KernelCase(op, 1, "legacy, broadcast at axis 1").attr("broadcast", int_attr(1))
                        .attr("axis", int_attr(1)).in(given(p)).in(given(q)));
    cases.push_back(KernelCase(op, 1, "legacy, same shapes").in(given(p)).in(given(p)));
  }
  const Tensor cond = bool_tensor({2, 1, 3}, {1, 0, 1, 0, 0, 1});
  cases.push_back(KernelCase("Where", 16, "float32, all three broadcast")
                      .in(given(cond)).in(random_in({4, 1})).in(random_in({3})));
  cases.push_back(KernelCase("Where", 9, "int64, same shapes").in(given(bool_tensor({3}, {1, 0, 1})))
                      .in(given(make_int_tensor({3}, {1, 2, 3}))).in(given(make_int_tensor({3}, {-1, -2, -3}))));
  cases.push_back(KernelCase("Where", 16, "bool values, scalar condition").in(given(bool_tensor({}, {0})))
                      .in(given(p)).in(given(q)));
  cases.push_back(KernelCase("Where", 16, "empty").in(given(bool_tensor({0, 3}, {}))).in(random_in({3})).in(random_in({1})));
  return cases;
}

// ---- IsNaN and IsInf: reference only (a bool output) ----

std::vector<KernelCase> is_nan_inf_cases() {
  std::vector<KernelCase> cases;
  cases.push_back(KernelCase("IsNaN", 13, "special values").in(given(special_values())));
  cases.push_back(KernelCase("IsInf", 10, "special values").in(given(special_values())));
  cases.push_back(KernelCase("IsInf", 10, "negative only").attr("detect_positive", int_attr(0))
                      .in(given(special_values())));
  cases.push_back(KernelCase("IsInf", 10, "empty").in(random_in({0, 2})));
  return cases;
}

}  // namespace

KERNEL_CASES("activations, Not and Clip", activation_cases, not_cases, clip_cases)
KERNEL_CASES("Add, Sub, Mul, Div, Sum, Max, Min, Mean", binary_cases)
KERNEL_CASES("PRelu", prelu_cases)
KERNEL_CASES("Pow, Mod", pow_mod_cases)
KERNEL_CASES("comparisons, And, Or, Xor, Where", compare_logic_cases)
KERNEL_CASES("IsNaN, IsInf", is_nan_inf_cases)
