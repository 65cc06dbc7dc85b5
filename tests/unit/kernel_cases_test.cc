// The case table: every kernel of every op against the op's reference kernel, within the op's own
// tolerance (tests/unit/kernel_cases.h runs it). Cases name the non-reference kernels that must decline, with
// a part of the reason; every other kernel must run. A registered op without a case fails the last test, and
// so does a kernel no case runs.
//
// What tests elsewhere check instead: reference kernels against hand-checked values and textbook formulas
// (<family>_test.cc), errors and shape inference, what graph passes make (passes_test.cc, pool_lab_test.cc),
// one compiled kernel run from many threads and the pinned data-dependent differences (dnnl_kernels_test.cc).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "ops/common/activation.h"
#include "ops/conv/conv.h"
#include "ops/conv/fused_conv.h"
#include "ops/norm/batch_norm.h"
#include "ops/pool/adaptive_pool.h"
#include "ops/tensor/channel_shuffle.h"
#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// ---- activations: one unary op per row of the activation table, and Clip ----

// U[-8, 8) with special values first: signed zeros, infinities, NaN (or 0.5 instead), tiny, denormal and large
// values. Every kernel gives ONNX's result on them (ops/common/special_values.h).
Tensor special_values(bool with_nan = true) {
  Tensor x = random_tensor({3, 4, 50}, 300, -8.f, 8.f);
  const float specials[] = {0.f,  -0.f, kInf,  -kInf, with_nan ? kNaN : 0.5f, 1e-30f, -1e-30f, 1e-40f, -1e-40f, 3.f, -3.f,
                            88.f, -88.f, 100.f, -100.f};
  for (size_t i = 0; i < std::size(specials); ++i) x.data<float>()[i] = specials[i];
  return x;
}

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
  // implementation only: the kernel takes such inputs plain (the plan reorders) instead.
  for (const char* op : {"Add", "Mul"}) {
    cases.push_back(KernelCase(op, 14, "nChw16c, same shapes")
                        .in(random_in({1, 32, 9, 9}).blocked()).in(random_in({1, 32, 9, 9}).blocked())
                        .runs("dnnl", Takes::offered_through));
    cases.push_back(KernelCase(op, 14, "nChw16c, per-channel B")
                        .in(random_in({1, 32, 9, 9}).blocked()).in(random_in({1, 32, 1, 1}))
                        .runs("dnnl", Takes::plain));
    cases.push_back(KernelCase(op, 14, "nChw16c, scalar B")
                        .in(random_in({1, 32, 9, 9}).blocked()).in(random_in({1}))
                        .runs("dnnl", Takes::plain));
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
  return cases;
}

// ---- Pow, Mod, comparisons, logical ops, Where: reference kernels only (ops/eltwise/binary.cc says why) ----

template <class T>
Tensor typed_tensor(Shape shape, std::vector<T> values) {
  Tensor t(dtype_of<T>(), shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<T>()[i] = values.at(size_t(i));
  return t;
}
Tensor bool_tensor(Shape shape, std::vector<int> values) {
  Tensor t(DType::boolean, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<bool>()[i] = values.at(size_t(i)) != 0;
  return t;
}

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

// ---- convolutions ----

Attributes conv_attrs(int64_t group, const char* auto_pad, std::vector<int64_t> strides, std::vector<int64_t> dilations,
                      std::vector<int64_t> pads) {
  Attributes a;
  a.set("group", int_attr(group));
  a.set("auto_pad", string_attr(auto_pad));
  if (!strides.empty()) a.set("strides", ints(strides));
  if (!dilations.empty()) a.set("dilations", ints(dilations));
  if (!pads.empty()) a.set("pads", ints(pads));
  return a;
}

std::vector<KernelCase> conv_cases() {
  struct Geometry {
    const char* what;
    Shape x, w;
    int64_t group;
    const char* auto_pad;
    std::vector<int64_t> strides, dilations, pads;  // attributes; empty = not given
    bool bias;
  };
  const Geometry geometries[] = {
      {"1-D plain", {2, 3, 9}, {4, 3, 3}, 1, "NOTSET", {}, {}, {}, true},
      {"1-D strided, asymmetric pads", {1, 2, 10}, {3, 2, 4}, 1, "NOTSET", {3}, {}, {2, 1}, false},
      {"1-D dilated, grouped", {1, 4, 12}, {6, 2, 3}, 2, "NOTSET", {}, {2}, {1, 1}, true},
      {"2-D pads 1", {1, 3, 5, 6}, {2, 3, 3, 3}, 1, "NOTSET", {}, {}, {1, 1, 1, 1}, true},
      {"2-D asymmetric pads, stride 2", {2, 2, 7, 5}, {3, 2, 3, 3}, 1, "NOTSET", {2, 2}, {}, {1, 0, 2, 1}, true},
      {"2-D dilations 2x3", {1, 2, 9, 8}, {2, 2, 3, 2}, 1, "NOTSET", {}, {2, 3}, {0, 1, 0, 1}, false},
      {"2-D groups 2", {2, 4, 6, 6}, {6, 2, 3, 3}, 2, "NOTSET", {}, {}, {1, 1, 1, 1}, true},
      {"2-D depthwise", {1, 8, 7, 7}, {8, 1, 3, 3}, 8, "NOTSET", {}, {}, {1, 1, 1, 1}, true},
      {"2-D depthwise, multiplier 2, stride 2", {1, 4, 9, 9}, {8, 1, 3, 3}, 4, "NOTSET", {2, 2}, {}, {1, 1, 1, 1},
       false},
      {"2-D SAME_UPPER stride 2 (odd total pad)", {1, 3, 8, 7}, {4, 3, 4, 4}, 1, "SAME_UPPER", {2, 2}, {}, {}, true},
      {"2-D SAME_LOWER stride 2", {1, 3, 8, 7}, {4, 3, 4, 4}, 1, "SAME_LOWER", {2, 2}, {}, {}, true},
      {"2-D VALID stride 3", {1, 2, 10, 11}, {3, 2, 3, 2}, 1, "VALID", {3, 3}, {}, {}, false},
      {"2-D 1x1", {2, 16, 5, 5}, {8, 16, 1, 1}, 1, "NOTSET", {}, {}, {}, true},
      {"2-D kernel larger than input, padded", {1, 2, 2, 3}, {2, 2, 4, 4}, 1, "NOTSET", {}, {}, {2, 1, 1, 2}, true},
      {"2-D 32 channels (blocked layouts)", {2, 32, 14, 14}, {64, 32, 3, 3}, 1, "NOTSET", {}, {}, {1, 1, 1, 1},
       true},
      {"2-D 7x7 stride 2 stem", {1, 3, 32, 32}, {16, 3, 7, 7}, 1, "NOTSET", {2, 2}, {}, {3, 3, 3, 3}, false},
      {"2-D 3x3 stride 2 stem, batch 2 (plain src, nChw16c dst told as channels-last)", {2, 3, 12, 12},
       {16, 3, 3, 3}, 1, "NOTSET", {2, 2}, {}, {1, 1, 1, 1}, true},
      {"2-D groups 4, 64 channels", {1, 64, 8, 8}, {64, 16, 3, 3}, 4, "NOTSET", {}, {}, {1, 1, 1, 1}, true},
      {"3-D plain", {1, 2, 4, 5, 6}, {3, 2, 2, 3, 3}, 1, "NOTSET", {}, {}, {}, true},
      {"3-D strided, asymmetric pads, dilated", {2, 2, 6, 7, 5}, {2, 2, 3, 2, 2}, 1, "NOTSET", {2, 1, 2},
       {1, 2, 1}, {1, 0, 1, 0, 1, 1}, false},
      {"3-D grouped", {1, 4, 5, 5, 5}, {4, 2, 3, 3, 3}, 2, "NOTSET", {}, {}, {1, 1, 1, 1, 1, 1}, true},
  };
  std::vector<KernelCase> cases;
  for (const Geometry& g : geometries) {
    for (bool constant_weights : {false, true}) {
      KernelCase c(std::string("Conv"), 11, std::string(g.what) + (constant_weights ? ", constant W and B" : ""));
      c.attrs = conv_attrs(g.group, g.auto_pad, g.strides, g.dilations, g.pads);
      c.in(random_in(g.x));
      c.in(constant_weights ? random_in(g.w).constant() : random_in(g.w));
      if (g.bias) c.in(constant_weights ? random_in({g.w[0]}).constant() : random_in({g.w[0]}));
      cases.push_back(c);
    }
  }
  const Attributes pads1 = conv_attrs(1, "NOTSET", {}, {}, {1, 1, 1, 1});
  KernelCase blocked("Conv", 11, "src offered nChw16c");
  blocked.attrs = pads1;
  cases.push_back(blocked.in(random_in({1, 32, 14, 14}).blocked()).in(random_in({32, 32, 3, 3}).constant())
                      .in(random_in({32}).constant()));
  // A grouped convolution over 512 channels aliases in channels-last (conv_dnnl.cc): it takes nChw16c even
  // when src arrives channels-last (oneDNN's own choice on AVX-512; without it nChw8c, and the rule is off);
  // with 64 channels it keeps the layout src arrives in.
  const bool avx512 = __builtin_cpu_supports("avx512f");
  KernelCase aliasing("Conv", 11, "32 groups over 512 channels, src offered channels-last");
  aliasing.attrs = conv_attrs(32, "NOTSET", {2, 2}, {}, {1, 1, 1, 1});
  cases.push_back(aliasing.in(random_in({2, 512, 9, 9}).channels_last()).in(random_in({512, 16, 3, 3}).constant())
                      .runs("dnnl", avx512 ? Takes::channel_blocked : Takes::any));
  KernelCase grouped_64("Conv", 11, "4 groups over 64 channels, src offered channels-last");
  grouped_64.attrs = conv_attrs(4, "NOTSET", {}, {}, {1, 1, 1, 1});
  cases.push_back(grouped_64.in(random_in({1, 64, 8, 8}).channels_last()).in(random_in({64, 16, 3, 3}).constant())
                      .runs("dnnl", Takes::offered));
  KernelCase wished("Conv", 11, "dst wished nChw16c");
  wished.attrs = pads1;
  cases.push_back(wished.in(random_in({1, 16, 8, 8})).in(random_in({32, 16, 3, 3}).constant())
                      .wish_output(Offer::blocked));
  KernelCase empty("Conv", 11, "batch 0");
  empty.attrs = pads1;
  cases.push_back(empty.in(random_in({0, 2, 5, 4})).in(random_in({3, 2, 3, 3}).constant())
                      .declines("dnnl", "is empty"));
  cases.push_back(KernelCase("Conv", 1, "opset 1, default attributes")
                      .in(random_in({1, 2, 5, 4})).in(random_in({3, 2, 1, 1})));
  return cases;
}

std::vector<KernelCase> conv_transpose_cases() {
  struct Geometry {
    const char* what;
    Shape x, w;  // W [C, M/group, K...]
    int64_t group;
    const char* auto_pad;
    std::vector<int64_t> strides, dilations, pads, output_padding, output_shape;  // empty = not given
    bool bias;
  };
  const Geometry geometries[] = {
      {"1-D plain", {2, 3, 5}, {3, 4, 3}, 1, "NOTSET", {}, {}, {}, {}, {}, true},
      {"1-D stride 2, output_padding 1", {1, 2, 6}, {2, 3, 4}, 1, "NOTSET", {2}, {}, {1, 2}, {1}, {}, false},
      {"2-D plain", {1, 3, 4, 5}, {3, 2, 3, 3}, 1, "NOTSET", {}, {}, {}, {}, {}, true},
      {"2-D stride 2, pads 1", {2, 4, 5, 4}, {4, 3, 3, 3}, 1, "NOTSET", {2, 2}, {}, {1, 1, 1, 1}, {}, {}, true},
      {"2-D stride 3x2, asymmetric pads, output_padding", {1, 2, 4, 3}, {2, 2, 3, 2}, 1, "NOTSET", {3, 2}, {},
       {0, 1, 2, 0}, {2, 1}, {}, true},
      {"2-D dilations 2", {1, 2, 5, 5}, {2, 3, 3, 3}, 1, "NOTSET", {}, {2, 2}, {}, {}, {}, false},
      {"2-D groups 2", {2, 4, 4, 4}, {4, 3, 3, 3}, 2, "NOTSET", {2, 2}, {}, {1, 1, 1, 1}, {}, {}, true},
      {"2-D depthwise (groups = C)", {1, 8, 5, 5}, {8, 1, 4, 4}, 8, "NOTSET", {2, 2}, {}, {1, 1, 1, 1}, {}, {},
       true},
      {"2-D SAME_UPPER stride 2", {1, 2, 3, 4}, {2, 3, 4, 3}, 1, "SAME_UPPER", {2, 2}, {}, {}, {}, {}, true},
      {"2-D SAME_LOWER stride 2", {1, 2, 3, 4}, {2, 3, 3, 3}, 1, "SAME_LOWER", {2, 2}, {}, {}, {}, {}, true},
      {"2-D VALID", {1, 2, 3, 3}, {2, 2, 3, 3}, 1, "VALID", {}, {}, {}, {}, {}, false},
      {"2-D output_shape", {1, 2, 3, 3}, {2, 2, 3, 3}, 1, "NOTSET", {3, 2}, {}, {}, {}, {10, 8}, true},
      {"2-D output_shape with N, C, SAME_UPPER", {1, 2, 3, 3}, {2, 2, 3, 3}, 1, "SAME_UPPER", {2, 2}, {}, {}, {1, 1},
       {1, 2, 6, 7}, true},
      {"2-D output_shape larger than the full output", {1, 1, 2, 2}, {1, 2, 2, 2}, 1, "NOTSET", {}, {}, {}, {},
       {4, 5}, true},
      {"2-D 32 channels, stride 2 (upsampling)", {1, 32, 7, 7}, {32, 16, 2, 2}, 1, "NOTSET", {2, 2}, {}, {}, {}, {},
       true},
      {"3-D plain", {1, 2, 3, 4, 3}, {2, 2, 2, 3, 2}, 1, "NOTSET", {}, {}, {}, {}, {}, true},
      {"3-D strided, dilated, grouped, output_padding", {1, 4, 3, 3, 2}, {4, 1, 2, 2, 3}, 2, "NOTSET", {2, 3, 2},
       {1, 1, 2}, {1, 0, 0, 0, 1, 1}, {1, 2, 0}, {}, false},
  };
  std::vector<KernelCase> cases;
  for (const Geometry& g : geometries) {
    for (bool constant_weights : {false, true}) {
      KernelCase c(std::string("ConvTranspose"), 11,
                   std::string(g.what) + (constant_weights ? ", constant W and B" : ""));
      c.attrs = conv_attrs(g.group, g.auto_pad, g.strides, g.dilations, g.pads);
      if (!g.output_padding.empty()) c.attr("output_padding", ints(g.output_padding));
      if (!g.output_shape.empty()) c.attr("output_shape", ints(g.output_shape));
      c.in(random_in(g.x));
      c.in(constant_weights ? random_in(g.w).constant() : random_in(g.w));
      const int64_t M = g.w[1] * g.group;
      if (g.bias) c.in(constant_weights ? random_in({M}).constant() : random_in({M}));
      // Stride 1: the extra end cells are more than oneDNN's padding_r can express (conv_transpose_dnnl.cc).
      if (std::string(g.what).find("larger than the full output") != std::string::npos)
        c.declines("dnnl", "negative end pad");
      cases.push_back(c);
    }
  }
  cases.push_back(KernelCase("ConvTranspose", 1, "opset 1, default attributes")
                      .in(random_in({1, 2, 3, 4})).in(random_in({2, 3, 2, 2})));
  return cases;
}

// FusedConv is made by the fuse-conv pass (passes/fuse_conv.cc), never parsed: its params are built here as
// the pass builds them, from a Conv node's parse and a fusion of the activation table's rows.
KernelCase fused_conv(std::string what, const ActivationDef* act, ActivationArgs args, bool residual, bool bias,
                      Shape x, Shape w, CaseInput x_input) {
  ConvFusion fusion;
  fusion.residual = residual;
  fusion.activation = act;
  fusion.args = args;
  std::ostringstream note;
  note << fusion.summary() << " (activation args " << args.alpha << ", " << args.beta << ")";
  KernelCase c("FusedConv", 1, std::move(what));
  c.in_domain(kInternalDomain);
  c.attrs = conv_attrs(1, "NOTSET", {}, {}, {1, 1, 1, 1});
  c.params(note.str(), [fusion](const Node& n) -> ParamsPtr {
    Node conv = n;
    conv.op_type = "Conv";
    conv.domain = "";
    conv.opset = 11;
    conv.inputs.resize(std::min<size_t>(conv.inputs.size(), 3));
    auto p = std::make_shared<FusedConvParams>();
    p->conv = parse_conv(conv);
    p->fusion = fusion;
    return p;
  });
  const Shape y{x[0], w[0], x[2], x[3]};
  c.in(x_input).in(random_in(w, -0.5f, 0.5f).constant()).in(bias ? random_in({w[0]}).constant() : omitted());
  if (residual) c.in(random_in(y, -2.f, 2.f));
  return c;
}

// The arguments a row is fused with: its ONNX defaults, ReLU6 bounds for Clip.
ActivationArgs fused_args(const ActivationDef& row) {
  if (std::string(row.name) == "Clip") return {0.f, 6.f};
  return {row.alpha.fallback, row.beta.fallback};
}

std::vector<KernelCase> fused_conv_cases() {
  std::vector<KernelCase> cases;
  const Shape x{1, 16, 8, 8}, w{16, 16, 3, 3};
  for (const ActivationDef& row : activations()) {
    if (!row.fusable()) continue;
    for (bool residual : {false, true})
      cases.push_back(fused_conv(std::string("+") + row.name + (residual ? ", residual" : ""), &row, fused_args(row),
                                 residual, true, x, w, random_in(x)));
  }
  cases.push_back(fused_conv("residual only", nullptr, {}, true, true, x, w, random_in(x)));
  cases.push_back(fused_conv("no fusion", nullptr, {}, false, true, x, w, random_in(x)));
  cases.push_back(fused_conv("residual, no bias, +Relu", find_activation("Relu"), {}, true, false, x, w, random_in(x)));
  cases.push_back(fused_conv("LeakyRelu alpha 0.2", find_activation("LeakyRelu"), {0.2f, 0.f}, false, true, x, w,
                             random_in(x)));
  const Shape x32{1, 32, 7, 7}, w32{32, 32, 3, 3};
  cases.push_back(fused_conv("src offered nChw16c, residual, +Relu", find_activation("Relu"), {}, true, true, x32,
                             w32, random_in(x32).blocked()));
  // Swish runs after the primitive over the whole dst buffer: blocked dst, and a dst the readers wish blocked.
  cases.push_back(fused_conv("src offered nChw16c, +Swish", find_activation("Swish"), {}, false, true, x32, w32,
                             random_in(x32).blocked()));
  cases.push_back(fused_conv("dst wished nChw16c, +Swish", find_activation("Swish"), {}, false, true, x32, w32,
                             random_in(x32))
                      .wish_output(Offer::blocked));
  return cases;
}

// ---- matrix products ----

std::vector<KernelCase> gemm_cases() {
  struct Product {
    int64_t M, N, K;
    bool trans_a, trans_b;
    float alpha, beta;
    bool has_c;
    Shape c;
    int opset;
  };
  const Product products[] = {
      {3, 4, 5, false, false, 1.f, 1.f, false, {}, 13},
      {3, 4, 5, true, false, 1.f, 1.f, false, {}, 13},
      {3, 4, 5, false, true, 1.f, 1.f, false, {}, 13},
      {3, 4, 5, true, true, 0.5f, 1.f, false, {}, 13},
      {3, 4, 5, false, false, 1.f, 1.f, true, {3, 4}, 13},
      {3, 4, 5, false, true, 1.f, 1.f, true, {4}, 13},
      {3, 4, 5, false, false, 1.f, 1.f, true, {1, 4}, 13},
      {3, 4, 5, false, false, 0.25f, 0.35f, true, {3, 1}, 13},
      {3, 4, 5, true, true, 2.f, -1.5f, true, {}, 13},
      {3, 4, 5, false, false, 1.f, 0.f, true, {1, 1}, 13},
      {3, 4, 5, false, false, 1.f, 2.f, true, {1}, 13},
      {3, 4, 5, false, false, 0.f, 1.f, true, {3, 4}, 13},
      {1, 1000, 512, false, true, 1.f, 1.f, true, {1000}, 13},
      {8, 64, 2048, false, true, 1.f, 1.f, true, {64}, 13},
      {17, 9, 33, true, false, 1.5f, 0.5f, true, {17, 9}, 6},
      {4, 6, 1, false, false, 1.f, 1.f, true, {6}, 7},
      {2, 37, 70, false, false, 1.f, 3.f, true, {1, 37}, 13},
      {2, 37, 70, false, true, 1.f, 0.5f, true, {1, 1}, 13},
      {3, 4, 5, false, true, 1.f, -1.5f, true, {}, 13},
      {5, 1, 7, false, false, 1.f, 1.f, true, {1}, 13},
  };
  std::vector<KernelCase> cases;
  for (const Product& p : products) {
    // Constant B and C (a layer's weights and bias) take the inner product where A is not transposed and C is
    // a row; everything else the matmul.
    for (bool constant_b_c : {false, true}) {
      std::ostringstream what;
      what << "M " << p.M << " N " << p.N << " K " << p.K << (constant_b_c ? ", constant B and C" : "");
      KernelCase c("Gemm", p.opset, what.str());
      c.attr("transA", int_attr(p.trans_a)).attr("transB", int_attr(p.trans_b));
      c.attr("alpha", float_attr(p.alpha)).attr("beta", float_attr(p.beta));
      // B is scaled like a layer's weights (PyTorch's Linear init, U(+-1/sqrt(K))), so that outputs are O(1)
      // and the float32 partial sums stay within the premise of the op's tolerance.
      const float w = 1.f / std::sqrt(float(p.K));
      const CaseInput b = random_in(p.trans_b ? Shape{p.N, p.K} : Shape{p.K, p.N}, -w, w);
      c.in(random_in(p.trans_a ? Shape{p.K, p.M} : Shape{p.M, p.K})).in(constant_b_c ? b.constant() : b);
      if (p.has_c) c.in(constant_b_c ? random_in(p.c).constant() : random_in(p.c));
      // alpha 0, or beta 0 over a C that may hold NaN or inf: ONNX's 0 * NaN is NaN, oneDNN drops the term.
      if (p.alpha == 0) c.declines("dnnl", "alpha is 0");
      else if (p.has_c && p.beta == 0 && !constant_b_c) c.declines("dnnl", "beta is 0 and C may hold NaN");
      cases.push_back(c);
    }
  }
  cases.push_back(KernelCase("Gemm", 13, "K = 0 leaves beta * C")
                      .attr("beta", float_attr(3.f))
                      .in(random_in({2, 0})).in(random_in({0, 3})).in(random_in({2, 3}))
                      .declines("dnnl", "is empty"));
  return cases;
}

std::vector<KernelCase> matmul_cases() {
  const std::pair<Shape, Shape> shapes[] = {
      {{5}, {5}},
      {{5}, {5, 3}},
      {{4, 5}, {5}},
      {{4, 5}, {5, 3}},
      {{2, 3, 4, 5}, {5, 6}},
      {{4, 5}, {2, 5, 6}},
      {{2, 1, 4, 5}, {3, 5, 6}},
      {{1, 4, 5}, {4, 5, 6}},
      {{3, 1, 4, 5}, {1, 2, 5, 6}},
      {{5}, {2, 5, 6}},
      {{2, 4, 5}, {5}},
      {{2, 2, 2, 2, 3, 4}, {2, 1, 2, 4, 2}},
      {{64, 256}, {256, 128}},
  };
  std::vector<KernelCase> cases;
  for (const auto& [a, b] : shapes)
    cases.push_back(KernelCase("MatMul", 13, "A " + to_string(a) + " B " + to_string(b)).in(random_in(a)).in(random_in(b)));
  cases.push_back(KernelCase("MatMul", 13, "constant B").in(random_in({3, 7})).in(random_in({7, 4}).constant()));
  cases.push_back(KernelCase("MatMul", 13, "K = 0").in(random_in({2, 0})).in(random_in({0, 3}))
                      .declines("dnnl", "is empty"));
  cases.push_back(KernelCase("MatMul", 13, "batch 0").in(random_in({0, 2, 3})).in(random_in({3, 4}))
                      .declines("dnnl", "is empty"));
  // FusedMatMul (the fuse-matmul-bias pass's): MatMul plus a bias [N] per column.
  const std::pair<Shape, Shape> biased[] = {
      {{4, 5}, {5, 3}}, {{2, 7, 16}, {16, 8}}, {{5}, {5, 3}}, {{2, 1, 4, 5}, {3, 5, 6}}, {{64, 256}, {256, 128}}};
  for (const auto& [a, b] : biased)
    cases.push_back(KernelCase("FusedMatMul", 1, "A " + to_string(a) + " B " + to_string(b) + " + bias")
                        .in_domain(kInternalDomain).in(random_in(a)).in(random_in(b).constant())
                        .in(random_in({b.back()}, -2.f, 2.f).constant()));
  cases.push_back(KernelCase("FusedMatMul", 1, "batch 0").in_domain(kInternalDomain).in(random_in({0, 2, 3}))
                      .in(random_in({3, 4})).in(random_in({4})).declines("dnnl", "is empty"));
  return cases;
}

// ---- normalization and softmax ----

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
  auto bn = [](const std::string& what, const Shape& x, int opset, CaseInput x_input) {
    const int64_t C = x.size() == 1 ? 1 : x[1];
    return KernelCase("BatchNormalization", opset, what)
        .in(x_input).in(random_in({C}, 0.5f, 2.f)).in(random_in({C})).in(random_in({C})).in(random_in({C}, 0.1f, 3.f));
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
  for (bool blocked : {false, true}) {
    CaseInput x = random_in({1, 32, 7, 7}, -3.f, 3.f);
    cases.push_back(bn(std::string("then Relu") + (blocked ? ", X offered nChw16c" : ""), {1, 32, 7, 7}, 15,
                       blocked ? x.blocked() : x)
                        .params("then_relu", [](const Node& n) -> ParamsPtr {
                          auto p = std::make_shared<BatchNormParams>(parse_batch_norm(n));
                          p->then_relu = true;
                          return p;
                        }));
  }
  cases.push_back(bn("training_mode", {2, 3, 4}, 15, random_in({2, 3, 4}, -3.f, 3.f))
                      .attr("training_mode", int_attr(1)).declines("dnnl", "training_mode = 1"));
  cases.push_back(bn("training_mode, running statistics out", {3, 2, 2, 3}, 15, random_in({3, 2, 2, 3}, -3.f, 3.f))
                      .attr("training_mode", int_attr(1)).attr("momentum", float_attr(0.8f)).outputs(3)
                      .declines("dnnl", "training_mode = 1"));
  return cases;
}

// Rows (axis 1) of special values: [-inf, x, -inf, x] (the infinities weigh 0), all -inf (NaN, as
// Exp/ReduceSum/Div give), large values (no overflow after subtracting the max), one holding +inf and one
// holding NaN (all NaN: ONNX's sum is NaN). Along axis 0, columns mix them.
Tensor softmax_specials() {
  return make_tensor({5, 4}, {-kInf, 1.f, -kInf, 2.f, -kInf, -kInf, -kInf, -kInf, 1e30f, 1e30f, 3e30f, -1e30f,
                              0.f, kInf, 1.f, 2.f, 3.f, -1.f, kNaN, -kInf});
}

std::vector<KernelCase> softmax_cases() {
  struct Setting {
    Shape x;
    int64_t axis;
    int opset;
  };
  const Setting settings[] = {
      {{2, 3, 4}, 0, 13}, {{2, 3, 4}, 1, 13},    {{2, 3, 4}, 2, 13},  {{2, 3, 4}, -1, 13},
      {{5}, 0, 13},       {{2, 3, 4, 5}, 1, 13}, {{2, 1000}, 1, 13},  {{2, 3, 4}, 0, 11},
      {{2, 3, 4}, 1, 11}, {{2, 3, 4}, 2, 11},    {{2, 3, 4, 5}, -2, 1}, {{3, 10}, 1, 1},
  };
  std::vector<KernelCase> cases;
  for (const Setting& s : settings)
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
  struct Setting {
    Shape x;
    int64_t axis;
    int opset;
  };
  const Setting settings[] = {
      {{2, 3, 4}, 0, 13}, {{2, 3, 4}, 1, 13},    {{2, 3, 4}, 2, 13},  {{2, 3, 4}, -1, 13},
      {{5}, 0, 13},       {{2, 3, 4, 5}, 1, 13}, {{2, 1000}, 1, 13},  {{2, 3, 4}, 0, 11},
      {{2, 3, 4}, 1, 11}, {{2, 3, 4}, 2, 11},    {{2, 3, 4, 5}, -2, 1}, {{3, 10}, 1, 1},
  };
  std::vector<KernelCase> cases;
  for (const char* op : {"LogSoftmax", "Hardmax"}) {
    for (const Setting& s : settings)
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
        .in(random_in(stats)).in(random_in(stats)).in(random_in(stats, 0.1f, 3.f));
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
  return cases;
}

// ---- pooling ----

std::vector<KernelCase> pool_cases() {
  struct Window {
    const char* what;
    Shape x;
    std::vector<int64_t> kernel;
    const char* auto_pad;
    std::vector<int64_t> strides, dilations, pads;  // attributes; empty = not given
    bool ceil_mode;
    bool overhangs;  // a ceil_mode window reaches past input + pads (worked out by hand per axis)
  };
  const Window windows[] = {
      {"1-D default", {2, 3, 9}, {3}, "NOTSET", {}, {}, {}, false, false},
      {"1-D strided, asymmetric pads", {1, 2, 10}, {4}, "NOTSET", {3}, {}, {2, 1}, false, false},
      // out = ceil(7/2)+1 = 5, window 4 at [8, 11) > 10
      {"1-D ceil, overhang", {1, 2, 10}, {3}, "NOTSET", {2}, {}, {}, true, true},
      // extent 4, padded 13: out = ceil(9/2)+1 = 6, window 5 at [9, 13) > 12
      {"1-D dilated ceil, overhang", {1, 2, 12}, {2}, "NOTSET", {2}, {3}, {1, 0}, true, true},
      {"2-D pads 1", {1, 3, 5, 6}, {3, 3}, "NOTSET", {}, {}, {1, 1, 1, 1}, false, false},
      {"2-D asymmetric pads, stride 2", {2, 2, 7, 5}, {3, 3}, "NOTSET", {2, 2}, {}, {1, 0, 2, 1}, false, false},
      // out = ceil(1/2)+1 = 2, window 1 at [2, 5) > 4
      {"2-D ceil, overhang", {1, 1, 4, 4}, {3, 3}, "NOTSET", {2, 2}, {}, {}, true, true},
      // (7-3)/2 exact: ceil_mode changes nothing
      {"2-D ceil, exact", {1, 2, 7, 7}, {3, 3}, "NOTSET", {2, 2}, {}, {}, true, false},
      // H: out 4, window 3 at [5, 8) > 6+1; W: (9-3)/2 exact
      {"2-D ceil with pads, overhang along H only", {1, 2, 6, 7}, {3, 3}, "NOTSET", {2, 2}, {}, {1, 1, 1, 1}, true,
       true},
      // ceil gives 3 windows, the last would start at 4 (in the right padding) and is dropped
      {"2-D ceil, dropped window", {1, 1, 4, 4}, {2, 2}, "NOTSET", {2, 2}, {}, {0, 0, 1, 1}, true, false},
      {"2-D dilations 2x3", {1, 2, 9, 8}, {3, 2}, "NOTSET", {}, {2, 3}, {0, 1, 0, 1}, false, false},
      // H: extent 3, out 5, window 4 at [8, 11) > 10; W: (9-3)/3 exact
      {"2-D dilated strided ceil, overhang", {1, 2, 10, 9}, {2, 2}, "NOTSET", {2, 3}, {2, 2}, {}, true, true},
      {"2-D SAME_UPPER stride 2 (odd total pad)", {1, 3, 8, 7}, {4, 4}, "SAME_UPPER", {2, 2}, {}, {}, false, false},
      {"2-D SAME_LOWER stride 2", {1, 3, 8, 7}, {4, 4}, "SAME_LOWER", {2, 2}, {}, {}, false, false},
      {"2-D SAME_UPPER with ceil_mode (ignored)", {1, 2, 9, 6}, {3, 2}, "SAME_UPPER", {2, 2}, {}, {}, true, false},
      {"2-D VALID stride 3", {1, 2, 10, 11}, {3, 2}, "VALID", {3, 3}, {}, {}, false, false},
      {"2-D 32 channels", {2, 32, 14, 14}, {3, 3}, "NOTSET", {2, 2}, {}, {1, 1, 1, 1}, false, false},
      {"2-D squeezenet-like 3x3 stride 2 ceil", {1, 64, 55, 55}, {3, 3}, "NOTSET", {2, 2}, {}, {}, true, false},
      {"2-D kernel larger than input, padded", {1, 2, 2, 3}, {4, 4}, "NOTSET", {}, {}, {2, 1, 1, 2}, false, false},
      {"3-D default", {1, 2, 4, 5, 6}, {2, 3, 3}, "NOTSET", {}, {}, {}, false, false},
      {"3-D strided, asymmetric pads, dilated", {2, 2, 6, 7, 5}, {3, 2, 2}, "NOTSET", {2, 1, 2}, {1, 2, 1},
       {1, 0, 1, 0, 1, 1}, false, false},
      // D: out 3, window 2 at [4, 6) > 5; H exact; W: out 4, window 3 at [6, 8) > 7
      {"3-D ceil, overhang", {1, 2, 5, 6, 7}, {2, 2, 2}, "NOTSET", {2, 2, 2}, {}, {}, true, true},
  };
  struct Variant {
    const char* op;
    int opset;
    int count_include_pad;  // -1: MaxPool (no such attribute)
  };
  // AveragePool-19 has dilations; MaxPool-12 is its newest.
  const Variant variants[] = {{"AveragePool", 19, 0}, {"AveragePool", 19, 1}, {"MaxPool", 12, -1}};
  std::vector<KernelCase> cases;
  for (const Window& w : windows)
    for (const Variant& v : variants) {
      KernelCase c(v.op, v.opset, w.what);
      c.attr("kernel_shape", ints(w.kernel)).attr("auto_pad", string_attr(w.auto_pad));
      if (!w.strides.empty()) c.attr("strides", ints(w.strides));
      if (!w.dilations.empty()) c.attr("dilations", ints(w.dilations));
      if (!w.pads.empty()) c.attr("pads", ints(w.pads));
      if (w.ceil_mode) c.attr("ceil_mode", int_attr(1));
      if (v.count_include_pad >= 0) c.attr("count_include_pad", int_attr(v.count_include_pad));
      c.in(random_in(w.x));
      if (v.count_include_pad == 1 && w.overhangs) c.declines("dnnl", "ceil_mode window overhangs the padding");
      cases.push_back(c);
    }
  const Attributes window3 = [] {
    Attributes a;
    a.set("kernel_shape", ints({3, 3}));
    a.set("strides", ints({2, 2}));
    a.set("pads", ints({1, 1, 1, 1}));
    return a;
  }();
  for (const char* op : {"AveragePool", "MaxPool"}) {
    KernelCase c(op, op == std::string("MaxPool") ? 12 : 19, "X offered nChw16c");
    c.attrs = window3;
    cases.push_back(c.in(random_in({1, 32, 14, 14}).blocked()).runs("dnnl", Takes::offered_through));
    KernelCase old(op, 7, "opset 7");
    old.attrs = window3;
    cases.push_back(old.in(random_in({2, 3, 9, 9})));
  }
  KernelCase four_d_max("MaxPool", 12, "4 spatial dims");
  four_d_max.attr("kernel_shape", ints({2, 2, 2, 2}));
  cases.push_back(four_d_max.in(random_in({1, 1, 3, 3, 3, 3})).declines("dnnl", "spatial dims"));
  KernelCase four_d_avg("AveragePool", 19, "4 spatial dims");
  four_d_avg.attr("kernel_shape", ints({2, 2, 2, 2}));
  cases.push_back(four_d_avg.in(random_in({1, 1, 3, 3, 3, 3})).declines("dnnl", "spatial dims"));
  Tensor bytes(DType::u8, {1, 2, 4, 4});
  for (int64_t i = 0; i < bytes.numel(); ++i) bytes.data<uint8_t>()[i] = uint8_t((i * 37) % 251);
  cases.push_back(KernelCase("MaxPool", 12, "uint8").attr("kernel_shape", ints({2, 2})).in(given(bytes))
                      .declines("dnnl", "not float32"));
  // The Indices output: oneDNN gives no ONNX flat indices; storage_order alone changes nothing else.
  auto indices = [](const char* what) {
    return KernelCase("MaxPool", 12, what).attr("kernel_shape", ints({2, 2})).attr("storage_order", int_attr(1))
        .in(random_in({1, 2, 5, 5}));
  };
  cases.push_back(indices("Indices requested").outputs(2).declines("dnnl", "Indices"));
  cases.push_back(indices("Indices omitted").outputs(2).omit_output(1));
  cases.push_back(indices("storage_order, one output"));
  return cases;
}

std::vector<KernelCase> global_pool_cases() {
  const Shape shapes[] = {{2, 3, 7}, {1, 4, 5, 6}, {1, 3, 1, 1}, {1, 8, 56, 56}, {1, 2, 3, 4, 5}};
  std::vector<KernelCase> cases;
  for (const char* op : {"GlobalAveragePool", "GlobalMaxPool"}) {
    for (const Shape& x : shapes) cases.push_back(KernelCase(op, 1, "X " + to_string(x)).in(random_in(x)));
    cases.push_back(KernelCase(op, 1, "large mean offset").in(random_in({2, 5, 17, 13}, 99.f, 101.f)));
    cases.push_back(KernelCase(op, 1, "X offered nChw16c, padded channels").in(random_in({2, 20, 7, 7}).blocked()));
    cases.push_back(KernelCase(op, 1, "X offered nChw16c, 3-D").in(random_in({2, 17, 3, 4, 5}).blocked()));
    cases.push_back(KernelCase(op, 1, "4 spatial dims").in(random_in({1, 2, 3, 3, 3, 3}))
                        .declines("dnnl", "spatial dims"));
  }
  // The mean kernel reads blocked and channels-last layouts where they arrive (pool_lab_test.cc).
  cases.push_back(KernelCase("GlobalAveragePool", 1, "X offered nChw16c, 32 channels")
                      .in(random_in({1, 32, 14, 14}).blocked()).runs("mean", Takes::offered).runs("dnnl", Takes::offered_through));
  cases.push_back(KernelCase("GlobalAveragePool", 1, "one plane of many chunks").in(random_in({1, 1, 300001})));
  cases.push_back(KernelCase("GlobalAveragePool", 1, "batch 0").in(random_in({0, 3, 4, 4}))
                      .declines("dnnl", "is empty"));
  Tensor f64(DType::f64, {1, 2, 3, 3});
  for (int64_t i = 0; i < f64.numel(); ++i) f64.data<double>()[i] = std::sin(double(i));
  cases.push_back(KernelCase("GlobalAveragePool", 1, "float64").in(given(f64))
                      .declines("mean", "float64, not float32").declines("dnnl", "float64, not float32"));
  cases.push_back(KernelCase("GlobalMaxPool", 1, "float64").in(given(f64)).declines("dnnl", "float64, not float32"));
  return cases;
}

std::vector<KernelCase> adaptive_pool_cases() {
  struct Setting {
    int k;
    Shape x;
    std::vector<int64_t> size;
  };
  const Setting settings[] = {
      {1, {1, 1, 5}, {3}},         {1, {2, 3, 5}, {7}},          // more outputs than inputs
      {2, {1, 1, 3, 4}, {2, 3}},   {2, {1, 3, 4}, {2, 3}},       // unbatched [C, H, W]
      {3, {1, 1, 2, 2, 2}, {1, 1, 1}}, {3, {2, 3, 5, 6, 7}, {2, 4, 3}},
      {2, {1, 1, 3, 4}, {0, 3}},   // PyTorch allows empty outputs
      {2, {2, 5, 37, 41}, {1, 1}}, {2, {2, 5, 37, 41}, {5, 6}}, {2, {2, 5, 37, 41}, {37, 41}},
      {2, {2, 5, 37, 41}, {50, 3}},
  };
  std::vector<KernelCase> cases;
  for (const Setting& s : settings)
    cases.push_back(KernelCase("adaptive_avg_pool" + std::to_string(s.k) + "d", 1,
                               "X " + to_string(s.x) + " to " + str(s.size))
                        .in_domain(kAtenDomain).in(random_in(s.x)).in(ints_in(s.size)));
  Tensor f64(DType::f64, {1, 2, 5, 5});
  for (int64_t i = 0; i < f64.numel(); ++i) f64.data<double>()[i] = std::cos(double(i));
  cases.push_back(KernelCase("adaptive_avg_pool2d", 1, "float64").in_domain(kAtenDomain).in(given(f64))
                      .in(ints_in({2, 3})).declines("adaptive", "not float32"));
  return cases;
}

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

// ---- shape ops ----

std::vector<KernelCase> shape_cases() {
  std::vector<KernelCase> cases;
  const Tensor ints3 = make_int_tensor({2, 3}, {1, -2, 3, -4, 5, -6});
  // Transpose (dnnl: one reorder from the layout the input arrives in).
  cases.push_back(KernelCase("Transpose", 13, "default perm (reversed)").in(random_in({2, 3, 4})));
  cases.push_back(KernelCase("Transpose", 13, "to channels last").attr("perm", ints({0, 2, 3, 1}))
                      .in(random_in({2, 3, 4, 5})));
  cases.push_back(KernelCase("Transpose", 13, "X offered nChw16c").attr("perm", ints({0, 2, 3, 1}))
                      .in(random_in({1, 32, 4, 5}).blocked()));
  cases.push_back(KernelCase("Transpose", 13, "X offered nChw16c, padded channels").attr("perm", ints({1, 0, 3, 2}))
                      .in(random_in({2, 20, 3, 5}).blocked()));
  cases.push_back(KernelCase("Transpose", 13, "int64").in(given(ints3)).declines("dnnl", "int64, not float32"));
  cases.push_back(KernelCase("Transpose", 13, "scalar").in(random_in({})).declines("dnnl", "a scalar"));
  // Concat (channels-last: one copy per pixel and input, for inputs and output channels-last along C; dnnl:
  // the concat primitive over the inputs as they arrive).
  const std::string not_channels_last = "not channels-last";
  cases.push_back(KernelCase("Concat", 13, "channels").attr("axis", int_attr(1))
                      .in(random_in({1, 16, 3, 3})).in(random_in({1, 8, 3, 3})).in(random_in({1, 4, 3, 3}))
                      .declines("channels-last", "every input arrives plain"));
  cases.push_back(KernelCase("Concat", 13, "axis 0").attr("axis", int_attr(0))
                      .in(random_in({2, 3})).in(random_in({1, 3})).declines("channels-last", "rank 2"));
  cases.push_back(KernelCase("Concat", 13, "axis -1").attr("axis", int_attr(-1))
                      .in(random_in({2, 3, 4})).in(random_in({2, 3, 1})).declines("channels-last", "rank 3"));
  cases.push_back(KernelCase("Concat", 13, "channels-last inputs along W").attr("axis", int_attr(-1))
                      .in(random_in({2, 3, 4, 2}).channels_last()).in(random_in({2, 3, 4, 1}).channels_last())
                      .declines("channels-last", "joins along axis 3, not channels"));
  cases.push_back(KernelCase("Concat", 13, "one input").attr("axis", int_attr(0)).in(random_in({5}))
                      .declines("channels-last", "rank 1"));
  cases.push_back(KernelCase("Concat", 13, "inputs offered nChw16c").attr("axis", int_attr(1))
                      .in(random_in({1, 16, 5, 5}).blocked()).in(random_in({1, 32, 5, 5}).blocked())
                      .runs("dnnl", Takes::offered).declines("channels-last", not_channels_last));
  cases.push_back(KernelCase("Concat", 13, "output wished nChw16c").attr("axis", int_attr(1))
                      .in(random_in({1, 16, 5, 5})).in(random_in({1, 16, 5, 5})).wish_output(Offer::blocked)
                      .declines("channels-last", "every input arrives plain"));
  cases.push_back(KernelCase("Concat", 13, "batch 2, blocked and plain inputs").attr("axis", int_attr(1))
                      .in(random_in({2, 20, 3, 3}).blocked()).in(random_in({2, 5, 3, 3}))
                      .declines("channels-last", not_channels_last));
  cases.push_back(KernelCase("Concat", 13, "an empty part").attr("axis", int_attr(1))
                      .in(random_in({1, 0, 3, 3})).in(random_in({1, 4, 3, 3})).declines("dnnl", "is empty")
                      .declines("channels-last", "every input arrives plain"));
  cases.push_back(KernelCase("Concat", 13, "an empty part beside a channels-last one").attr("axis", int_attr(1))
                      .in(random_in({1, 0, 3, 3})).in(random_in({1, 4, 3, 3}).channels_last())
                      .declines("dnnl", "is empty").declines("channels-last", "input 0 is empty"));
  cases.push_back(KernelCase("Concat", 13, "one channel each: channels-last is plain").attr("axis", int_attr(1))
                      .in(random_in({1, 1, 3, 3})).in(random_in({1, 1, 3, 3}))
                      .declines("channels-last", "every input arrives plain"));
  cases.push_back(KernelCase("Concat", 13, "int64, one channel each").attr("axis", int_attr(1))
                      .in(given(make_int_tensor({1, 1, 2, 2}, {1, 2, 3, 4})))
                      .in(given(make_int_tensor({1, 1, 2, 2}, {5, 6, 7, 8})))
                      .declines("dnnl", "int64, not float32").declines("channels-last", "int64, not float32"));
  cases.push_back(KernelCase("Concat", 13, "int64").attr("axis", int_attr(0)).in(given(ints3)).in(given(ints3))
                      .declines("dnnl", "int64, not float32").declines("channels-last", "rank 2"));
  cases.push_back(KernelCase("Concat", 13, "channels-last, batch 2, 3 inputs").attr("axis", int_attr(1))
                      .in(random_in({2, 16, 3, 5}).channels_last()).in(random_in({2, 8, 3, 5}).channels_last())
                      .in(random_in({2, 5, 3, 5}).channels_last()).runs("channels-last", Takes::offered));
  cases.push_back(KernelCase("Concat", 13, "channels-last, 1 spatial dim (a transposed token layout too)")
                      .attr("axis", int_attr(1)).in(random_in({3, 4, 7}).channels_last())
                      .in(random_in({3, 2, 7}).channels_last()).declines("channels-last", "rank 3"));
  cases.push_back(KernelCase("Concat", 13, "channels-last 3-D spatial").attr("axis", int_attr(-4))
                      .in(random_in({1, 3, 2, 3, 4}).channels_last()).in(random_in({1, 6, 2, 3, 4}).channels_last())
                      .runs("channels-last", Takes::offered));
  cases.push_back(KernelCase("Concat", 13, "channels-last and plain inputs").attr("axis", int_attr(1))
                      .in(random_in({2, 16, 3, 3}).channels_last()).in(random_in({2, 8, 3, 3}))
                      .declines("channels-last", "input 1 arrives plain, not channels-last"));
  cases.push_back(KernelCase("Concat", 13, "channels-last inputs, output wished nChw16c").attr("axis", int_attr(1))
                      .in(random_in({1, 16, 3, 3}).channels_last()).in(random_in({1, 16, 3, 3}).channels_last())
                      .wish_output(Offer::blocked).declines("channels-last", "output 0 is wished aBcd16b"));
  // Slice (dnnl: one reorder from a sub-memory view, unit steps).
  cases.push_back(KernelCase("Slice", 13, "two axes").in(random_in({2, 5, 6}))
                      .in(ints_in({1, 0})).in(ints_in({2, 4})).in(ints_in({0, 2})));
  cases.push_back(KernelCase("Slice", 13, "clamped and negative ends").in(random_in({4, 7}))
                      .in(ints_in({-3, 2})).in(ints_in({100, -1})));
  cases.push_back(KernelCase("Slice", 13, "step 2").in(random_in({4, 7}))
                      .in(ints_in({1})).in(ints_in({7})).in(ints_in({1})).in(ints_in({2}))
                      .declines("dnnl", "steps other than 1"));
  cases.push_back(KernelCase("Slice", 13, "negative step").in(random_in({4, 7}))
                      .in(ints_in({-1})).in(ints_in({-100})).in(ints_in({0})).in(ints_in({-1}))
                      .declines("dnnl", "steps other than 1"));
  cases.push_back(KernelCase("Slice", 13, "empty").in(random_in({4, 7})).in(ints_in({3})).in(ints_in({3}))
                      .declines("dnnl", "the slice is empty"));
  cases.push_back(KernelCase("Slice", 13, "channels 16..32 of nChw16c").in(random_in({1, 48, 4, 4}).blocked())
                      .in(ints_in({16})).in(ints_in({32})).in(ints_in({1})).runs("dnnl", Takes::offered));
  cases.push_back(KernelCase("Slice", 13, "channels 8..24 of nChw16c (inside blocks)")
                      .in(random_in({1, 32, 4, 4}).blocked()).in(ints_in({8})).in(ints_in({24})).in(ints_in({1}))
                      .runs("dnnl", Takes::plain));
  cases.push_back(KernelCase("Slice", 1, "attributes").attr("starts", ints({0, 1})).attr("ends", ints({1, 3}))
                      .in(random_in({3, 4})));
  cases.push_back(KernelCase("Slice", 13, "int64").in(given(ints3)).in(ints_in({1})).in(ints_in({3})).in(ints_in({1}))
                      .declines("dnnl", "int64, not float32"));
  // Views and copies: reference kernels only.
  cases.push_back(KernelCase("Reshape", 14, "0 and -1").in(random_in({2, 3, 4})).in(ints_in({0, -1})));
  cases.push_back(KernelCase("Reshape", 5, "opset 5").in(random_in({2, 3, 4})).in(ints_in({4, 6})));
  cases.push_back(KernelCase("Flatten", 13, "axis 2").attr("axis", int_attr(2)).in(random_in({2, 3, 4, 5})));
  cases.push_back(KernelCase("Squeeze", 13, "axes input").in(random_in({2, 1, 4, 1})).in(ints_in({1})));
  cases.push_back(KernelCase("Squeeze", 11, "axes attribute").attr("axes", ints({-1})).in(random_in({2, 1, 4, 1})));
  cases.push_back(KernelCase("Unsqueeze", 13, "axes input").in(random_in({3, 4})).in(ints_in({0, 3})));
  cases.push_back(KernelCase("Unsqueeze", 11, "axes attribute").attr("axes", ints({1})).in(random_in({3, 4})));
  cases.push_back(KernelCase("Gather", 13, "constant indices").attr("axis", int_attr(1)).in(random_in({3, 4, 5}))
                      .in(given(make_int_tensor({3}, {2, -1, 0})).constant()).declines("dnnl", "3 indices"));
  cases.push_back(KernelCase("Gather", 13, "runtime 2-D indices").in(random_in({5, 2}))
                      .in(given(make_int_tensor({2, 2}, {4, 0, -2, 1}))).declines("dnnl", "known only at run time"));
  // Gather (dnnl: one reorder from the sub-memory at one constant index).
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
  cases.push_back(KernelCase("Shape", 13, "every dim").in(random_in({2, 3, 4})));
  cases.push_back(KernelCase("Shape", 15, "start 1").attr("start", int_attr(1)).in(random_in({2, 3, 4})));
  cases.push_back(KernelCase("Cast", 13, "float32 to int64").attr("to", int_attr(7))
                      .in(given(special_values(true))));
  cases.push_back(KernelCase("Cast", 13, "float32 to float64").attr("to", int_attr(11)).in(random_in({3, 4})));
  cases.push_back(KernelCase("Cast", 13, "int64 to float32").attr("to", int_attr(1)).in(given(ints3)));
  cases.push_back(KernelCase("Constant", 13, "tensor value").attr("value", tensor_attr(make_tensor({2, 3}))));
  cases.push_back(KernelCase("Constant", 13, "value_ints").attr("value_ints", ints({4, -5, 6})));
  cases.push_back(KernelCase("Identity", 13, "float32").in(random_in({2, 3})));
  cases.push_back(KernelCase("Identity", 13, "int64").in(given(ints3)));
  cases.push_back(KernelCase("Dropout", 13, "inference").in(random_in({2, 3})));
  cases.push_back(KernelCase("Dropout", 13, "with mask").in(random_in({2, 3})).outputs(2));
  cases.push_back(KernelCase("Dropout", 7, "ratio attribute").attr("ratio", float_attr(0.3f)).in(random_in({4})));
  const CaseInput pads = ints_in({0, 0, 1, 2, 0, 0, 2, 1});
  for (const char* mode : {"constant", "reflect", "edge", "wrap"}) {
    KernelCase c = KernelCase("Pad", 19, mode).attr("mode", string_attr(mode)).in(random_in({1, 2, 3, 4})).in(pads);
    if (std::string(mode) != "constant") c.declines("dnnl", "only constant mode");
    cases.push_back(c);
  }
  cases.push_back(KernelCase("Pad", 19, "constant value, negative pads").in(random_in({2, 5}))
                      .in(ints_in({1, -1, 0, 2})).in(given(make_tensor({}, {7.5f})).constant())
                      .declines("dnnl", "negative pads"));
  cases.push_back(KernelCase("Pad", 19, "constant value input, not constant").in(random_in({2, 5}))
                      .in(ints_in({1, 0, 0, 2})).in(given(make_tensor({}, {7.5f}))));
  cases.push_back(KernelCase("Pad", 18, "axes").in(random_in({2, 3, 4})).in(ints_in({1, 2, 0, 3}))
                      .in(omitted()).in(ints_in({-1, 0})));
  cases.push_back(KernelCase("Pad", 13, "nChw16c input (taken plain)").in(random_in({1, 16, 5, 6}).blocked())
                      .in(ints_in({0, 0, 1, 1, 0, 0, 1, 1})).runs("dnnl", Takes::plain));
  cases.push_back(KernelCase("Pad", 13, "int64").in(given(ints3)).in(ints_in({1, 0, 0, 1})).declines("dnnl", "not float32"));
  cases.push_back(KernelCase("Pad", 2, "attributes").attr("pads", ints({1, 0, 0, 1})).attr("value", float_attr(-1.f))
                      .in(random_in({2, 3})));
  // ChannelShuffle is made by the channel-shuffle pass (passes/channel_shuffle.cc), never parsed.
  auto shuffle = [](const char* what, int64_t groups) {
    return KernelCase("ChannelShuffle", 1, what).in_domain(kInternalDomain)
        .params("groups " + std::to_string(groups), [groups](const Node&) -> ParamsPtr {
          auto p = std::make_shared<ChannelShuffleParams>();
          p->groups = groups;
          return p;
        });
  };
  cases.push_back(shuffle("one input, 3 groups", 3).in(random_in({2, 12, 3, 3})));
  cases.push_back(shuffle("one input, 2 groups, 1-D", 2).in(random_in({1, 8, 5})));
  cases.push_back(shuffle("4 inputs", 4).in(random_in({1, 3, 2, 2})).in(random_in({1, 3, 2, 2}))
                      .in(random_in({1, 3, 2, 2})).in(random_in({1, 3, 2, 2})));
  cases.push_back(shuffle("X offered nChw16c: taken plain", 2).in(random_in({1, 32, 3, 3}).blocked())
                      .runs("dnnl", Takes::plain));
  return cases;
}

// ---- ops that make, select or scatter elements by data (ops/tensor: ConstantOfShape ... Trilu) and the
// legacy opsets of the shape ops: reference kernels only ----

std::vector<KernelCase> data_cases() {
  std::vector<KernelCase> cases;
  const Tensor ints6 = make_int_tensor({2, 3}, {1, -2, 3, -4, 5, -6});
  auto scalar = [](float v) { return given(make_tensor({}, {v})).constant(); };
  auto int_scalar = [](int64_t v) { return given(make_int_tensor({}, {v})).constant(); };
  Tensor int_value(DType::i64, {1});
  int_value.data<int64_t>()[0] = 7;
  cases.push_back(KernelCase("ConstantOfShape", 9, "default float 0").in(ints_in({2, 3})));
  cases.push_back(KernelCase("ConstantOfShape", 9, "int64 value").attr("value", tensor_attr(int_value))
                      .in(ints_in({4, 1, 2})));
  cases.push_back(KernelCase("ConstantOfShape", 9, "empty").in(ints_in({0, 3})));
  cases.push_back(KernelCase("Expand", 13, "both ways").in(random_in({3, 1})).in(ints_in({2, 1, 4})));
  cases.push_back(KernelCase("Expand", 8, "int64, same rank").in(given(make_int_tensor({1, 3}, {1, 2, 3})))
                      .in(ints_in({2, 3})));
  cases.push_back(KernelCase("Tile", 13, "repeats").in(random_in({2, 3})).in(ints_in({2, 3})));
  cases.push_back(KernelCase("Tile", 13, "a zero repeat").in(random_in({2, 3})).in(ints_in({0, 3})));
  cases.push_back(KernelCase("Tile", 6, "int64").in(given(ints6)).in(ints_in({1, 2})));
  cases.push_back(KernelCase("Tile", 1, "tiles and axis").in(random_in({2, 3}))
                      .in(int_scalar(3)).in(int_scalar(1)));
  cases.push_back(KernelCase("Range", 11, "float").in(scalar(1.f)).in(scalar(5.5f)).in(scalar(0.5f)));
  cases.push_back(KernelCase("Range", 11, "int64 negative delta").in(int_scalar(10)).in(int_scalar(-3))
                      .in(int_scalar(-4)));
  cases.push_back(KernelCase("Range", 11, "empty").in(int_scalar(3)).in(int_scalar(1)).in(int_scalar(1)));
  cases.push_back(KernelCase("Split", 13, "equal parts").attr("axis", int_attr(1)).in(random_in({2, 6, 2}))
                      .outputs(3));
  cases.push_back(KernelCase("Split", 13, "sizes input").in(random_in({5, 2})).in(ints_in({2, 0, 3})).outputs(3));
  cases.push_back(KernelCase("Split", 11, "sizes attribute").attr("axis", int_attr(-1)).attr("split", ints({1, 3}))
                      .in(given(make_int_tensor({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}))).outputs(2)
                      .declines("dnnl", "int64, not float32"));
  cases.push_back(KernelCase("Split", 13, "channels 16 + 32 of nChw16c").attr("axis", int_attr(1))
                      .in(random_in({1, 48, 3, 3}).blocked()).in(ints_in({16, 32})).outputs(2)
                      .runs("dnnl", Takes::offered));
  cases.push_back(KernelCase("Split", 13, "channels 8 + 24 of nChw16c (inside blocks)").attr("axis", int_attr(1))
                      .in(random_in({2, 32, 2, 3}).blocked()).in(ints_in({8, 24})).outputs(2)
                      .runs("dnnl", Takes::plain));
  cases.push_back(KernelCase("Split", 13, "one part").in(random_in({3, 2})).outputs(1));
  cases.push_back(KernelCase("Split", 13, "int64 equal parts").in(given(make_int_tensor({4}, {1, 2, 3, 4}))).outputs(2)
                      .declines("dnnl", "int64, not float32"));
  cases.push_back(KernelCase("Split", 18, "num_outputs, smaller last").attr("num_outputs", int_attr(3))
                      .in(random_in({7})).outputs(3));
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
  cases.push_back(KernelCase("DepthToSpace", 13, "DCR").attr("blocksize", int_attr(2)).in(random_in({1, 8, 2, 3})));
  cases.push_back(KernelCase("DepthToSpace", 13, "CRD").attr("blocksize", int_attr(2)).attr("mode", string_attr("CRD"))
                      .in(random_in({2, 4, 2, 2})));
  cases.push_back(KernelCase("DepthToSpace", 1, "opset 1").attr("blocksize", int_attr(3)).in(random_in({1, 9, 1, 2})));
  cases.push_back(KernelCase("SpaceToDepth", 13, "blocksize 2").attr("blocksize", int_attr(2))
                      .in(random_in({1, 2, 4, 6})));
  cases.push_back(KernelCase("SpaceToDepth", 13, "blocksize 3, batch 2, X offered nChw16c: taken plain")
                      .attr("blocksize", int_attr(3)).in(random_in({2, 17, 6, 3}).blocked()).runs("dnnl", Takes::plain));
  cases.push_back(KernelCase("DepthToSpace", 13, "CRD, X offered nChw16c: taken plain").attr("blocksize", int_attr(2))
                      .attr("mode", string_attr("CRD")).in(random_in({1, 32, 3, 2}).blocked()).runs("dnnl", Takes::plain));
  cases.push_back(KernelCase("DepthToSpace", 13, "int64").attr("blocksize", int_attr(2))
                      .in(given(make_int_tensor({1, 4, 1, 1}, {1, 2, 3, 4}))).declines("dnnl", "int64, not float32"));
  cases.push_back(KernelCase("Trilu", 14, "upper").in(random_in({2, 3, 4})));
  cases.push_back(KernelCase("Trilu", 14, "lower, k -1").attr("upper", int_attr(0)).in(random_in({4, 3}))
                      .in(int_scalar(-1)));
  cases.push_back(KernelCase("Trilu", 14, "int64, k beyond").in(given(ints6)).in(int_scalar(5)));
  // Legacy opsets of the shape ops.
  cases.push_back(KernelCase("Reshape", 1, "shape attribute").attr("shape", ints({3, -1}))
                      .attr("consumed_inputs", ints({0})).in(random_in({2, 3, 2})));
  cases.push_back(KernelCase("Reshape", 4, "shape attribute with 0").attr("shape", ints({0, 6}))
                      .in(random_in({2, 3, 2})));
  cases.push_back(KernelCase("Pad", 1, "paddings").attr("paddings", ints({0, 1, 1, 0})).attr("value", float_attr(2.f))
                      .in(random_in({2, 3})));
  cases.push_back(KernelCase("Pad", 1, "reflect").attr("paddings", ints({0, 2, 0, 1})).attr("mode", string_attr("reflect"))
                      .in(random_in({2, 4})).declines("dnnl", "only constant mode"));
  cases.push_back(KernelCase("Cast", 1, "to 'INT32'").attr("to", string_attr("INT32")).in(random_in({2, 3}, -5, 5)));
  cases.push_back(KernelCase("Cast", 5, "to 'DOUBLE'").attr("to", string_attr("DOUBLE")).in(random_in({3})));
  cases.push_back(KernelCase("Dropout", 6, "is_test").attr("is_test", int_attr(1)).attr("ratio", float_attr(0.2f))
                      .in(random_in({2, 3})).outputs(2));
  cases.push_back(KernelCase("Dropout", 1, "consumed_inputs").attr("consumed_inputs", ints({0})).in(random_in({4})));
  cases.push_back(KernelCase("Concat", 3, "default axis 1").in(random_in({2, 1})).in(random_in({2, 2}))
                      .declines("channels-last", "rank 2"));
  cases.push_back(KernelCase("Concat", 3, "default axis 1, channels-last").in(random_in({2, 1, 3, 2}).channels_last())
                      .in(random_in({2, 2, 3, 2}).channels_last()).runs("channels-last", Takes::offered));
  cases.push_back(KernelCase("Gather", 1, "opset 1").in(random_in({4, 2})).in(given(make_int_tensor({2}, {3, 0})))
                      .declines("dnnl", "known only at run time"));
  cases.push_back(KernelCase("Gather", 1, "opset 1, one constant index").in(random_in({4, 2}))
                      .in(given(make_int_tensor({1}, {3})).constant()));
  cases.push_back(KernelCase("Identity", 1, "opset 1").in(random_in({3})));
  cases.push_back(KernelCase("Flatten", 1, "opset 1 default axis").in(random_in({2, 3, 4})));
  cases.push_back(KernelCase("Slice", 9, "attributes with axes").attr("starts", ints({1})).attr("ends", ints({-1}))
                      .attr("axes", ints({1})).in(random_in({2, 5})));
  cases.push_back(KernelCase("Squeeze", 1, "no axes").in(random_in({1, 3, 1})));
  cases.push_back(KernelCase("Unsqueeze", 1, "axes attribute").attr("axes", ints({0, 2})).in(random_in({3})));
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


// Einsum: dnnl runs the equations of two operands that are a matrix product after permuting axes (with
// copies where the strides do not suit oneDNN: ops/gemm/einsum_dnnl.cc), and declines the rest.
std::vector<KernelCase> einsum_cases() {
  struct Eq {
    const char* equation;
    std::vector<Shape> shapes;
    const char* declines = nullptr;  // a part of the dnnl kernel's reason
    size_t constant = 2;             // the constant input, if any
  };
  const Eq eqs[] = {
      {"ij,jk->ik", {{3, 4}, {4, 5}}},
      {"bij,bjk->bik", {{3, 5, 6}, {3, 6, 7}}},
      {"bhid,bhjd->bhij", {{2, 3, 4, 5}, {2, 3, 6, 5}}},  // attention's Q K^T: B read transposed
      // maxvit_t's two equations (window and grid attention), with its shapes
      {"B G H I D, B G H J D -> B G H I J", {{1, 16, 4, 49, 32}, {1, 16, 4, 49, 32}}},
      {"B G H I J, B G H J D -> B G H I D", {{1, 16, 4, 49, 49}, {1, 16, 4, 49, 32}}},
      // permuted operands and outputs
      {"ji,jk->ik", {{4, 3}, {4, 5}}},
      {"ik,jk->ij", {{3, 4}, {5, 4}}},
      {"ij,jk->ki", {{3, 4}, {4, 5}}},                    // Y's unit stride in M: computed as Y^T = B^T A^T
      {"bij,bjk->bki", {{2, 3, 4}, {2, 4, 5}}},
      {"bij,bjk->ibk", {{2, 3, 4}, {2, 4, 5}}},           // batch between M and N in Y
      {"bij,bjk->ikb", {{2, 3, 4}, {2, 4, 5}}},           // batch innermost in Y: Y written densely, copied
      {"ijb,bjk->bik", {{3, 4, 2}, {2, 4, 5}}},           // no unit stride in A's matrix dims: A copied
      // K over two letters: one run of memory in both; in another order in B (B copied); a constant A whose K
      // axes are apart (prepared once, in B's order)
      {"bikl,bklj->bij", {{2, 3, 4, 5}, {2, 4, 5, 6}}},
      {"bikl,blkj->bij", {{2, 3, 4, 5}, {2, 5, 4, 6}}},
      {"lik,klj->ij", {{5, 3, 4}, {4, 5, 6}}, nullptr, 0},
      {"bij,jk->bik", {{2, 3, 4}, {4, 5}}, nullptr, 1},   // a layer: constant weights
      // M over two letters in another order in Y: the first becomes a batch dim B broadcasts
      {"aib,bj->ija", {{3, 4, 5}, {5, 6}}},
      // broadcast and summed "..." dims; dims of 1
      {"...ij,...jk", {{2, 1, 3, 4}, {5, 4, 2}}},
      {"...ij,...jk->...ik", {{3, 1, 2, 4}, {1, 5, 4, 3}}},
      {"...ij,...jk->ik", {{2, 3, 4}, {2, 4, 5}}},
      {"bij,bjk->bik", {{1, 3, 4}, {1, 4, 5}}},
      {"ij,jk->ik", {{3, 1}, {1, 5}}},
      // no M, N or K
      {"i,j", {{3}, {4}}},
      {"i,i", {{7}, {7}}},
      {"bi,bi->b", {{3, 7}, {3, 7}}},
      // not a matrix product
      {"ii", {{4, 4}}, "1 operand"},
      {"ii->i", {{4, 4}}, "1 operand"},
      {"ij->", {{3, 4}}, "1 operand"},
      {"...ii->...i", {{2, 3, 3}}, "1 operand"},
      {"ab,bc,cd->ad", {{2, 3}, {3, 4}, {4, 2}}, "3 operands"},
      {"ii,ij->j", {{3, 3}, {3, 4}}, "a diagonal: label 'i' twice in input 0"},
      {"ij,jk->k", {{3, 4}, {4, 5}}, "label 'i' is summed in input 0 only"},
      {"...ij,jk->ik", {{2, 3, 4}, {4, 5}}, "'...' dim 0 is summed in input 0 only"},
  };
  std::vector<KernelCase> cases;
  for (const Eq& e : eqs) {
    const std::string constant = e.constant < 2 ? ", constant input " + std::to_string(e.constant) : "";
    KernelCase c("Einsum", 12, e.equation + constant);
    c.attr("equation", string_attr(e.equation));
    for (size_t i = 0; i < e.shapes.size(); ++i)
      c.in(i == e.constant ? random_in(e.shapes[i]).constant() : random_in(e.shapes[i]));
    if (e.declines) c.declines("dnnl", e.declines);
    cases.push_back(c);
  }
  cases.push_back(KernelCase("Einsum", 12, "float64").attr("equation", string_attr("ij,jk->ik"))
                      .in(given(Tensor(DType::f64, {2, 3}))).in(given(Tensor(DType::f64, {3, 2})))
                      .declines("dnnl", "not float32"));
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

// ---- Resize and Upsample (ops/resize/resize_dnnl.cc says where oneDNN runs) ----

CaseInput floats_in(std::vector<float> v) { return given(make_tensor({int64_t(v.size())}, v)).constant(); }

// Resize-13 with scales (roi omitted).
KernelCase resize_scales(const std::string& what, Shape x, std::vector<float> scales, int opset = 13) {
  return KernelCase("Resize", opset, what).in(random_in(std::move(x))).in(omitted()).in(floats_in(std::move(scales)));
}
// Resize-13 with sizes (roi and scales omitted).
KernelCase resize_sizes(const std::string& what, Shape x, std::vector<int64_t> sizes, int opset = 13) {
  return KernelCase("Resize", opset, what).in(random_in(std::move(x))).in(omitted()).in(omitted())
      .in(ints_in(std::move(sizes)));
}

std::vector<KernelCase> resize_cases() {
  const Attribute linear = string_attr("linear"), cubic = string_attr("cubic");
  std::vector<KernelCase> cases;
  // nearest: oneDNN rounds the half-pixel coordinate half up; the kernel compares every cell's choice.
  cases.push_back(resize_scales("nearest x2, round_prefer_floor never ties", {1, 3, 5, 6}, {1, 1, 2, 2}));
  cases.push_back(resize_scales("nearest x2 round_prefer_ceil", {2, 3, 5, 6}, {1, 1, 2, 2})
                      .attr("nearest_mode", string_attr("round_prefer_ceil")));
  cases.push_back(resize_scales("nearest /2: round_prefer_floor ties at every cell", {1, 2, 8, 8}, {1, 1, 0.5f, 0.5f})
                      .declines("dnnl", "rounds the half-pixel coordinate half up"));
  cases.push_back(resize_scales("nearest /2 round_prefer_ceil", {1, 2, 8, 8}, {1, 1, 0.5f, 0.5f})
                      .attr("nearest_mode", string_attr("round_prefer_ceil")));
  cases.push_back(resize_scales("nearest floor", {1, 2, 4, 4}, {1, 1, 2, 2}).attr("nearest_mode", string_attr("floor"))
                      .declines("dnnl", "nearest_mode pick cell"));
  cases.push_back(resize_scales("nearest ceil", {1, 2, 4, 4}, {1, 1, 3, 3}).attr("nearest_mode", string_attr("ceil"))
                      .declines("dnnl", "nearest_mode pick cell"));
  cases.push_back(resize_scales("nearest asymmetric floor (PyTorch) x2", {1, 2, 4, 4}, {1, 1, 2, 2})
                      .attr("coordinate_transformation_mode", string_attr("asymmetric"))
                      .attr("nearest_mode", string_attr("floor")));
  cases.push_back(resize_sizes("nearest asymmetric floor 3 -> 5", {1, 2, 3, 3}, {1, 2, 5, 3})
                      .attr("coordinate_transformation_mode", string_attr("asymmetric"))
                      .attr("nearest_mode", string_attr("floor")).declines("dnnl", "nearest_mode pick cell 1"));
  cases.push_back(KernelCase("Resize", 13, "nearest tf_crop_and_resize").attr("coordinate_transformation_mode",
                                                                              string_attr("tf_crop_and_resize"))
                      .in(random_in({1, 2, 4, 4})).in(floats_in({0, 0, 0, 0, 1, 1, 1, 1})).in(omitted())
                      .in(ints_in({1, 2, 4, 4})).declines("dnnl", "asks for tf_crop_and_resize"));
  for (int64_t in : {3, 5, 7, 13}) {
    for (int64_t out : {2, 4, 9, 11, 23, 31})
      cases.push_back(resize_sizes("nearest round_prefer_ceil " + std::to_string(in) + " -> " + std::to_string(out),
                                   {1, 2, in}, {1, 2, out})
                          .attr("nearest_mode", string_attr("round_prefer_ceil")));
  }
  // linear, half_pixel
  cases.push_back(resize_scales("linear x2", {2, 3, 5, 6}, {1, 1, 2, 2}).attr("mode", linear));
  cases.push_back(resize_scales("linear x2, input channel-blocked", {1, 32, 5, 6}, {1, 1, 2, 2}).attr("mode", linear));
  cases.back().inputs[0] = cases.back().inputs[0].blocked();
  cases.push_back(resize_sizes("linear 5x7 -> 9x4", {1, 3, 5, 7}, {1, 3, 9, 4}).attr("mode", linear));
  cases.push_back(resize_sizes("linear 56 -> 224 (float32 coordinates)", {1, 2, 56, 56}, {1, 2, 224, 224})
                      .attr("mode", linear));
  cases.push_back(resize_sizes("linear 64 -> 333", {1, 1, 64, 64}, {1, 1, 333, 7}).attr("mode", linear));
  cases.push_back(resize_sizes("linear 65 -> 130", {1, 1, 65, 8}, {1, 1, 130, 16}).attr("mode", linear)
                      .declines("dnnl", "more than 64 input cells"));
  cases.push_back(resize_sizes("linear 1-D", {2, 3, 9}, {2, 3, 4}).attr("mode", linear));
  cases.push_back(resize_scales("linear 3-D", {1, 2, 3, 4, 5}, {1, 1, 2, 1.5f, 0.6f}).attr("mode", linear)
                      .declines("dnnl", "not the size ratio"));
  cases.push_back(resize_scales("linear 3-D, exact ratios", {1, 2, 3, 4, 6}, {1, 1, 2, 1.5f, 0.5f}).attr("mode", linear));
  cases.push_back(resize_scales("linear scale 0.6 on 5 cells", {1, 1, 5, 5}, {1, 1, 0.6f, 0.6f}).attr("mode", linear)
                      .declines("dnnl", "not the size ratio"));
  cases.push_back(resize_scales("linear align_corners", {1, 2, 4, 4}, {1, 1, 2, 2}).attr("mode", linear)
                      .attr("coordinate_transformation_mode", string_attr("align_corners"))
                      .declines("dnnl", "uses half-pixel centres; this node asks for align_corners"));
  cases.push_back(resize_sizes("linear pytorch_half_pixel", {1, 2, 4, 4}, {1, 2, 7, 3}).attr("mode", linear)
                      .attr("coordinate_transformation_mode", string_attr("pytorch_half_pixel")));
  cases.push_back(resize_sizes("linear pytorch_half_pixel to 1 cell", {1, 2, 4, 4}, {1, 2, 3, 1}).attr("mode", linear)
                      .attr("coordinate_transformation_mode", string_attr("pytorch_half_pixel"))
                      .declines("dnnl", "one-cell output"));
  cases.push_back(resize_sizes("linear exclude_outside (no effect on 2 taps)", {1, 2, 4, 5}, {1, 2, 7, 3})
                      .attr("mode", linear).attr("exclude_outside", int_attr(1)));
  cases.push_back(resize_sizes("linear antialias /2", {1, 2, 8, 8}, {1, 2, 4, 4}, 18).attr("mode", linear)
                      .attr("antialias", int_attr(1)).declines("dnnl", "antialias on shrinking"));
  cases.push_back(resize_sizes("linear antialias x2 (no effect)", {1, 2, 4, 4}, {1, 2, 8, 8}, 18).attr("mode", linear)
                      .attr("antialias", int_attr(1)));
  cases.push_back(resize_scales("linear resizes C", {1, 2, 4, 4}, {1, 2, 1, 1}).attr("mode", linear)
                      .declines("dnnl", "spatial dims only"));
  cases.push_back(resize_scales("linear rank 2", {4, 4}, {2, 2}).attr("mode", linear).declines("dnnl", "rank 2"));
  cases.push_back(resize_scales("linear rank 6", {1, 1, 2, 2, 2, 2}, {1, 1, 2, 2, 2, 2}).attr("mode", linear)
                      .declines("dnnl", "rank 6"));
  // cubic: oneDNN has none
  cases.push_back(resize_scales("cubic x2", {1, 2, 4, 5}, {1, 1, 2, 2}).attr("mode", cubic).declines("dnnl", "no cubic"));
  cases.push_back(resize_scales("cubic A -0.5 exclude_outside /0.8", {1, 1, 6, 6}, {1, 1, 0.8f, 0.8f})
                      .attr("mode", cubic).attr("cubic_coeff_a", float_attr(-0.5f)).attr("exclude_outside", int_attr(1))
                      .declines("dnnl", "no cubic"));
  cases.push_back(resize_sizes("cubic antialias /3", {1, 1, 12, 9}, {1, 1, 4, 3}, 18).attr("mode", cubic)
                      .attr("antialias", int_attr(1)).declines("dnnl", "no cubic"));
  // tf_crop_and_resize, opset 18/19 attributes, the legacy forms
  cases.push_back(KernelCase("Resize", 13, "tf_crop_and_resize, extrapolation").attr("mode", linear)
                      .attr("coordinate_transformation_mode", string_attr("tf_crop_and_resize"))
                      .attr("extrapolation_value", float_attr(10.f)).in(random_in({1, 2, 4, 4}))
                      .in(floats_in({0, 0, 0.4f, 0.6f, 1, 1, 1.2f, 1.7f})).in(omitted()).in(ints_in({1, 2, 3, 3}))
                      .declines("dnnl", "asks for tf_crop_and_resize"));
  cases.push_back(resize_sizes("axes, keep_aspect_ratio_policy not_larger", {1, 2, 4, 6}, {8, 9}, 18).attr("mode", linear)
                      .attr("axes", ints({2, 3})).attr("keep_aspect_ratio_policy", string_attr("not_larger")));
  cases.push_back(resize_sizes("axes, keep_aspect_ratio_policy not_smaller", {1, 2, 4, 6}, {3, 3}, 18).attr("mode", linear)
                      .attr("axes", ints({-1, -2})).attr("keep_aspect_ratio_policy", string_attr("not_smaller"))
                      .declines("dnnl", "not the size ratio"));
  cases.push_back(resize_scales("half_pixel_symmetric, exact ratio", {1, 2, 4, 6}, {1, 1, 2, 0.5f}, 19)
                      .attr("mode", linear).attr("coordinate_transformation_mode", string_attr("half_pixel_symmetric")));
  cases.push_back(resize_scales("half_pixel_symmetric, scale 0.6", {1, 2, 5, 5}, {1, 1, 0.6f, 0.7f}, 19)
                      .attr("mode", linear).attr("coordinate_transformation_mode", string_attr("half_pixel_symmetric"))
                      .declines("dnnl", "not the size ratio"));
  cases.push_back(KernelCase("Resize", 11, "tf_half_pixel_for_nn").attr("coordinate_transformation_mode",
                                                                        string_attr("tf_half_pixel_for_nn"))
                      .in(random_in({1, 2, 4, 4})).in(floats_in({})).in(floats_in({1, 1, 1.5f, 2}))
                      .declines("dnnl", "tf_half_pixel_for_nn coordinates and nearest_mode pick cell"));
  cases.push_back(KernelCase("Resize", 10, "opset 10 linear").attr("mode", linear).in(random_in({1, 2, 3, 4}))
                      .in(floats_in({1, 1, 2, 2})).declines("dnnl", "asks for asymmetric"));
  cases.push_back(KernelCase("Upsample", 9, "nearest x2 x3").in(random_in({1, 2, 3, 4})).in(floats_in({1, 1, 2, 3})));
  cases.push_back(KernelCase("Upsample", 9, "nearest x1.5").in(random_in({1, 2, 4, 4})).in(floats_in({1, 1, 1.5f, 1}))
                      .declines("dnnl", "nearest_mode pick cell"));
  cases.push_back(KernelCase("Upsample", 7, "linear, scales attribute").attr("mode", linear)
                      .attr("scales", floats({1, 1, 2, 2})).in(random_in({1, 2, 3, 4}))
                      .declines("dnnl", "asks for asymmetric"));
  cases.push_back(KernelCase("Upsample", 1, "bilinear, height_scale and width_scale").attr("mode", string_attr("bilinear"))
                      .attr("height_scale", float_attr(2)).attr("width_scale", float_attr(3)).in(random_in({1, 2, 3, 4}))
                      .declines("dnnl", "asks for asymmetric"));
  Tensor f64(DType::f64, {1, 2, 3, 3});
  for (int64_t i = 0; i < f64.numel(); ++i) f64.data<double>()[i] = std::cos(double(i));
  cases.push_back(KernelCase("Resize", 13, "float64").attr("mode", linear).in(given(f64)).in(omitted())
                      .in(floats_in({1, 1, 2, 2})).declines("dnnl", "float32"));
  return cases;
}

using CaseTable = std::vector<KernelCase> (*)();
const CaseTable kTables[] = {activation_cases,  not_cases, prelu_cases,        clip_cases,       binary_cases,     pow_mod_cases,
                             compare_logic_cases,                                   conv_cases,  conv_transpose_cases,
                             fused_conv_cases,  gemm_cases,       matmul_cases,     batch_norm_cases,
                             softmax_cases,     log_softmax_hardmax_cases, lrn_cases, pool_cases, global_pool_cases,
                             adaptive_pool_cases, reduce_mean_cases, reduce_cases, arg_reduce_cases, shape_cases, data_cases,
                             layer_group_norm_cases, einsum_cases, cumsum_cases, top_k_cases,
                             resize_cases};

}  // namespace

TEST_CASE("kernel cases: activations, Not and Clip") {
  check_kernel_cases(activation_cases());
  check_kernel_cases(not_cases());
  check_kernel_cases(clip_cases());
}
TEST_CASE("kernel cases: Add, Sub, Mul, Div, Sum, Max, Min, Mean") { check_kernel_cases(binary_cases()); }
TEST_CASE("kernel cases: PRelu") { check_kernel_cases(prelu_cases()); }
TEST_CASE("kernel cases: Pow, Mod") { check_kernel_cases(pow_mod_cases()); }
TEST_CASE("kernel cases: comparisons, And, Or, Xor, Where") { check_kernel_cases(compare_logic_cases()); }
TEST_CASE("kernel cases: Conv") { check_kernel_cases(conv_cases()); }
TEST_CASE("kernel cases: ConvTranspose") { check_kernel_cases(conv_transpose_cases()); }
TEST_CASE("kernel cases: FusedConv, every fusable activation, with and without a residual") {
  check_kernel_cases(fused_conv_cases());
}
TEST_CASE("kernel cases: Gemm and MatMul") {
  check_kernel_cases(gemm_cases());
  check_kernel_cases(matmul_cases());
}
TEST_CASE("kernel cases: BatchNormalization, LRN, Softmax") {
  check_kernel_cases(batch_norm_cases());
  check_kernel_cases(lrn_cases());
  check_kernel_cases(softmax_cases());
}
TEST_CASE("kernel cases: Einsum") { check_kernel_cases(einsum_cases()); }
TEST_CASE("kernel cases: CumSum") { check_kernel_cases(cumsum_cases()); }
TEST_CASE("kernel cases: TopK") { check_kernel_cases(top_k_cases()); }
TEST_CASE("kernel cases: Resize, Upsample") { check_kernel_cases(resize_cases()); }
TEST_CASE("kernel cases: LogSoftmax, Hardmax") { check_kernel_cases(log_softmax_hardmax_cases()); }
TEST_CASE("kernel cases: LayerNormalization, InstanceNormalization, GroupNormalization, legacy BatchNormalization") {
  check_kernel_cases(layer_group_norm_cases());
}
TEST_CASE("kernel cases: pooling") {
  check_kernel_cases(pool_cases());
  check_kernel_cases(global_pool_cases());
  check_kernel_cases(adaptive_pool_cases());
  check_kernel_cases(reduce_mean_cases());
}
TEST_CASE("kernel cases: ReduceSum, Max, Min, Prod, L1, L2, SumSquare, LogSum, LogSumExp, ArgMax, ArgMin") {
  check_kernel_cases(reduce_cases());
  check_kernel_cases(arg_reduce_cases());
}
TEST_CASE("kernel cases: shape ops") { check_kernel_cases(shape_cases()); }
TEST_CASE("kernel cases: data ops and legacy shape opsets") { check_kernel_cases(data_cases()); }

TEST_CASE("every registered op has a case in the kernel table") {
  // Ops that cannot be cased, each with the reason. Empty: every op has one.
  const std::set<std::string> excluded = {};
  std::set<std::string> cased;
  for (CaseTable table : kTables)
    for (const KernelCase& c : table()) cased.insert(c.key());
  for (const std::string& op : builtin_ops().names()) {
    CAPTURE(op);
    CHECK_MESSAGE((cased.count(op) || excluded.count(op)), "op ", op, " has no case in tests/unit/kernel_cases_test.cc");
  }
}
