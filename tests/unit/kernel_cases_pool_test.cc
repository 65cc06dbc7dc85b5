// Kernel cases of the pool family (ops/pool): AveragePool, MaxPool, GlobalAveragePool, GlobalMaxPool,
// adaptive_avg_pool{1,2,3}d. Each case runs every kernel of its op against the op's reference kernel;
// tests/unit/kernel_cases.h says how, and how a table is registered.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "dnnl/cpu_blocks.h"
#include "ops/pool/adaptive_pool.h"
#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

// ---- pooling ----

// MaxPool's native kernel reads blocked and channels-last inputs where oneDNN runs avx2 code (where it was
// measured against oneDNN's pooling), and declines them, naming oneDNN's ISA, elsewhere.
void native_on_layout(KernelCase& c) {
  if (dnnl_cpu_isa().rfind("avx2", 0) == 0) c.runs("native", Takes::offered_through);
  else c.declines("native", "pooling here");
}

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
      const bool dilated = std::any_of(w.dilations.begin(), w.dilations.end(), [](int64_t d) { return d != 1; });
      if (v.count_include_pad < 0 && w.x.size() != 4) c.declines("native", "is not [N, C, H, W]");
      else if (v.count_include_pad < 0 && dilated) c.declines("native", "dilation");
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
    c.in(random_in({1, 32, 14, 14}).blocked()).runs("dnnl", Takes::offered_through);
    if (op == std::string("MaxPool")) native_on_layout(c);
    cases.push_back(c);
    // A native bfloat16 plan (ops/pool/pool_dnnl.cc): X stored in bfloat16 channel-blocked is pooled so where
    // only the output's rounding reads it, and taken in float32 otherwise and when plain; native MaxPool takes
    // float32 (the plan converts). Only on CPUs with native bfloat16 (no plan compiles a kernel in bf16 elsewhere).
    if (dnnl_cpu_has_native_bfloat16()) {
      KernelCase stored(op, op == std::string("MaxPool") ? 12 : 19, "native bf16: X blocked, stored in bfloat16");
      stored.attrs = window3;
      stored.native_bfloat16_stored().in(random_in({1, 32, 14, 14}).blocked().stored_bfloat16())
          .runs("dnnl", Takes::offered_through).without_special_values(kStoredBfloat16FlushesSubnormals);
      KernelCase converted(op, stored.opset, "native bf16: X blocked, stored in bfloat16, output read as float32");
      converted.attrs = window3;
      converted.native_bfloat16().in(random_in({1, 32, 14, 14}).blocked().stored_bfloat16())
          .without_special_values(kStoredBfloat16FlushesSubnormals);
      KernelCase plain(op, stored.opset, "native bf16: X plain, stored in bfloat16");
      plain.attrs = window3;
      plain.native_bfloat16_stored().in(random_in({1, 20, 9, 9}).stored_bfloat16()).runs("dnnl", Takes::plain)
          .without_special_values(kStoredBfloat16FlushesSubnormals);
      if (op == std::string("MaxPool")) {
        native_on_layout(stored);
        native_on_layout(converted);
        plain.runs("native", Takes::plain);
      }
      for (const KernelCase* c : {&stored, &converted, &plain}) cases.push_back(*c);
    }
    KernelCase old(op, 7, "opset 7");
    old.attrs = window3;
    cases.push_back(old.in(random_in({2, 3, 9, 9})));
  }
  KernelCase four_d_max("MaxPool", 12, "4 spatial dims");
  four_d_max.attr("kernel_shape", ints({2, 2, 2, 2}));
  cases.push_back(four_d_max.in(random_in({1, 1, 3, 3, 3, 3})).declines("dnnl", "spatial dims")
                      .declines("native", "is not [N, C, H, W]"));
  KernelCase four_d_avg("AveragePool", 19, "4 spatial dims");
  four_d_avg.attr("kernel_shape", ints({2, 2, 2, 2}));
  cases.push_back(four_d_avg.in(random_in({1, 1, 3, 3, 3, 3})).declines("dnnl", "spatial dims"));
  Tensor bytes(DType::u8, {1, 2, 4, 4});
  for (int64_t i = 0; i < bytes.numel(); ++i) bytes.data<uint8_t>()[i] = uint8_t((i * 37) % 251);
  cases.push_back(KernelCase("MaxPool", 12, "uint8").attr("kernel_shape", ints({2, 2})).in(given(bytes))
                      .declines("native", "uint8, not float32"));
  // int8 with padding (never a candidate: the stem's 3x3/2 pad 1 over negative values).
  Tensor signed_bytes(DType::i8, {1, 3, 7, 7});
  for (int64_t i = 0; i < signed_bytes.numel(); ++i) signed_bytes.data<int8_t>()[i] = int8_t((i * 37) % 251 - 128);
  cases.push_back(KernelCase("MaxPool", 12, "int8, 3x3 / 2, pads 1").attr("kernel_shape", ints({3, 3}))
                      .attr("strides", ints({2, 2})).attr("pads", ints({1, 1, 1, 1})).in(given(signed_bytes))
                      .declines("native", "int8, not float32"));
  // The Indices output: oneDNN gives no ONNX flat indices; storage_order alone changes nothing else.
  auto indices = [](const char* what) {
    return KernelCase("MaxPool", 12, what).attr("kernel_shape", ints({2, 2})).attr("storage_order", int_attr(1))
        .in(random_in({1, 2, 5, 5}));
  };
  cases.push_back(indices("Indices requested").outputs(2).declines("dnnl", "Indices").declines("native", "Indices"));
  cases.push_back(indices("Indices omitted").outputs(2).omit_output(1));
  cases.push_back(indices("storage_order, one output"));
  // MaxPool's native kernel (max_pool_native.cc) where inputs arrive blocked or channels-last: channels that
  // fill no whole block, the 3x3 stride-1 and stride-2 ceil_mode windows of GoogLeNet and SqueezeNet, output
  // rows split over work items (one plane: channels-last at batch 1), a batch, a 1x1 window, a window
  // wider than tall; the special-values rerun plants NaN in some planes and rows (the NaN-keeping passes)
  // next to others without.
  struct Laid {
    const char* what;
    Shape x;
    std::vector<int64_t> kernel, strides, pads;
    bool ceil_mode;
  };
  const Laid laid[] = {
      {"3x3 stride 1 pads 1, 20 channels", {1, 20, 14, 14}, {3, 3}, {1, 1}, {1, 1, 1, 1}, true},
      {"3x3 stride 2 ceil", {1, 24, 27, 27}, {3, 3}, {2, 2}, {0, 0, 0, 0}, true},
      {"2x2 stride 2, batch 3", {3, 16, 14, 14}, {2, 2}, {2, 2}, {0, 0, 0, 0}, false},
      {"1x1 stride 2", {1, 8, 7, 7}, {1, 1}, {2, 2}, {0, 0, 0, 0}, false},
      {"2x5 asymmetric pads", {2, 9, 6, 11}, {2, 5}, {1, 2}, {1, 0, 0, 3}, false},
      {"3x3 stride 1, 56x56, 64 channels", {1, 64, 56, 56}, {3, 3}, {1, 1}, {1, 1, 1, 1}, false},
  };
  for (const Laid& l : laid)
    for (const Offer offer : {Offer::plain, Offer::blocked, Offer::channels_last}) {
      const char* kind = offer == Offer::plain ? "plain" : offer == Offer::blocked ? "blocked" : "channels-last";
      KernelCase c("MaxPool", 12, std::string(l.what) + ", " + kind);
      c.attr("kernel_shape", ints(l.kernel)).attr("strides", ints(l.strides)).attr("pads", ints(l.pads));
      if (l.ceil_mode) c.attr("ceil_mode", int_attr(1));
      CaseInput x = random_in(l.x);
      x.offer = offer;
      c.in(x);
      if (offer == Offer::plain) c.runs("native", Takes::plain);
      else native_on_layout(c);
      cases.push_back(c);
    }
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
  // A native bfloat16 plan: X stored in bfloat16 channels-last (a squeeze-and-excitation block's squeeze), the
  // means stored so where only their rounding reads them. Only on CPUs with native bfloat16 (oneDNN's bf16
  // pooling is the other kernel).
  if (dnnl_cpu_has_native_bfloat16())
    cases.push_back(KernelCase("GlobalAveragePool", 1, "native bf16: X channels-last, stored in bfloat16")
                        .native_bfloat16_stored().in(random_in({1, 48, 14, 14}).channels_last().stored_bfloat16())
                        .runs("mean", Takes::offered).runs("dnnl", Takes::offered)
                        .without_special_values(kStoredBfloat16FlushesSubnormals));
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

// ---- MaxUnpool: reference only ----

std::vector<KernelCase> max_unpool_cases() {
  std::vector<KernelCase> cases;
  const Tensor indices = make_int_tensor({1, 1, 2, 2}, {5, 7, 13, 15});
  cases.push_back(KernelCase("MaxUnpool", 11, "2x2 stride 2").attr("kernel_shape", ints({2, 2}))
                      .attr("strides", ints({2, 2})).in(random_in({1, 1, 2, 2})).in(given(indices)));
  cases.push_back(KernelCase("MaxUnpool", 11, "output_shape").attr("kernel_shape", ints({2, 2}))
                      .attr("strides", ints({2, 2})).in(random_in({1, 1, 2, 2})).in(given(indices))
                      .in(ints_in({1, 1, 5, 5})));
  return cases;
}

}  // namespace

KERNEL_CASES("pooling", pool_cases, global_pool_cases, adaptive_pool_cases)
KERNEL_CASES("MaxUnpool", max_unpool_cases)
