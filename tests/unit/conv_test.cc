#include <doctest/doctest.h>

#include <cmath>

#include "ops/conv/conv.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

// The textbook definition, written independently of the kernel: for every output and every tap, read the
// input at o * stride - pad_begin + j * dilation when it is inside, else 0. Spatial dims are padded to 3.
struct Geometry3 {
  int64_t in[3], k[3], s[3], d[3], p[3], out[3];
};

std::vector<double> naive_conv(const Tensor& x, const Tensor& w, const float* bias, int64_t group,
                               const Geometry3& g) {
  const int64_t N = x.dim(0), C = x.dim(1), M = w.dim(0), Cg = C / group, Mg = M / group;
  const int64_t out_plane = g.out[0] * g.out[1] * g.out[2];
  std::vector<double> y(size_t(N * M * out_plane));
  for (int64_t n = 0; n < N; ++n)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t o0 = 0; o0 < g.out[0]; ++o0)
        for (int64_t o1 = 0; o1 < g.out[1]; ++o1)
          for (int64_t o2 = 0; o2 < g.out[2]; ++o2) {
            double sum = bias ? bias[m] : 0.0;
            for (int64_t c = 0; c < Cg; ++c)
              for (int64_t j0 = 0; j0 < g.k[0]; ++j0)
                for (int64_t j1 = 0; j1 < g.k[1]; ++j1)
                  for (int64_t j2 = 0; j2 < g.k[2]; ++j2) {
                    const int64_t i0 = o0 * g.s[0] - g.p[0] + j0 * g.d[0];
                    const int64_t i1 = o1 * g.s[1] - g.p[1] + j1 * g.d[1];
                    const int64_t i2 = o2 * g.s[2] - g.p[2] + j2 * g.d[2];
                    if (i0 < 0 || i0 >= g.in[0] || i1 < 0 || i1 >= g.in[1] || i2 < 0 || i2 >= g.in[2]) continue;
                    const int64_t xc = n * C + (m / Mg) * Cg + c;
                    const double xv = x.data<float>()[((xc * g.in[0] + i0) * g.in[1] + i1) * g.in[2] + i2];
                    const double wv = w.data<float>()[(((m * Cg + c) * g.k[0] + j0) * g.k[1] + j1) * g.k[2] + j2];
                    sum += xv * wv;
                  }
            y[size_t(((n * M + m) * g.out[0] + o0) * g.out[1] * g.out[2] + o1 * g.out[2] + o2)] = sum;
          }
  return y;
}

// Right-aligns a per-axis list into 3 axes, filling leading axes with `fill`.
void lift(const std::vector<int64_t>& v, int64_t fill, int64_t (&dst)[3]) {
  for (size_t a = 0; a < 3; ++a) dst[a] = a + v.size() >= 3 ? v[a + v.size() - 3] : fill;
}

// The 3-D geometry a Conv or ConvTranspose case expects: its X, W and Y shapes, strides and dilations (default
// 1) and begin pads.
template <class Case>
Geometry3 expected_geometry(const Case& c) {
  const size_t k = c.x.size() - 2;
  Geometry3 g;
  lift(Shape(c.x.begin() + 2, c.x.end()), 1, g.in);
  lift(Shape(c.w.begin() + 2, c.w.end()), 1, g.k);
  lift(c.strides.empty() ? Shape(k, 1) : c.strides, 1, g.s);
  lift(c.dilations.empty() ? Shape(k, 1) : c.dilations, 1, g.d);
  lift(c.want_pad_begin, 0, g.p);
  lift(Shape(c.want_y.begin() + 2, c.want_y.end()), 1, g.out);
  return g;
}

}  // namespace

TEST_CASE("Conv matches the textbook definition for every geometry") {
  struct Case {
    std::string what;
    Shape x, w;
    int64_t group;
    std::string auto_pad;
    std::vector<int64_t> strides, dilations, pads;  // attributes; empty = not given
    std::vector<int64_t> want_pad_begin;            // pads after auto_pad resolution, worked out by hand
    Shape want_y;
    bool bias;
  };
  const Case cases[] = {
      {"1-D plain", {2, 3, 9}, {4, 3, 3}, 1, "NOTSET", {}, {}, {}, {0}, {2, 4, 7}, true},
      {"1-D strided, padded", {1, 2, 10}, {3, 2, 4}, 1, "NOTSET", {3}, {}, {2, 1}, {2}, {1, 3, 4}, false},
      {"2-D pads 1", {1, 3, 5, 6}, {2, 3, 3, 3}, 1, "NOTSET", {}, {}, {1, 1, 1, 1}, {1, 1}, {1, 2, 5, 6}, true},
      {"2-D asymmetric pads, stride 2", {2, 2, 7, 5}, {3, 2, 3, 3}, 1, "NOTSET", {2, 2}, {}, {1, 0, 2, 1}, {1, 0},
       {2, 3, 4, 2}, true},
      {"2-D dilation 2", {1, 2, 9, 8}, {2, 2, 3, 2}, 1, "NOTSET", {}, {2, 3}, {0, 1, 0, 1}, {0, 1}, {1, 2, 5, 7},
       false},
      {"2-D grouped", {1, 6, 5, 5}, {4, 3, 3, 3}, 2, "NOTSET", {}, {}, {1, 1, 1, 1}, {1, 1}, {1, 4, 5, 5}, true},
      {"2-D depthwise, multiplier 2", {2, 3, 6, 6}, {6, 1, 3, 3}, 3, "NOTSET", {2, 1}, {}, {1, 1, 1, 1}, {1, 1},
       {2, 6, 3, 6}, true},
      {"2-D pads larger than the kernel", {1, 1, 3, 3}, {1, 1, 2, 2}, 1, "NOTSET", {}, {}, {3, 0, 3, 2}, {3, 0},
       {1, 1, 8, 4}, true},
      {"2-D 1x1 (contiguous rows)", {1, 5, 4, 7}, {3, 5, 1, 1}, 1, "NOTSET", {}, {}, {}, {0, 0}, {1, 3, 4, 7}, true},
      // SAME: out = ceil(in / stride); total pad = (out - 1) * stride + dilated kernel - in.
      {"SAME_UPPER stride 2", {1, 2, 6, 7}, {2, 2, 3, 4}, 1, "SAME_UPPER", {2, 2}, {}, {}, {0, 1}, {1, 2, 3, 4}, true},
      {"SAME_LOWER stride 2", {1, 2, 6, 7}, {2, 2, 3, 4}, 1, "SAME_LOWER", {2, 2}, {}, {}, {1, 2}, {1, 2, 3, 4}, true},
      {"SAME_UPPER dilated", {1, 1, 5, 5}, {1, 1, 2, 2}, 1, "SAME_UPPER", {}, {2, 2}, {}, {1, 1}, {1, 1, 5, 5}, false},
      {"SAME kernel larger than input", {1, 1, 2, 2}, {1, 1, 5, 5}, 1, "SAME_LOWER", {}, {}, {}, {2, 2}, {1, 1, 2, 2},
       false},
      {"VALID stride 3", {1, 2, 10, 8}, {2, 2, 3, 3}, 1, "VALID", {3, 3}, {}, {}, {0, 0}, {1, 2, 3, 2}, true},
      {"3-D", {1, 2, 4, 5, 6}, {3, 2, 2, 3, 3}, 1, "NOTSET", {1, 2, 1}, {2, 1, 1}, {0, 1, 1, 1, 0, 1}, {0, 1, 1},
       {1, 3, 3, 2, 6}, true},
      {"3-D grouped SAME_UPPER", {1, 4, 3, 4, 5}, {2, 2, 3, 3, 3}, 2, "SAME_UPPER", {2, 2, 2}, {}, {}, {1, 0, 1},
       {1, 2, 2, 2, 3}, false},
      {"empty batch", {0, 2, 4, 4}, {1, 2, 3, 3}, 1, "NOTSET", {}, {}, {}, {0, 0}, {0, 1, 2, 2}, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    CAPTURE(to_string(c.x));
    CAPTURE(to_string(c.w));
    CAPTURE(c.group);
    CAPTURE(c.auto_pad);
    CAPTURE(to_string(c.strides));
    CAPTURE(to_string(c.dilations));
    CAPTURE(to_string(c.pads));
    Attributes a;
    a.set("group", int_attr(c.group));
    a.set("auto_pad", string_attr(c.auto_pad));
    if (!c.strides.empty()) a.set("strides", ints(c.strides));
    if (!c.dilations.empty()) a.set("dilations", ints(c.dilations));
    if (!c.pads.empty()) a.set("pads", ints(c.pads));
    const Tensor x = wave_tensor(c.x, 1.f), w = wave_tensor(c.w, 0.5f), b = wave_tensor({c.w[0]}, 2.f);
    std::vector<Tensor> inputs{x, w};
    if (c.bias) inputs.push_back(b);
    const Tensor y = run_op("Conv", a, inputs)[0];
    REQUIRE(y.shape() == c.want_y);

    const Geometry3 g = expected_geometry(c);
    const std::vector<double> want = naive_conv(x, w, c.bias ? b.data<float>() : nullptr, c.group, g);
    CHECK(within_tolerance("Conv", 19, y, want) == "");
  }
}

TEST_CASE("Conv: the ONNX documentation example, hand-checked") {
  // X = 0..24 as 5x5, W = ones 3x3, pads 1: corners sum 4 cells, e.g. 0+1+5+6 = 12.
  Attributes a;
  a.set("kernel_shape", ints({3, 3}));
  a.set("pads", ints({1, 1, 1, 1}));
  const Tensor y = run_op("Conv", a, {make_tensor({1, 1, 5, 5}), make_tensor({1, 1, 3, 3}, std::vector<float>(9, 1.f))})[0];
  const std::vector<float> want{12, 21, 27, 33, 24, 33, 54, 63, 72, 51, 63, 99, 108, 117, 81,
                                93, 144, 153, 162, 111, 72, 111, 117, 123, 84};
  REQUIRE(y.shape() == Shape{1, 1, 5, 5});
  for (size_t i = 0; i < want.size(); ++i) {
    CAPTURE(i);
    CHECK(y.data<float>()[i] == want[i]);
  }
}

TEST_CASE("Conv geometry resolves auto_pad once, for infer and kernels alike") {
  struct Case { std::string auto_pad; int64_t in, k, s, d; int64_t want_begin, want_end, want_out; };
  const Case cases[] = {
      {"SAME_UPPER", 5, 3, 2, 1, 1, 1, 3}, {"SAME_UPPER", 6, 3, 2, 1, 0, 1, 3}, {"SAME_LOWER", 6, 3, 2, 1, 1, 0, 3},
      {"SAME_UPPER", 7, 4, 1, 1, 1, 2, 7}, {"SAME_LOWER", 7, 4, 1, 1, 2, 1, 7}, {"SAME_UPPER", 5, 3, 1, 3, 3, 3, 5},
      {"VALID", 7, 3, 2, 1, 0, 0, 3},      {"VALID", 7, 3, 1, 3, 0, 0, 1},
  };
  for (const Case& c : cases) {
    CAPTURE(c.auto_pad); CAPTURE(c.in); CAPTURE(c.k); CAPTURE(c.s); CAPTURE(c.d);
    Attributes a;
    a.set("auto_pad", string_attr(c.auto_pad));
    a.set("strides", ints({c.s}));
    a.set("dilations", ints({c.d}));
    Node n = make_node("Conv", a, 2, 1, 19);
    const ConvGeometry g = resolve_conv_geometry(params_as<ConvParams>(*n.params, n.op_type),
                                                 {ValueInfo::of(DType::f32, {1, 1, c.in}),
                                                  ValueInfo::of(DType::f32, {1, 1, c.k})});
    CHECK(g.pad_begin[0] == c.want_begin);
    CHECK(g.pad_end[0] == c.want_end);
    CHECK(g.out[0] == c.want_out);
  }
}

TEST_CASE("Conv infers with unknown dims at load time") {
  Attributes a;
  a.set("strides", ints({2, 2}));
  a.set("pads", ints({1, 1, 1, 1}));
  Node n = make_node("Conv", a, 3, 1, 13);
  const std::vector<ValueInfo> out = n.def->infer(
      *n.params, {ValueInfo::of(DType::f32, {kUnknownDim, 8, kUnknownDim, 10}), ValueInfo::of(DType::f32, {16, 8, 3, 3}),
                  ValueInfo::of(DType::f32, {16})});
  CHECK(out[0].shape == Shape{kUnknownDim, 16, kUnknownDim, 5});
  // Unknown channels skip the channel checks but keep the rest.
  const std::vector<ValueInfo> out2 = n.def->infer(
      *n.params, {ValueInfo::of(DType::f32, {1, kUnknownDim, 9, 9}), ValueInfo::of(DType::f32, {4, 8, 3, 3}),
                  ValueInfo::of(DType::f32, {4})});
  CHECK(out2[0].shape == Shape{1, 4, 5, 5});
}

namespace {

// A convolution the op must refuse: inputs X, W (and B unless b is empty) of these shapes, with these attributes.
struct Refusal {
  std::string what;
  Shape x, w, b;
  std::vector<std::pair<const char*, Attribute>> attrs;
};

void check_refusals(const char* op, const std::vector<Refusal>& cases) {
  for (const Refusal& c : cases) {
    CAPTURE(op);
    CAPTURE(c.what);
    Attributes a;
    for (const auto& [name, value] : c.attrs) a.set(name, value);
    std::vector<Tensor> inputs{make_tensor(c.x), make_tensor(c.w)};
    if (!c.b.empty()) inputs.push_back(make_tensor(c.b));
    CHECK_THROWS_AS(run_op(op, a, inputs), Error);
  }
}

}  // namespace

TEST_CASE("Conv refuses bad attributes and shapes with an error") {
  const std::vector<Refusal> cases = {
      {"zero stride", {1, 1, 5, 5}, {1, 1, 3, 3}, {}, {{"strides", ints({1, 0})}}},
      {"negative stride", {1, 1, 5, 5}, {1, 1, 3, 3}, {}, {{"strides", ints({-1, 1})}}},
      {"zero dilation", {1, 1, 5, 5}, {1, 1, 3, 3}, {}, {{"dilations", ints({0, 1})}}},
      {"negative pads", {1, 1, 5, 5}, {1, 1, 3, 3}, {}, {{"pads", ints({0, -1, 0, 0})}}},
      {"odd pads count", {1, 1, 5, 5}, {1, 1, 3, 3}, {}, {{"pads", ints({1, 1, 1})}}},
      {"pads for another rank", {1, 1, 5, 5}, {1, 1, 3, 3}, {}, {{"pads", ints({1, 1})}}},
      {"strides for another rank", {1, 1, 5, 5}, {1, 1, 3, 3}, {}, {{"strides", ints({1, 1, 1})}}},
      {"strides and dilations disagree", {1, 1, 5, 5}, {1, 1, 3, 3}, {},
       {{"strides", ints({1, 1})}, {"dilations", ints({1})}}},
      {"pads with auto_pad", {1, 1, 5, 5}, {1, 1, 3, 3}, {},
       {{"auto_pad", string_attr("SAME_UPPER")}, {"pads", ints({1, 1, 1, 1})}}},
      {"unknown auto_pad", {1, 1, 5, 5}, {1, 1, 3, 3}, {}, {{"auto_pad", string_attr("SAME")}}},
      {"group 0", {1, 2, 5, 5}, {2, 2, 3, 3}, {}, {{"group", int_attr(0)}}},
      {"group does not divide C", {1, 3, 5, 5}, {2, 1, 3, 3}, {}, {{"group", int_attr(2)}}},
      {"group does not divide M", {1, 4, 5, 5}, {3, 2, 3, 3}, {}, {{"group", int_attr(2)}}},
      {"W channels != C / group", {1, 4, 5, 5}, {2, 4, 3, 3}, {}, {{"group", int_attr(2)}}},
      {"W channels != C", {1, 3, 5, 5}, {2, 2, 3, 3}, {}, {}},
      {"kernel larger than padded input", {1, 1, 3, 3}, {1, 1, 5, 5}, {}, {{"pads", ints({0, 0, 1, 1})}}},
      {"dilated kernel larger than input", {1, 1, 5, 5}, {1, 1, 3, 3}, {}, {{"dilations", ints({3, 1})}}},
      {"VALID kernel larger than input", {1, 1, 4, 4}, {1, 1, 5, 5}, {}, {{"auto_pad", string_attr("VALID")}}},
      {"kernel_shape disagrees with W", {1, 1, 5, 5}, {1, 1, 3, 3}, {}, {{"kernel_shape", ints({3, 2})}}},
      {"zero kernel_shape", {1, 1, 5, 5}, {1, 1, 3, 3}, {}, {{"kernel_shape", ints({0, 3})}}},
      {"empty W kernel", {1, 1, 5, 5}, {1, 1, 0, 3}, {}, {}},
      {"bias of wrong length", {1, 1, 5, 5}, {2, 1, 3, 3}, {3}, {}},
      {"bias of wrong rank", {1, 1, 5, 5}, {2, 1, 3, 3}, {1, 2}, {}},
      {"X without spatial dims", {1, 1}, {1, 1}, {}, {}},
      {"4 spatial dims", {1, 1, 3, 3, 3, 3}, {1, 1, 1, 1, 1, 1}, {}, {}},
      {"W rank differs from X", {1, 1, 5, 5}, {1, 1, 3}, {}, {}},
      {"unknown attribute", {1, 1, 5, 5}, {1, 1, 3, 3}, {}, {{"padding", ints({1, 1, 1, 1})}}},
  };
  check_refusals("Conv", cases);
  // Element types other than float32.
  CHECK_THROWS_AS(run_op("Conv", {}, {make_int_tensor({1, 1, 2}, {1, 2}), make_tensor({1, 1, 1})}), Error);
}

TEST_CASE("ConvTranspose refuses bad attributes and shapes with an error") {
  const std::vector<Refusal> cases = {  // W [C, M/group, K...]
      {"zero stride", {1, 1, 3, 3}, {1, 1, 3, 3}, {}, {{"strides", ints({1, 0})}}},
      {"zero dilation", {1, 1, 3, 3}, {1, 1, 3, 3}, {}, {{"dilations", ints({0, 1})}}},
      {"negative pads", {1, 1, 3, 3}, {1, 1, 3, 3}, {}, {{"pads", ints({0, -1, 0, 0})}}},
      {"odd pads count", {1, 1, 3, 3}, {1, 1, 3, 3}, {}, {{"pads", ints({1, 1, 1})}}},
      {"pads with auto_pad", {1, 1, 3, 3}, {1, 1, 3, 3}, {},
       {{"auto_pad", string_attr("SAME_UPPER")}, {"pads", ints({1, 1, 1, 1})}}},
      {"unknown auto_pad", {1, 1, 3, 3}, {1, 1, 3, 3}, {}, {{"auto_pad", string_attr("SAME")}}},
      {"group 0", {1, 2, 3, 3}, {2, 1, 3, 3}, {}, {{"group", int_attr(0)}}},
      {"group does not divide C", {1, 3, 3, 3}, {3, 1, 3, 3}, {}, {{"group", int_attr(2)}}},
      {"W dim 0 != C", {1, 2, 3, 3}, {3, 1, 3, 3}, {}, {}},
      {"negative output_padding", {1, 1, 3, 3}, {1, 1, 3, 3}, {},
       {{"strides", ints({2, 2})}, {"output_padding", ints({-1, 0})}}},
      {"output_padding not below stride or dilation", {1, 1, 3, 3}, {1, 1, 3, 3}, {},
       {{"strides", ints({2, 2})}, {"output_padding", ints({2, 0})}}},
      {"output_padding for another rank", {1, 1, 3, 3}, {1, 1, 3, 3}, {}, {{"output_padding", ints({0})}}},
      {"output_shape of wrong length", {1, 1, 3, 3}, {1, 1, 3, 3}, {}, {{"output_shape", ints({5, 5, 5})}}},
      {"negative output_shape", {1, 1, 3, 3}, {1, 1, 3, 3}, {}, {{"output_shape", ints({5, -5})}}},
      {"pads crop more than the output", {1, 1, 2, 2}, {1, 1, 2, 2}, {}, {{"pads", ints({2, 0, 2, 0})}}},
      {"kernel_shape disagrees with W", {1, 1, 3, 3}, {1, 1, 3, 3}, {}, {{"kernel_shape", ints({3, 2})}}},
      {"empty W kernel", {1, 1, 3, 3}, {1, 1, 0, 3}, {}, {}},
      {"bias of wrong length", {1, 2, 3, 3}, {2, 2, 3, 3}, {3}, {}},
      {"bias of wrong length with groups", {1, 2, 3, 3}, {2, 2, 3, 3}, {2}, {{"group", int_attr(2)}}},
      {"X without spatial dims", {1, 1}, {1, 1}, {}, {}},
      {"4 spatial dims", {1, 1, 3, 3, 3, 3}, {1, 1, 1, 1, 1, 1}, {}, {}},
      {"W rank differs from X", {1, 1, 3, 3}, {1, 1, 3}, {}, {}},
      {"unknown attribute", {1, 1, 3, 3}, {1, 1, 3, 3}, {}, {{"adjs", ints({1, 1})}}},
  };
  check_refusals("ConvTranspose", cases);
  CHECK_THROWS_AS(run_op("ConvTranspose", {}, {make_int_tensor({1, 1, 2}, {1, 2}), make_tensor({1, 1, 1})}), Error);
}

namespace {

// ConvTranspose by its definition, independently of the kernels: every input cell i and tap j add
// x[n, c, i] * W[c, m % (M/group), j] to output o = i * stride - pad_begin + j * dilation when o is inside.
std::vector<double> naive_conv_transpose(const Tensor& x, const Tensor& w, const float* bias, int64_t group,
                                         const Geometry3& g) {
  const int64_t N = x.dim(0), C = x.dim(1), Mg = w.dim(1), M = Mg * group, Cg = C / group;
  const int64_t out_plane = g.out[0] * g.out[1] * g.out[2], in_plane = g.in[0] * g.in[1] * g.in[2];
  const int64_t taps = g.k[0] * g.k[1] * g.k[2];
  std::vector<double> y(size_t(N * M * out_plane));
  for (int64_t n = 0; n < N; ++n)
    for (int64_t m = 0; m < M; ++m) {
      double* yp = y.data() + (n * M + m) * out_plane;
      for (int64_t o = 0; o < out_plane; ++o) yp[o] = bias ? bias[m] : 0.0;
      for (int64_t c = 0; c < Cg; ++c) {
        const int64_t xc = (m / Mg) * Cg + c;
        for (int64_t i0 = 0; i0 < g.in[0]; ++i0)
          for (int64_t i1 = 0; i1 < g.in[1]; ++i1)
            for (int64_t i2 = 0; i2 < g.in[2]; ++i2)
              for (int64_t j0 = 0; j0 < g.k[0]; ++j0)
                for (int64_t j1 = 0; j1 < g.k[1]; ++j1)
                  for (int64_t j2 = 0; j2 < g.k[2]; ++j2) {
                    const int64_t o0 = i0 * g.s[0] - g.p[0] + j0 * g.d[0];
                    const int64_t o1 = i1 * g.s[1] - g.p[1] + j1 * g.d[1];
                    const int64_t o2 = i2 * g.s[2] - g.p[2] + j2 * g.d[2];
                    if (o0 < 0 || o0 >= g.out[0] || o1 < 0 || o1 >= g.out[1] || o2 < 0 || o2 >= g.out[2]) continue;
                    const double xv = x.data<float>()[(n * C + xc) * in_plane + (i0 * g.in[1] + i1) * g.in[2] + i2];
                    const double wv =
                        w.data<float>()[(xc * Mg + m % Mg) * taps + (j0 * g.k[1] + j1) * g.k[2] + j2];
                    yp[(o0 * g.out[1] + o1) * g.out[2] + o2] += xv * wv;
                  }
      }
    }
  return y;
}

}  // namespace

TEST_CASE("ConvTranspose matches its definition for every geometry, on both kernels") {
  struct Case {
    std::string what;
    Shape x, w;  // W [C, M/group, K...]
    int64_t group;
    std::string auto_pad;
    std::vector<int64_t> strides, dilations, pads, output_padding, output_shape;  // empty = not given
    std::vector<int64_t> want_pad_begin;  // worked out by hand
    Shape want_y;
    bool bias;
  };
  // out = stride * (in - 1) + output_padding + dilated kernel - pad_begin - pad_end; with output_shape the total
  // pad is the full size minus it, split with floor halves (SAME_UPPER: the smaller half first).
  const Case cases[] = {
      {"1-D plain", {2, 3, 5}, {3, 4, 3}, 1, "NOTSET", {}, {}, {}, {}, {}, {0}, {2, 4, 7}, true},
      {"2-D stride 2, pads 1, output_padding 1", {1, 2, 3, 4}, {2, 3, 3, 3}, 1, "NOTSET", {2, 2}, {}, {1, 1, 1, 1},
       {1, 1}, {}, {1, 1}, {1, 3, 6, 8}, true},
      {"2-D grouped", {1, 4, 3, 3}, {4, 2, 2, 2}, 2, "NOTSET", {2, 1}, {}, {}, {}, {}, {0, 0}, {1, 4, 6, 4}, true},
      {"2-D depthwise, multiplier 2, dilated", {1, 3, 4, 4}, {3, 2, 3, 3}, 3, "NOTSET", {}, {2, 1}, {}, {}, {},
       {0, 0}, {1, 6, 8, 6}, true},
      {"SAME_UPPER stride 2", {1, 2, 3, 4}, {2, 2, 4, 3}, 1, "SAME_UPPER", {2, 2}, {}, {}, {}, {}, {1, 0},
       {1, 2, 6, 8}, true},
      {"SAME_LOWER stride 2", {1, 2, 3, 4}, {2, 2, 4, 3}, 1, "SAME_LOWER", {2, 2}, {}, {}, {}, {}, {1, 1},
       {1, 2, 6, 8}, false},
      {"output_shape beyond the full output", {1, 1, 3, 3}, {1, 2, 3, 3}, 1, "NOTSET", {3, 2}, {}, {}, {},
       {10, 8}, {0, 0}, {1, 2, 10, 8}, true},
      {"output_shape, SAME_UPPER", {1, 1, 3, 3}, {1, 1, 3, 3}, 1, "SAME_UPPER", {2, 2}, {}, {}, {}, {5, 6}, {1, 0},
       {1, 1, 5, 6}, true},
      {"output_shape, NOTSET (pads ignored)", {1, 1, 3, 3}, {1, 1, 3, 3}, 1, "NOTSET", {2, 2}, {}, {0, 0, 0, 0},
       {}, {5, 6}, {1, 1}, {1, 1, 5, 6}, true},
      {"3-D grouped, pads, output_padding", {1, 2, 2, 3, 2}, {2, 1, 2, 2, 3}, 2, "NOTSET", {1, 2, 1}, {},
       {0, 1, 1, 0, 0, 1}, {0, 1, 0}, {}, {0, 1, 1}, {1, 2, 3, 6, 2}, true},
      {"pads crop to 2x2", {1, 1, 4, 4}, {1, 1, 3, 3}, 1, "NOTSET", {}, {}, {2, 2, 2, 2}, {}, {}, {2, 2},
       {1, 1, 2, 2}, false},
  };
  for (const Case& c : cases) {
    for (const char* kernel : {"ref", "dnnl"}) {
      CAPTURE(c.what);
      CAPTURE(kernel);
      Attributes a;
      a.set("group", int_attr(c.group));
      a.set("auto_pad", string_attr(c.auto_pad));
      if (!c.strides.empty()) a.set("strides", ints(c.strides));
      if (!c.dilations.empty()) a.set("dilations", ints(c.dilations));
      if (!c.pads.empty()) a.set("pads", ints(c.pads));
      if (!c.output_padding.empty()) a.set("output_padding", ints(c.output_padding));
      if (!c.output_shape.empty()) a.set("output_shape", ints(c.output_shape));
      const Tensor x = wave_tensor(c.x, 1.f), w = wave_tensor(c.w, 0.5f), b = wave_tensor({c.w[1] * c.group}, 2.f);
      std::vector<Tensor> inputs{x, w};
      if (c.bias) inputs.push_back(b);
      const Tensor y = run_op("ConvTranspose", a, inputs, 11, 1, kernel)[0];
      REQUIRE(y.shape() == c.want_y);
      const Geometry3 g = expected_geometry(c);
      const std::vector<double> want = naive_conv_transpose(x, w, c.bias ? b.data<float>() : nullptr, c.group, g);
      CHECK(within_tolerance("ConvTranspose", 11, y, want) == "");
    }
  }
}
