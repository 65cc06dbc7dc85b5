// Kernel cases of the conv family (ops/conv): Conv, ConvTranspose, FusedConv. Each case runs every kernel of its op
// against the op's reference kernel; tests/unit/kernel_cases.h says how, and how a table is registered.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "dnnl/cpu_blocks.h"
#include "ops/common/activation.h"
#include "ops/conv/conv.h"
#include "ops/conv/fused_conv.h"
#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

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
  // when src arrives channels-last (oneDNN's own choice on AVX-512, as oneDNN dispatches: ONEDNN_MAX_CPU_ISA
  // counts; without it nChw8c, and the rule is off); with 64 channels it keeps the layout src arrives in.
  const bool avx512 = dnnl_cpu_isa().rfind("avx512", 0) == 0;
  KernelCase aliasing("Conv", 11, "32 groups over 512 channels, src offered channels-last");
  aliasing.attrs = conv_attrs(32, "NOTSET", {2, 2}, {}, {1, 1, 1, 1});
  cases.push_back(aliasing.in(random_in({2, 512, 9, 9}).channels_last()).in(random_in({512, 16, 3, 3}).constant())
                      .runs("dnnl", avx512 ? Takes::channel_blocked : Takes::any));
  // A first layer making as many channels as the CPU's block (16 on AVX-512, 8 on AVX2) reads src plain and
  // writes the bytes of channels-last (conv_dnnl.cc, first_layer), on whichever CPU runs the test: src taken
  // plain, and dst (told channels-last) right.
  const int64_t block = cpu_channel_block();
  KernelCase first("Conv", 11, "a first layer: 3 -> " + std::to_string(block) + " channels (the CPU's block)");
  first.attrs = conv_attrs(1, "NOTSET", {2, 2}, {}, {1, 1, 1, 1});
  cases.push_back(first.in(random_in({1, 3, 12, 12})).in(random_in({block, 3, 3, 3}).constant())
                      .in(random_in({block}).constant()));
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
                      Shape x, Shape w, CaseInput x_input, bool to_float16 = false) {
  ConvFusion fusion;
  fusion.residual = residual;
  fusion.activation = act;
  fusion.args = args;
  fusion.to_float16 = to_float16;
  std::ostringstream note;
  note << fusion.summary() << " (activation args " << args.alpha << ", " << args.beta << ")";
  KernelCase c(to_float16 ? "FusedConvFloat16" : "FusedConv", 1, std::move(what));
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

// FusedConvFloat16: FusedConv rounded to float16 (the rounding in Swish's sweep, or a sweep of its own), over
// the whole buffer: blocked, padded channels (13 of 16), the output wished blocked.
std::vector<KernelCase> fused_conv_float16_cases() {
  std::vector<KernelCase> cases;
  const Shape x{1, 16, 8, 8}, w{16, 16, 3, 3}, w13{13, 16, 3, 3};
  const ActivationDef* swish = find_activation("Swish");
  cases.push_back(fused_conv("no fusion", nullptr, {}, false, true, x, w, random_in(x), true));
  cases.push_back(fused_conv("+Swish", swish, {}, false, true, x, w, random_in(x), true));
  cases.push_back(fused_conv("residual, +Relu", find_activation("Relu"), {}, true, true, x, w, random_in(x), true));
  cases.push_back(fused_conv("residual, +Swish", swish, {}, true, true, x, w, random_in(x), true));
  cases.push_back(fused_conv("+Sigmoid", find_activation("Sigmoid"), {}, false, true, x, w, random_in(x), true));
  cases.push_back(fused_conv("13 channels, src offered nChw16c, +Swish", swish, {}, false, true, x, w13,
                             random_in(x).blocked(), true));
  cases.push_back(fused_conv("dst wished nChw16c, +Swish", swish, {}, false, true, x, w, random_in(x), true)
                      .wish_output(Offer::blocked));
  return cases;
}

}  // namespace

KERNEL_CASES("Conv", conv_cases)
KERNEL_CASES("ConvTranspose", conv_transpose_cases)
KERNEL_CASES("FusedConv, every fusable activation, with and without a residual", fused_conv_cases)
KERNEL_CASES("FusedConvFloat16", fused_conv_float16_cases)
