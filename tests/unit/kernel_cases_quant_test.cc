// Kernel cases of the quantized family (ops/quant): QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
// ConvInteger, MatMulInteger, QLinearConv, QLinearMatMul, cnnx.internal FusedQLinearConv and the com.microsoft
// QLinear ops. The convolutions' oneDNN int8 kernel runs against the reference on the constant cases, and
// QuantizeLinear's and DequantizeLinear's native kernels on theirs; the other ops have only their reference
// kernel, so a case checks that it runs (and again with NaN, infinities, -0 and denormals planted in its random
// float inputs); tests/unit/quant_test.cc checks values against ONNX's formulas.
#include <doctest/doctest.h>

#include "tests/unit/kernel_cases.h"
#include "tests/unit/quant_tensors.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

constexpr const char* kMs = "com.microsoft";

std::vector<KernelCase> quantize_cases() {
  std::vector<KernelCase> cases;
  for (DType t : {DType::u8, DType::i8}) {
    const std::string tn = dtype_name(t);
    cases.push_back(KernelCase("QuantizeLinear", 10, "per tensor " + tn).in(random_in({2, 3, 4}, -5.f, 5.f))
                        .in(given(scalar_f32(0.02f))).in(given(zero_point(t, 3))));
    cases.push_back(KernelCase("QuantizeLinear", 13, "per axis 1 " + tn).in(random_in({2, 3, 4}, -5.f, 5.f))
                        .in(given(floats_1d({0.01f, 0.02f, 0.05f}))).in(given(zero_points(t, {0, 7, 100}))));
    cases.push_back(KernelCase("QuantizeLinear", 19, "per axis -1, saturate " + tn).attr("axis", int_attr(-1))
                        .attr("saturate", int_attr(1)).in(random_in({2, 3, 4}, -5.f, 5.f))
                        .in(given(floats_1d({0.01f, 0.02f, 0.05f, 1.f}))).in(given(zero_points(t, {0, 1, 2, 3}))));
    cases.push_back(KernelCase("DequantizeLinear", 10, "per tensor " + tn).in(given(random_quantized(t, {2, 3, 4}, 1)))
                        .in(given(scalar_f32(0.02f))).in(given(zero_point(t, 3))));
    cases.push_back(KernelCase("DequantizeLinear", 13, "per axis 0 " + tn).attr("axis", int_attr(0))
                        .in(given(random_quantized(t, {2, 3, 4}, 2))).in(given(floats_1d({0.5f, 0.25f})))
                        .in(given(zero_points(t, {1, 2}))));
  }
  // Many elements: the native kernel's SSE2 steps of 16 and its scalar tail (special values planted too).
  for (DType t : {DType::u8, DType::i8})
    cases.push_back(KernelCase("QuantizeLinear", 13, std::string("3 x 1001, wide range ") + dtype_name(t))
                        .in(random_in({3, 1001}, -9.f, 9.f)).in(given(scalar_f32(0.03f)))
                        .in(given(zero_point(t, t == DType::u8 ? 17 : -9))));
  cases.push_back(KernelCase("QuantizeLinear", 13, "no zero point: uint8").in(random_in({7}, -3.f, 3.f))
                      .in(given(scalar_f32(0.1f))));
  cases.push_back(KernelCase("QuantizeLinear", 10, "int32 x").in(given(random_quantized(DType::i32, {6}, 4)))
                      .in(given(scalar_f32(4096.f))).in(given(zero_point(DType::i8, -3)))
                      .declines("native", "not float32"));
  cases.push_back(KernelCase("DequantizeLinear", 13, "int32, no zero point")
                      .in(given(random_quantized(DType::i32, {5}, 3))).in(given(scalar_f32(1e-3f)))
                      .declines("native", "not int8 or uint8"));
  cases.push_back(KernelCase("DynamicQuantizeLinear", 11, "mixed signs").outputs(3).in(random_in({3, 4}, -3.f, 2.f)));
  cases.push_back(KernelCase("DynamicQuantizeLinear", 11, "all zero").outputs(3).in(given(make_tensor({4}, {0, 0, 0, 0}))));
  return cases;
}

std::vector<KernelCase> integer_product_cases() {
  std::vector<KernelCase> cases;
  const DType u8 = DType::u8, i8 = DType::i8;
  cases.push_back(KernelCase("ConvInteger", 10, "u8 x, u8 w, pads").attr("pads", ints({1, 1, 1, 1}))
                      .in(given(random_quantized(u8, {1, 3, 5, 5}, 4))).in(given(random_quantized(u8, {4, 3, 3, 3}, 5)))
                      .in(given(zero_point(u8, 128))).in(given(zero_point(u8, 120)))
                      .declines("dnnl", "needs constant"));
  cases.push_back(KernelCase("ConvInteger", 10, "s8 x, per-channel w zero points, groups, strides")
                      .attr("group", int_attr(2)).attr("strides", ints({2, 2}))
                      .in(given(random_quantized(i8, {2, 4, 6, 6}, 6))).in(given(random_quantized(i8, {4, 2, 3, 3}, 7)))
                      .in(given(zero_point(i8, -3))).in(given(zero_points(i8, {0, 1, -1, 2})))
                      .declines("dnnl", "needs constant"));
  cases.push_back(KernelCase("ConvInteger", 10, "no zero points, 1-D").in(given(random_quantized(u8, {1, 2, 9}, 8)))
                      .in(given(random_quantized(i8, {3, 2, 4}, 9)))
                      .declines("dnnl", "needs constant"));
  // The oneDNN int8 kernel (ops/quant/qlinear_conv_dnnl.cc): constant weights, scales and zero points. x and W
  // span their whole ranges, so on a CPU without VNNI (AVX2) pairs of u8 * s8 products leave 16 bits unless the
  // kernel splits the weights: ConvInteger is exact (kExact), so any saturation fails these cases.
  cases.push_back(KernelCase("ConvInteger", 10, "constant full-range s8 W, u8 x, pads").attr("pads", ints({1, 1, 1, 1}))
                      .in(given(random_quantized(u8, {2, 16, 7, 7}, 60)))
                      .in(given(random_quantized(i8, {8, 16, 3, 3}, 61)).constant())
                      .in(given(zero_point(u8, 3)).constant()));
  cases.push_back(KernelCase("ConvInteger", 10, "constant full-range u8 W - 128, s8 x, groups, strides, dilations")
                      .attr("group", int_attr(2)).attr("strides", ints({2, 1})).attr("dilations", ints({1, 2}))
                      .in(given(random_quantized(i8, {1, 8, 9, 9}, 62)))
                      .in(given(random_quantized(u8, {6, 4, 3, 3}, 63)).constant())
                      .in(given(zero_point(i8, -7)).constant()).in(given(zero_points(u8, {128, 128, 128, 128, 128, 128})).constant()));
  cases.push_back(KernelCase("ConvInteger", 10, "constant depthwise, full-range s8 W, 3x3, pads")
                      .attr("group", int_attr(16)).attr("pads", ints({1, 1, 1, 1}))
                      .in(given(random_quantized(u8, {2, 16, 9, 9}, 77)))
                      .in(given(random_quantized(i8, {16, 1, 3, 3}, 78)).constant()));
  cases.push_back(KernelCase("ConvInteger", 10, "constant depthwise, 7-bit W, 1-D")
                      .attr("group", int_attr(6)).in(given(random_quantized(u8, {1, 6, 11}, 64)))
                      .in(given(typed_tensor(i8, {6, 1, 3}, {-64, 63, 5, 1, 2, 3, -1, 0, 64, 9, 8, 7, -5, -6, -7, 10, 20, 30})).constant()));
  cases.push_back(KernelCase("ConvInteger", 10, "constant W, x_zero_point computed (DynamicQuantizeLinear's)")
                      .in(given(random_quantized(u8, {1, 8, 5, 5}, 75)))
                      .in(given(random_quantized(i8, {4, 8, 3, 3}, 76)).constant()).in(given(zero_point(u8, 131))));
  cases.push_back(KernelCase("ConvInteger", 10, "constant W - w_zero_point beyond int8")
                      .in(given(random_quantized(u8, {1, 2, 4, 4}, 65)))
                      .in(given(random_quantized(u8, {2, 2, 3, 3}, 66)).constant()).in(given(zero_point(u8, 0)).constant())
                      .in(given(zero_point(u8, 10)).constant())
                      .declines("dnnl", "leaves int8's range"));
  cases.push_back(KernelCase("ConvInteger", 10, "constant, sums may pass 2^24")
                      .in(given(random_quantized(u8, {1, 128, 3, 3}, 67)))
                      .in(given(random_quantized(i8, {2, 128, 3, 3}, 68)).constant())
                      .declines("dnnl", "2^24"));
  cases.push_back(KernelCase("QLinearConv", 10, "constant: u8 x, full-range s8 W per channel, bias, pads, u8 y")
                      .attr("pads", ints({1, 1, 1, 1}))
                      .in(given(random_quantized(u8, {2, 16, 6, 6}, 69))).in(given(scalar_f32(0.02f)).constant())
                      .in(given(zero_point(u8, 120)).constant()).in(given(random_quantized(i8, {8, 16, 3, 3}, 70)).constant())
                      .in(given(floats_1d({0.01f, 0.002f, 0.003f, 0.004f, 0.005f, 0.006f, 0.007f, 0.008f})).constant())
                      .in(given(zero_points(i8, {0, 0, 0, 0, 0, 0, 0, 0})).constant()).in(given(scalar_f32(3.f)).constant())
                      .in(given(zero_point(u8, 100)).constant()).in(given(random_quantized(DType::i32, {8}, 71)).constant()));
  cases.push_back(KernelCase("QLinearConv", 10, "constant: s8 x, 7-bit W, s8 y, groups, strides")
                      .attr("group", int_attr(2)).attr("strides", ints({2, 2}))
                      .in(given(random_quantized(i8, {1, 4, 7, 7}, 72))).in(given(scalar_f32(0.03f)).constant())
                      .in(given(zero_point(i8, -4)).constant())
                      .in(given(typed_tensor(i8, {2, 2, 2, 2}, {-64, 64, 3, -3, 10, 20, -30, 40, 1, 2, 3, 4, -5, -6, 7, 8})).constant())
                      .in(given(scalar_f32(0.01f)).constant()).in(given(zero_point(i8, 0)).constant())
                      .in(given(scalar_f32(0.05f)).constant()).in(given(zero_point(i8, 5)).constant()));
  cases.push_back(KernelCase("FusedQLinearConv", 1, "constant, clamped to [y_zero_point, 200] (Relu, and Clip's top)")
                      .in_domain(kInternalDomain).attr("y_min", int_attr(100)).attr("y_max", int_attr(200))
                      .in(given(random_quantized(u8, {1, 8, 5, 5}, 73))).in(given(scalar_f32(0.02f)).constant())
                      .in(given(zero_point(u8, 128)).constant()).in(given(random_quantized(i8, {4, 8, 1, 1}, 74)).constant())
                      .in(given(scalar_f32(0.01f)).constant()).in(given(zero_point(i8, 0)).constant())
                      .in(given(scalar_f32(0.04f)).constant()).in(given(zero_point(u8, 100)).constant()));
  cases.push_back(KernelCase("MatMulInteger", 10, "2-D, per-column b zero points")
                      .in(given(random_quantized(u8, {3, 5}, 10))).in(given(random_quantized(i8, {5, 4}, 11)))
                      .in(given(zero_point(u8, 12))).in(given(zero_points(i8, {0, 1, 2, 3}))));
  cases.push_back(KernelCase("MatMulInteger", 10, "batched, broadcast, per-row a zero points")
                      .in(given(random_quantized(u8, {2, 3, 5}, 12))).in(given(random_quantized(u8, {5, 2}, 13)))
                      .in(given(zero_points(u8, {1, 2, 3}))));
  cases.push_back(KernelCase("MatMulInteger", 10, "vector times matrix").in(given(random_quantized(i8, {5}, 14)))
                      .in(given(random_quantized(i8, {5, 3}, 15))));
  cases.push_back(KernelCase("QLinearConv", 10, "u8, per tensor, bias, pads").attr("pads", ints({1, 1, 1, 1}))
                      .in(given(random_quantized(u8, {1, 3, 5, 5}, 16))).in(given(scalar_f32(0.02f)))
                      .in(given(zero_point(u8, 128))).in(given(random_quantized(u8, {4, 3, 3, 3}, 17)))
                      .in(given(scalar_f32(0.01f))).in(given(zero_point(u8, 127))).in(given(scalar_f32(0.5f)))
                      .in(given(zero_point(u8, 100))).in(given(random_quantized(DType::i32, {4}, 18)))
                      .declines("dnnl", "needs constant"));
  cases.push_back(KernelCase("QLinearConv", 10, "u8 x, s8 w per channel, s8 y, groups")
                      .attr("group", int_attr(2)).in(given(random_quantized(u8, {1, 4, 4, 4}, 19)))
                      .in(given(scalar_f32(0.03f))).in(given(zero_point(u8, 10)))
                      .in(given(random_quantized(i8, {2, 2, 3, 3}, 20))).in(given(floats_1d({0.01f, 0.002f})))
                      .in(given(zero_points(i8, {0, 0}))).in(given(scalar_f32(0.2f))).in(given(zero_point(i8, -5)))
                      .declines("dnnl", "needs constant"));
  cases.push_back(KernelCase("QLinearMatMul", 10, "u8, 2-D").in(given(random_quantized(u8, {3, 4}, 21)))
                      .in(given(floats_1d({0.0066f}))).in(given(zero_points(u8, {113})))
                      .in(given(random_quantized(u8, {4, 2}, 22))).in(given(floats_1d({0.00705f})))
                      .in(given(zero_points(u8, {114}))).in(given(floats_1d({0.0107f}))).in(given(zero_points(u8, {118}))));
  cases.push_back(KernelCase("QLinearMatMul", 10, "s8, batched, per-column b").in(given(random_quantized(i8, {2, 3, 4}, 23)))
                      .in(given(scalar_f32(0.1f))).in(given(zero_point(i8, 1)))
                      .in(given(random_quantized(i8, {4, 2}, 24))).in(given(floats_1d({0.01f, 0.02f})))
                      .in(given(zero_points(i8, {0, 0}))).in(given(scalar_f32(0.7f))).in(given(zero_point(i8, 0))));
  return cases;
}

std::vector<KernelCase> microsoft_cases() {
  std::vector<KernelCase> cases;
  for (DType t : {DType::u8, DType::i8}) {
    const std::string tn = dtype_name(t);
    const Tensor zp = zero_point(t, t == DType::u8 ? 128 : 0);
    for (const char* op : {"QLinearAdd", "QLinearMul"}) {
      KernelCase c = KernelCase(op, 1, "broadcast " + tn).in_domain(kMs)
                         .in(given(random_quantized(t, {2, 3, 4}, 30))).in(given(scalar_f32(0.05f))).in(given(zp))
                         .in(given(random_quantized(t, {3, 1}, 31))).in(given(scalar_f32(0.02f))).in(given(zp))
                         .in(given(scalar_f32(0.1f))).in(given(zp));
      if (std::string(op) == "QLinearAdd") c.declines("native", "differ in shape");
      cases.push_back(c);
    }
    // One shape: the native kernel (float32 in DequantizeLinear -> Add -> QuantizeLinear's order) beside the
    // reference's double; scales whose sums land on many half steps.
    cases.push_back(KernelCase("QLinearAdd", 1, "one shape " + tn).in_domain(kMs)
                        .in(given(random_quantized(t, {2, 3, 4, 5}, 35))).in(given(scalar_f32(0.05f))).in(given(zp))
                        .in(given(random_quantized(t, {2, 3, 4, 5}, 36))).in(given(scalar_f32(0.025f))).in(given(zero_point(t, 3)))
                        .in(given(scalar_f32(0.1f))).in(given(zero_point(t, -1 + (t == DType::u8 ? 101 : 0)))));
    cases.push_back(KernelCase("FusedQLinearAdd", 1, "one shape, clamped to [y_zero_point, 90] " + tn)
                        .in_domain(kInternalDomain).attr("y_min", int_attr(t == DType::u8 ? 100 : 0))
                        .attr("y_max", int_attr(t == DType::u8 ? 190 : 90))
                        .in(given(random_quantized(t, {1, 16, 7, 3}, 37))).in(given(scalar_f32(0.02f))).in(given(zp))
                        .in(given(random_quantized(t, {1, 16, 7, 3}, 38))).in(given(scalar_f32(0.03f))).in(given(zp))
                        .in(given(scalar_f32(0.04f))).in(given(zero_point(t, t == DType::u8 ? 100 : 0))));
    cases.push_back(KernelCase("QLinearSigmoid", 1, tn).in_domain(kMs).in(given(random_quantized(t, {2, 8}, 32)))
                        .in(given(scalar_f32(0.05f))).in(given(zp)).in(given(scalar_f32(1.f / 256))).in(given(zero_point(t, 0))));
    cases.push_back(KernelCase("QLinearLeakyRelu", 1, tn).in_domain(kMs).attr("alpha", float_attr(0.1f))
                        .in(given(random_quantized(t, {2, 8}, 33))).in(given(scalar_f32(0.05f))).in(given(zp))
                        .in(given(scalar_f32(0.04f))).in(given(zp)));
    cases.push_back(KernelCase("QLinearGlobalAveragePool", 1, "NCHW " + tn).in_domain(kMs)
                        .in(given(random_quantized(t, {2, 3, 4, 5}, 34))).in(given(scalar_f32(0.05f))).in(given(zp))
                        .in(given(scalar_f32(0.03f))).in(given(zp)));
    cases.push_back(KernelCase("QLinearGlobalAveragePool", 1, "channels last " + tn).in_domain(kMs)
                        .attr("channels_last", int_attr(1)).in(given(random_quantized(t, {2, 4, 5, 3}, 35)))
                        .in(given(scalar_f32(0.05f))).in(given(zp)).in(given(scalar_f32(0.03f))).in(given(zp)));
    cases.push_back(KernelCase("QLinearAveragePool", 1, "3x3 stride 2, pads, " + tn).in_domain(kMs)
                        .attr("kernel_shape", ints({3, 3})).attr("strides", ints({2, 2})).attr("pads", ints({1, 1, 1, 1}))
                        .in(given(random_quantized(t, {1, 2, 5, 6}, 38))).in(given(scalar_f32(0.05f))).in(given(zp))
                        .in(given(scalar_f32(0.03f))).in(given(zp)));
    cases.push_back(KernelCase("QLinearAveragePool", 1, "ceil_mode, count_include_pad, channels last " + tn)
                        .in_domain(kMs).attr("kernel_shape", ints({2, 2})).attr("strides", ints({2, 2}))
                        .attr("pads", ints({1, 0, 1, 0})).attr("ceil_mode", int_attr(1))
                        .attr("count_include_pad", int_attr(1)).attr("channels_last", int_attr(1))
                        .in(given(random_quantized(t, {2, 5, 4, 3}, 39))).in(given(scalar_f32(0.05f))).in(given(zp))
                        .in(given(scalar_f32(0.05f))).in(given(zp)));
    // The native kernel: a table per input (the first copied: Y's scale and zero point), plain or
    // channels-last; scales and zero points it reads at run time are the reference's.
    cases.push_back(KernelCase("QLinearConcat", 1, "axis 1, " + tn).in_domain(kMs).attr("axis", int_attr(1))
                        .in(given(scalar_f32(0.05f)).constant()).in(given(zp).constant())
                        .in(given(random_quantized(t, {2, 3, 2}, 36))).in(given(scalar_f32(0.05f)).constant())
                        .in(given(zp).constant()).in(given(random_quantized(t, {2, 1, 2}, 37)))
                        .in(given(scalar_f32(0.1f)).constant()).in(given(zero_point(t, 3)).constant())
                        .runs("native", Takes::plain));
    cases.push_back(KernelCase("QLinearConcat", 1, "axis -1, scales at run time, " + tn).in_domain(kMs)
                        .attr("axis", int_attr(-1)).in(given(scalar_f32(0.05f))).in(given(zp))
                        .in(given(random_quantized(t, {2, 3, 2}, 38))).in(given(scalar_f32(0.07f))).in(given(zp))
                        .in(given(random_quantized(t, {2, 3, 5}, 39))).in(given(scalar_f32(0.1f)))
                        .in(given(zero_point(t, 3))).declines("native", "needs constant scales"));
    cases.push_back(KernelCase("QLinearConcat", 1, "channels-last, copied and requantized inputs, " + tn)
                        .in_domain(kMs).attr("axis", int_attr(1))
                        .in(given(scalar_f32(0.04f)).constant()).in(given(zero_point(t, 7)).constant())
                        .in(given(random_quantized(t, {2, 8, 3, 5}, 40)).channels_last())
                        .in(given(scalar_f32(0.04f)).constant()).in(given(zero_point(t, 7)).constant())
                        .in(given(random_quantized(t, {2, 3, 3, 5}, 41)).channels_last())
                        .in(given(scalar_f32(0.05f)).constant()).in(given(zp).constant())
                        .in(given(random_quantized(t, {2, 5, 3, 5}, 42)))
                        .in(given(scalar_f32(0.02f)).constant()).in(given(zero_point(t, -1 + (t == DType::u8 ? 101 : 0))).constant())
                        .runs("native", Takes::offered));
    cases.push_back(KernelCase("QLinearConcat", 1, "axis 0, N = 1 plain runs in chunks, " + tn).in_domain(kMs)
                        .attr("axis", int_attr(0)).in(given(scalar_f32(0.03f)).constant()).in(given(zp).constant())
                        .in(given(random_quantized(t, {1, 40000}, 43))).in(given(scalar_f32(0.05f)).constant())
                        .in(given(zp).constant()).in(given(random_quantized(t, {2, 40000}, 44)))
                        .in(given(scalar_f32(0.03f)).constant()).in(given(zp).constant())
                        .runs("native", Takes::plain));
  }
  const DType u8 = DType::u8, i8 = DType::i8;
  // QLinearLookup (cnnx.internal, from fold-qdq): int8 x indexes by its byte. The native kernel keeps a dense
  // layout x arrives in (an int8 convolution's channels-last, tests/passes/fold_qdq_test.cc); the harness
  // offers float32's channels-last descriptor, not dense for int8, so that case runs plain.
  for (DType t : {u8, i8}) {
    const std::string tn = dtype_name(t);
    cases.push_back(KernelCase("QLinearLookup", 1, tn + " x, uint8 table").in_domain(kInternalDomain)
                        .in(given(random_quantized(t, {2, 3, 4, 5}, 60))).in(given(random_quantized(u8, {256}, 61)).constant())
                        .runs("native", Takes::plain));
    cases.push_back(KernelCase("QLinearLookup", 1, tn + " x channels-last, int8 table").in_domain(kInternalDomain)
                        .in(given(random_quantized(t, {2, 16, 5, 7}, 62)).channels_last())
                        .in(given(random_quantized(i8, {256}, 63)).constant()).runs("native", Takes::plain));
  }
  // QLinearChannelLookup (cnnx.internal, from fold-qdq): a table row per output channel, the inputs joined along
  // the channels; the native kernel plain (a row per plane) or channels-last (a row per element of a pixel's run).
  for (DType t : {u8, i8}) {
    const std::string tn = dtype_name(t);
    cases.push_back(KernelCase("QLinearChannelLookup", 1, "one " + tn + " input, uint8 table").in_domain(kInternalDomain)
                        .in(given(random_quantized(u8, {5, 256}, 64)).constant())
                        .in(given(random_quantized(t, {2, 5, 3, 4}, 65))).runs("native"));
    cases.push_back(KernelCase("QLinearChannelLookup", 1, "three inputs, one " + tn + " channels-last, int8 table")
                        .in_domain(kInternalDomain).in(given(random_quantized(i8, {11, 256}, 66)).constant())
                        .in(given(random_quantized(t, {2, 3, 4, 5}, 67)).channels_last())
                        .in(given(random_quantized(u8, {2, 8, 4, 5}, 68)))
                        .in(given(random_quantized(t, {2, 0, 4, 5}, 69))).runs("native"));
    cases.push_back(KernelCase("QLinearChannelLookup", 1, "two " + tn + " inputs of rank 3, table at run time")
                        .in_domain(kInternalDomain).in(given(random_quantized(u8, {7, 256}, 70)))
                        .in(given(random_quantized(t, {1, 4, 9}, 71))).in(given(random_quantized(t, {1, 3, 9}, 72)))
                        .declines("native", "needs a constant table"));
  }
  cases.push_back(KernelCase("QLinearSoftmax", 1, "opset 13, axis 1").in_domain(kMs).attr("axis", int_attr(1))
                      .attr("opset", int_attr(13)).in(given(random_quantized(u8, {2, 5, 3}, 50)))
                      .in(given(scalar_f32(0.1f))).in(given(zero_point(u8, 128))).in(given(scalar_f32(1.f / 256)))
                      .in(given(zero_point(u8, 0))));
  cases.push_back(KernelCase("QLinearSoftmax", 1, "opset 11, coerced to 2-D").in_domain(kMs).attr("axis", int_attr(1))
                      .attr("opset", int_attr(11)).in(given(random_quantized(i8, {2, 5, 3}, 51)))
                      .in(given(scalar_f32(0.1f))).in(given(zero_point(i8, 0))).in(given(scalar_f32(1.f / 256)))
                      .in(given(zero_point(i8, -128))));
  cases.push_back(KernelCase("QGemm", 1, "u8 x s8 per column, int32 C, quantized Y").in_domain(kMs)
                      .attr("transB", int_attr(1)).attr("alpha", float_attr(0.5f))
                      .in(given(random_quantized(u8, {3, 5}, 40))).in(given(scalar_f32(0.02f))).in(given(zero_point(u8, 128)))
                      .in(given(random_quantized(i8, {4, 5}, 41))).in(given(floats_1d({0.01f, 0.02f, 0.03f, 0.04f})))
                      .in(given(zero_points(i8, {0, 0, 0, 0}))).in(given(random_quantized(DType::i32, {4}, 42)))
                      .in(given(scalar_f32(0.05f))).in(given(zero_point(u8, 100))));
  cases.push_back(KernelCase("QGemm", 1, "transA, float Y").in_domain(kMs).attr("transA", int_attr(1))
                      .in(given(random_quantized(i8, {5, 3}, 43))).in(given(scalar_f32(0.02f))).in(given(zero_point(i8, 1)))
                      .in(given(random_quantized(i8, {5, 2}, 44))).in(given(scalar_f32(0.01f))).in(given(zero_point(i8, -1))));
  cases.push_back(KernelCase("MatMulIntegerToFloat", 1, "per-column b, bias").in_domain(kMs)
                      .in(given(random_quantized(u8, {2, 3, 5}, 45))).in(given(random_quantized(i8, {5, 4}, 46)))
                      .in(given(scalar_f32(0.02f))).in(given(floats_1d({0.01f, 0.02f, 0.03f, 0.04f})))
                      .in(given(zero_point(u8, 120))).in(given(zero_points(i8, {0, 1, 2, 3}))).in(random_in({4})));
  cases.push_back(KernelCase("MatMulIntegerToFloat", 1, "no zero points, no bias").in_domain(kMs)
                      .in(given(random_quantized(i8, {3, 5}, 47))).in(given(random_quantized(i8, {5, 2}, 48)))
                      .in(given(scalar_f32(0.02f))).in(given(scalar_f32(0.1f))));
  cases.push_back(KernelCase("DynamicQuantizeMatMul", 1, "s8 B per column, bias").in_domain(kMs)
                      .in(random_in({2, 3, 5}, -2.f, 3.f)).in(given(random_quantized(i8, {5, 4}, 49)))
                      .in(given(floats_1d({0.01f, 0.02f, 0.03f, 0.04f}))).in(given(zero_points(i8, {0, 0, 0, 0})))
                      .in(random_in({4})));
  return cases;
}

}  // namespace

KERNEL_CASES("QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear", quantize_cases)
KERNEL_CASES("ConvInteger, MatMulInteger, QLinearConv, QLinearMatMul, FusedQLinearConv", integer_product_cases)
KERNEL_CASES("com.microsoft QLinearAdd, QLinearMul, cnnx.internal FusedQLinearAdd, QLinearLookup, QLinearChannelLookup, QLinearSigmoid, QLinearLeakyRelu, QLinearGlobalAveragePool, "
             "QLinearAveragePool, QLinearConcat, QLinearSoftmax, QGemm, MatMulIntegerToFloat, DynamicQuantizeMatMul", microsoft_cases)
