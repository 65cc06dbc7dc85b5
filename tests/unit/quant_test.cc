// The quantized ops (ops/quant): values against ONNX's formulas (rounding half to even before the zero point,
// saturation, NaN, per-axis scales, exact integer sums, requantization) and the errors malformed quantization
// parameters give. Every kernel against its reference: kernel_cases_quant_test.cc.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "tests/unit/quant_tensors.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

constexpr float kNaNf = std::numeric_limits<float>::quiet_NaN();
constexpr float kInff = std::numeric_limits<float>::infinity();

std::vector<int64_t> ints_of(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.numel(); ++i) v.push_back(t.int_at(i));
  return v;
}

// The message of the cnnx::Error `f` throws ("" when it does not throw).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

Attributes attrs(std::initializer_list<std::pair<const char*, Attribute>> list) {
  Attributes a;
  for (const auto& [name, value] : list) a.set(name, value);
  return a;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Scales are presented to infer as constants (as a quantizer's initializers are).
std::vector<Tensor> run_q(const std::string& op, const std::vector<Tensor>& in, int opset = 13,
                          const Attributes& a = {}, size_t outputs = 1, const std::string& domain = "") {
  return run_op(op, a, in, opset, outputs, "ref", std::vector<bool>(in.size(), true), domain);
}

}  // namespace

TEST_CASE("QuantizeLinear rounds x / scale half to even, then adds the zero point and saturates") {
  const Tensor x = make_tensor({9}, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 1000.f, kNaNf, kInff, -kInff});
  CHECK(ints_of(run_q("QuantizeLinear", {x, scalar_f32(1.f), zero_point(DType::i8, 0)})[0]) ==
        std::vector<int64_t>{0, 2, 2, 0, -2, 127, 0, 127, -128});
  // An odd zero point: round(x / scale) + 1, not round(x / scale + 1).
  CHECK(ints_of(run_q("QuantizeLinear", {x, scalar_f32(1.f), zero_point(DType::i8, 1)})[0]) ==
        std::vector<int64_t>{1, 3, 3, 1, -1, 127, 1, 127, -128});
  // No zero point: uint8, zero point 0.
  const Tensor y = run_q("QuantizeLinear", {x, scalar_f32(1.f)})[0];
  CHECK(y.dtype() == DType::u8);
  CHECK(ints_of(y) == std::vector<int64_t>{0, 2, 2, 0, 0, 255, 0, 255, 0});
}

TEST_CASE("QuantizeLinear of int32 x divides in double") {
  const Tensor x = typed_tensor(DType::i32, {4}, {3, 5, -3, 1000});
  CHECK(ints_of(run_q("QuantizeLinear", {x, scalar_f32(2.f), zero_point(DType::i8, 0)}, 10)[0]) ==
        std::vector<int64_t>{2, 2, -2, 127});  // 1.5 -> 2, 2.5 -> 2, -1.5 -> -2, saturated
}

TEST_CASE("QuantizeLinear and DequantizeLinear per axis") {
  const Tensor x = make_tensor({2, 3}, {1, 2, 3, -4, -5, -6});
  const Tensor q = run_q("QuantizeLinear", {x, floats_1d({1.f, 2.f}), zero_points(DType::i8, {0, 10})}, 13,
                         attrs({{"axis", int_attr(0)}}))[0];
  CHECK(ints_of(q) == std::vector<int64_t>{1, 2, 3, 8, 8, 7});  // -2.5 rounds to -2
  const Tensor r = run_q("DequantizeLinear", {q, floats_1d({1.f, 2.f}), zero_points(DType::i8, {0, 10})}, 13,
                         attrs({{"axis", int_attr(-2)}}))[0];
  CHECK(r.double_at(3) == -4.0);
  CHECK(r.double_at(4) == -4.0);
  CHECK(r.double_at(5) == -6.0);
}

TEST_CASE("DynamicQuantizeLinear follows ONNX's formula") {
  const Tensor x = make_tensor({6}, {0, 2, -3, -2.5f, 1.34f, 0.5f});
  const std::vector<Tensor> out = run_q("DynamicQuantizeLinear", {x}, 11, {}, 3);
  const float scale = float((2.0 - -3.0) / 255.0);
  CHECK(out[1].double_at(0) == double(scale));
  CHECK(out[2].int_at(0) == 153);
  for (int64_t i = 0; i < 6; ++i) {
    // round half to even (the default rounding mode) of the float32 quotient, then the zero point, saturated
    const double want = std::min(255.0, std::max(0.0, std::nearbyint(double(x.data<float>()[i] / scale)) + 153));
    CHECK(out[0].int_at(i) == int64_t(want));
  }
  const std::vector<Tensor> zeros = run_q("DynamicQuantizeLinear", {make_tensor({3}, {0, 0, 0})}, 11, {}, 3);
  CHECK(zeros[1].double_at(0) == 0.0);
  CHECK(ints_of(zeros[0]) == std::vector<int64_t>{0, 0, 0});
}

TEST_CASE("ConvInteger and MatMulInteger sum exactly; padding is the zero point") {
  // x = 3x3 of 130 with zero point 128 (real 2), w = 1 + per-channel zero point... a 3x3 all-ones kernel.
  const Tensor x = typed_tensor(DType::u8, {1, 1, 3, 3}, std::vector<int64_t>(9, 130));
  const Tensor w = typed_tensor(DType::u8, {1, 1, 3, 3}, std::vector<int64_t>(9, 6));
  const Tensor y = run_q("ConvInteger", {x, w, zero_point(DType::u8, 128), zero_point(DType::u8, 5)}, 10,
                         attrs({{"pads", ints({1, 1, 1, 1})}}))[0];
  CHECK(y.dtype() == DType::i32);
  CHECK(ints_of(y) == std::vector<int64_t>{8, 12, 8, 12, 18, 12, 8, 12, 8});  // 2 * 1 per tap inside
  const Tensor a = typed_tensor(DType::i8, {2, 2}, {-128, 127, 1, 2});
  const Tensor b = typed_tensor(DType::i8, {2, 2}, {-128, -128, 127, 3});
  const Tensor m = run_q("MatMulInteger", {a, b, zero_points(DType::i8, {0, 1}), zero_points(DType::i8, {0, -1})}, 10)[0];
  CHECK(ints_of(m) == std::vector<int64_t>{-128 * -128 + 127 * 127, -128 * -127 + 127 * 4, 0 * -128 + 1 * 127,
                                           0 * -127 + 1 * 4});
}

TEST_CASE("ConvInteger with strides, dilations, uneven pads and groups matches a direct loop") {
  const Tensor x = random_quantized(DType::u8, {2, 4, 7, 8}, 60);
  const Tensor w = random_quantized(DType::i8, {6, 2, 3, 2}, 61);
  const Attributes a = attrs({{"strides", ints({2, 3})}, {"dilations", ints({2, 1})}, {"pads", ints({1, 0, 2, 1})},
                              {"group", int_attr(2)}});
  const Tensor y = run_q("ConvInteger", {x, w, zero_point(DType::u8, 7), zero_points(DType::i8, {0, 1, 2, 3, 4, 5})}, 10, a)[0];
  const int64_t OH = (7 + 1 + 2 - ((3 - 1) * 2 + 1)) / 2 + 1, OW = (8 + 0 + 1 - 2) / 3 + 1;
  REQUIRE(y.shape() == Shape{2, 6, OH, OW});
  for (int64_t n = 0; n < 2; ++n)
    for (int64_t m = 0; m < 6; ++m)
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          int64_t sum = 0;
          for (int64_t c = 0; c < 2; ++c)
            for (int64_t kh = 0; kh < 3; ++kh)
              for (int64_t kw = 0; kw < 2; ++kw) {
                const int64_t ih = oh * 2 - 1 + kh * 2, iw = ow * 3 - 0 + kw;
                if (ih < 0 || ih >= 7 || iw < 0 || iw >= 8) continue;
                const int64_t xv = x.int_at(((n * 4 + (m / 3) * 2 + c) * 7 + ih) * 8 + iw) - 7;
                sum += xv * (w.int_at(((m * 2 + c) * 3 + kh) * 2 + kw) - m);
              }
          CAPTURE(n); CAPTURE(m); CAPTURE(oh); CAPTURE(ow);
          CHECK(y.int_at(((n * 6 + m) * OH + oh) * OW + ow) == sum);
        }
}

TEST_CASE("QLinearConv requantizes the exact sum plus the int32 bias") {
  // 1x1 conv: y[m] = round(((x - 3) (w[m] - 1) + B[m]) * 0.5 * w_scale[m] / 0.125) + 2.
  const Tensor x = typed_tensor(DType::u8, {1, 1, 2, 2}, {3, 4, 5, 255});
  const Tensor w = typed_tensor(DType::i8, {2, 1, 1, 1}, {2, -1});
  const Tensor b = typed_tensor(DType::i32, {2}, {0, 1});
  const Tensor y = run_q("QLinearConv", {x, scalar_f32(0.5f), zero_point(DType::u8, 3), w, floats_1d({0.25f, 0.125f}),
                                         zero_points(DType::i8, {1, 1}), scalar_f32(0.125f), zero_point(DType::i8, 2), b},
                         10)[0];
  CHECK(y.dtype() == DType::i8);
  // channel 0: acc = x - 3 = {0, 1, 2, 252}, times 1; channel 1: acc = -2 (x - 3) + 1, times 0.5.
  // channel 0: 1 * {0, 1, 2, 252} + 2 = {2, 3, 4, 254 -> 127}; channel 1: 0.5 * {1, -1, -3, -503} =
  // {0.5, -0.5, -1.5, -251.5} -> {0, 0, -2, -252} (ties to even), + 2 = {2, 2, 0, -250 -> -128}.
  CHECK(ints_of(y) == std::vector<int64_t>{2, 3, 4, 127, 2, 2, 0, -128});
}

TEST_CASE("com.microsoft QLinearAdd, QLinearConcat and QLinearGlobalAveragePool") {
  const Tensor a = typed_tensor(DType::u8, {3}, {128, 130, 0});
  const Tensor b = typed_tensor(DType::u8, {1}, {129});
  const Tensor c = run_q("QLinearAdd", {a, scalar_f32(0.5f), zero_point(DType::u8, 128), b, scalar_f32(0.25f),
                                        zero_point(DType::u8, 128), scalar_f32(0.5f), zero_point(DType::u8, 100)},
                         1, {}, 1, "com.microsoft")[0];
  // (0 + 0.25) / 0.5 = 0.5 -> 0; (1 + 0.25) / 0.5 = 2.5 -> 2; (-64 + 0.25) / 0.5 = -127.5 -> -128, + 100 -> 0.
  CHECK(ints_of(c) == std::vector<int64_t>{100, 102, 0});
  // An input with the output's scale and zero point is copied exactly.
  const Tensor x0 = random_quantized(DType::i8, {2, 3}, 1);
  const Tensor cat = run_q("QLinearConcat", {scalar_f32(0.1f), zero_point(DType::i8, 5), x0, scalar_f32(0.1f),
                                             zero_point(DType::i8, 5), x0, scalar_f32(0.2f), zero_point(DType::i8, 5)},
                           1, attrs({{"axis", int_attr(0)}}), 1, "com.microsoft")[0];
  CHECK(cat.shape() == Shape{4, 3});
  for (int64_t i = 0; i < 6; ++i) CHECK(cat.int_at(i) == x0.int_at(i));
  const Tensor pool_x = typed_tensor(DType::u8, {1, 2, 1, 2}, {1, 2, 10, 20});
  const Tensor pool = run_q("QLinearGlobalAveragePool", {pool_x, scalar_f32(1.f), zero_point(DType::u8, 0),
                                                         scalar_f32(1.f), zero_point(DType::u8, 0)},
                            1, {}, 1, "com.microsoft")[0];
  CHECK(pool.shape() == Shape{1, 2, 1, 1});
  CHECK(ints_of(pool) == std::vector<int64_t>{2, 15});  // 1.5 -> 2, 15
  // AveragePool 1x2 windows, stride 1, a right pad: without count_include_pad the edge window averages 1 cell.
  Attributes window = attrs({{"kernel_shape", ints({1, 2})}, {"pads", ints({0, 0, 0, 1})}});
  const Tensor avg = run_q("QLinearAveragePool", {pool_x, scalar_f32(1.f), zero_point(DType::u8, 0), scalar_f32(1.f),
                                                  zero_point(DType::u8, 0)}, 1, window, 1, "com.microsoft")[0];
  CHECK(avg.shape() == Shape{1, 2, 1, 2});
  CHECK(ints_of(avg) == std::vector<int64_t>{2, 2, 15, 20});
  window.set("count_include_pad", int_attr(1));
  const Tensor with_pad = run_q("QLinearAveragePool", {pool_x, scalar_f32(1.f), zero_point(DType::u8, 0),
                                                       scalar_f32(1.f), zero_point(DType::u8, 0)},
                                1, window, 1, "com.microsoft")[0];
  CHECK(ints_of(with_pad) == std::vector<int64_t>{2, 1, 15, 10});  // 2 / 2 = 1, 20 / 2 = 10
}

TEST_CASE("com.microsoft QGemm, MatMulIntegerToFloat and DynamicQuantizeMatMul") {
  // QGemm: A' = A^T = [[1, 2]], B = [[3], [4]] (zero points 0, 1), C = 5: acc = 1 * 2 + 2 * 3 + 5 = 13.
  const Tensor a = typed_tensor(DType::u8, {2, 1}, {1, 2});
  const Tensor b = typed_tensor(DType::i8, {2, 1}, {3, 4});
  const Tensor c = typed_tensor(DType::i32, {1}, {5});
  Attributes ta = attrs({{"transA", int_attr(1)}, {"alpha", float_attr(2.f)}});
  const Tensor yf = run_q("QGemm", {a, scalar_f32(0.5f), zero_point(DType::u8, 0), b, scalar_f32(0.25f),
                                    zero_point(DType::i8, 1), c}, 1, ta, 1, "com.microsoft")[0];
  CHECK(yf.dtype() == DType::f32);
  CHECK(yf.double_at(0) == 13 * 2 * 0.5 * 0.25);  // 3.25
  const Tensor yq = run_q("QGemm", {a, scalar_f32(0.5f), zero_point(DType::u8, 0), b, scalar_f32(0.25f),
                                    zero_point(DType::i8, 1), c, scalar_f32(0.5f), zero_point(DType::i8, -10)},
                          1, ta, 1, "com.microsoft")[0];
  CHECK(yq.dtype() == DType::i8);
  CHECK(yq.int_at(0) == 6 - 10);  // 3.25 / 0.5 = 6.5 -> 6 (ties to even)
  // MatMulIntegerToFloat: (A - 1)(B - 0) * 0.5 * 0.25 + bias.
  const Tensor m = run_q("MatMulIntegerToFloat", {typed_tensor(DType::u8, {1, 2}, {3, 5}), typed_tensor(DType::u8, {2, 1}, {2, 1}),
                                                  scalar_f32(0.5f), scalar_f32(0.25f), zero_point(DType::u8, 1), Tensor(),
                                                  make_tensor({1}, {1.f})},
                         1, {}, 1, "com.microsoft")[0];
  CHECK(m.double_at(0) == (2 * 2 + 4 * 1) * 0.125 + 1);
  // DynamicQuantizeMatMul: A = [0, 2.55] quantizes to [0, 255] with scale 0.01, zero point 0.
  const Tensor d = run_q("DynamicQuantizeMatMul", {make_tensor({1, 2}, {0.f, 2.55f}), typed_tensor(DType::i8, {2, 1}, {1, 2}),
                                                   scalar_f32(1.f)},
                         1, {}, 1, "com.microsoft")[0];
  CHECK(d.double_at(0) == doctest::Approx(255 * 2 * double(float(2.55 / 255))).epsilon(1e-7));
}

TEST_CASE("com.microsoft QLinearSoftmax: the opset decides the axes") {
  // Rows [0, 0] of X [1, 2, 2] (x = 10, zero point 10): opset 13 over axis 1 gives 1/2 per element; opset 11
  // (coerced to 2-D at axis 1) spreads over all 4 elements: 1/4.
  const Tensor x = typed_tensor(DType::u8, {1, 2, 2}, {10, 10, 10, 10});
  auto run = [&](int64_t opset) {
    return ints_of(run_q("QLinearSoftmax", {x, scalar_f32(0.1f), zero_point(DType::u8, 10), scalar_f32(1.f / 256),
                                            zero_point(DType::u8, 0)},
                         1, attrs({{"axis", int_attr(1)}, {"opset", int_attr(opset)}}), 1, "com.microsoft")[0]);
  };
  CHECK(run(13) == std::vector<int64_t>{128, 128, 128, 128});
  CHECK(run(11) == std::vector<int64_t>{64, 64, 64, 64});
}

TEST_CASE("malformed quantization parameters are errors naming the input") {
  const Tensor x = make_tensor({2, 3});
  for (float bad : {0.f, -1.f, kNaNf, kInff}) {
    CAPTURE(bad);
    CHECK(has(error_of([&] { run_q("QuantizeLinear", {x, scalar_f32(bad), zero_point(DType::u8, 0)}); }),
              "y_scale must be finite and positive"));
    CHECK(has(error_of([&] {
                run_q("DequantizeLinear", {typed_tensor(DType::u8, {2}, {1, 2}), scalar_f32(bad)});
              }),
              "x_scale must be finite and positive"));
  }
  // A zero point of another type than x.
  CHECK(has(error_of([&] {
              run_q("DequantizeLinear", {typed_tensor(DType::u8, {2}, {1, 2}), scalar_f32(1.f), zero_point(DType::i8, 0)});
            }),
            "x_zero_point (input 2) has element type int8; expected uint8"));
  CHECK(has(error_of([&] { run_q("QuantizeLinear", {x, scalar_f32(1.f), zero_point(DType::i32, 0)}); }),
            "expected int8 or uint8"));
  // Per-axis: a length not matching the axis, an axis out of range, a per-axis scale at opset 10.
  CHECK(has(error_of([&] { run_q("QuantizeLinear", {x, floats_1d({1, 2}), zero_points(DType::u8, {0, 0})}); }),
            "y_scale has 2 values; the quantization axis has 3"));
  CHECK(has(error_of([&] {
              run_q("QuantizeLinear", {x, floats_1d({1, 2, 3}), zero_points(DType::u8, {0, 0, 0})}, 13,
                    attrs({{"axis", int_attr(2)}}));
            }),
            "axis"));
  CHECK(has(error_of([&] { run_q("QuantizeLinear", {x, floats_1d({1, 2, 3}), zero_points(DType::u8, {0, 0, 0})}, 10); }),
            "must be a scalar (per-tensor quantization)"));
  CHECK(has(error_of([&] { run_q("QuantizeLinear", {x, floats_1d({1, 2, 3}), zero_points(DType::u8, {0, 0})}); }),
            "y_zero_point"));
  CHECK(has(error_of([&] { run_q("QuantizeLinear", {x, make_tensor({1, 3}, {1, 2, 3})}); }), "must be a scalar or 1-D"));
  // Opset 21's blocked quantization.
  CHECK(has(error_of([&] {
              run_q("QuantizeLinear", {x, scalar_f32(1.f)}, 19, attrs({{"block_size", int_attr(2)}}));
            }),
            "blocked quantization (opset 21) is not supported"));
  // QLinearConv: the bias must be int32 [M]; w_scale one value or one per output channel.
  const Tensor qx = random_quantized(DType::u8, {1, 2, 3, 3}, 2), qw = random_quantized(DType::u8, {3, 2, 1, 1}, 3);
  auto qconv = [&](Tensor w_scale, Tensor bias) {
    return error_of([&] {
      run_q("QLinearConv", {qx, scalar_f32(1.f), zero_point(DType::u8, 0), qw, w_scale, Tensor(), scalar_f32(1.f),
                            zero_point(DType::u8, 0), bias},
            10);
    });
  };
  CHECK(has(qconv(scalar_f32(1.f), make_tensor({3}, {1, 2, 3})), "B (input 8) has element type float32; expected int32"));
  CHECK(has(qconv(scalar_f32(1.f), typed_tensor(DType::i32, {2}, {1, 2})), "one value per output channel (3)"));
  CHECK(has(qconv(floats_1d({1, 2}), Tensor()), "w_scale has 2 values; the quantization axis has 3"));
  // ConvInteger: a zero point of another type.
  CHECK(has(error_of([&] { run_q("ConvInteger", {qx, qw, zero_point(DType::i8, 0)}, 10); }),
            "x_zero_point (input 2) has element type int8; expected uint8"));
  // QLinearConcat: inputs come in triples.
  CHECK(has(error_of([&] {
              run_q("QLinearConcat", {scalar_f32(1.f), zero_point(DType::u8, 0), qx, scalar_f32(1.f), zero_point(DType::u8, 0), qx}, 1,
                    attrs({{"axis", int_attr(0)}}), 1, "com.microsoft");
            }),
            "triples"));
  // com.microsoft is accepted only for the quantized ops registered in it.
  CHECK(has(error_of([&] { builtin_ops().find("com.microsoft", "Conv", 1); }), "Conv"));
}
