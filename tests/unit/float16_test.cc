// float16 and bfloat16: the conversions (engine/float16.h) on hand-checked bit patterns, Cast and CastLike to and
// from them (ties to even, overflow, subnormals, NaN, the float64 source rounded once), and shape inference of an
// op without float16 kernels (engine/float16_compute.h), and float16 weights held once, as float32, at load.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "engine/float16.h"
#include "engine/float16_compute.h"
#include "engine/graph_builder.h"
#include "engine/node_eval.h"
#include "ops/cast/round_to_float16.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

std::vector<uint16_t> bits_of(const Tensor& t) {
  const uint16_t* p = static_cast<const uint16_t*>(t.raw());
  return std::vector<uint16_t>(p, p + t.numel());
}

Tensor sixteen_bit(DType dtype, std::vector<uint16_t> bits) {
  Tensor t(dtype, {int64_t(bits.size())});
  for (size_t i = 0; i < bits.size(); ++i) static_cast<uint16_t*>(t.raw())[i] = bits[i];
  return t;
}

Attributes attrs(std::initializer_list<std::pair<const char*, Attribute>> list) {
  Attributes a;
  for (const auto& [name, value] : list) a.set(name, value);
  return a;
}

template <class T>
std::vector<T> elements(const Tensor& t) {
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

const float kInf = std::numeric_limits<float>::infinity();

}  // namespace

TEST_CASE("float32 -> float16 rounds to nearest even, overflows to inf, keeps subnormals, signs and NaN") {
  struct Case {
    float x;
    uint16_t want;
  };
  const Case cases[] = {
      {1.0f, 0x3c00},
      {-2.0f, 0xc000},
      {0.0f, 0x0000},
      {-0.0f, 0x8000},
      {1.0f + std::ldexp(1.0f, -11), 0x3c00},      // tie: to the even 1.0
      {1.0f + 3 * std::ldexp(1.0f, -11), 0x3c02},  // tie: to the even 1 + 2^-9
      {1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20), 0x3c01},  // just above the tie
      {65504.0f, 0x7bff},                          // the largest finite
      {65519.99f, 0x7bff},                         // below 65504 + half an ulp
      {65520.0f, 0x7c00},                          // the tie above the largest rounds to even: inf
      {1e10f, 0x7c00},
      {-kInf, 0xfc00},
      {std::ldexp(1.0f, -14), 0x0400},             // the smallest normal
      {std::ldexp(1.0f, -24), 0x0001},             // the smallest subnormal
      {std::ldexp(1.0f, -25), 0x0000},             // tie between 0 and 2^-24: to the even 0
      {std::ldexp(3.0f, -26), 0x0001},             // above the tie
      {std::ldexp(3.0f, -25), 0x0002},             // tie between 1 and 2 units: to the even 2
      {std::ldexp(1023.5f, -24), 0x0400},          // the largest subnormal's tie rounds up into the normals
  };
  for (const Case& c : cases) {
    CAPTURE(c.x);
    CHECK(float_to_float16(c.x) == c.want);
    CHECK(double_to_float16(double(c.x)) == c.want);
  }
  const uint16_t nan = float_to_float16(std::numeric_limits<float>::quiet_NaN());
  CHECK((nan & 0x7c00) == 0x7c00);
  CHECK((nan & 0x03ff) != 0);
  CHECK(std::isnan(float16_to_float(float_to_float16(-std::numeric_limits<float>::quiet_NaN()))));
  CHECK(std::signbit(float16_to_float(float_to_float16(-std::numeric_limits<float>::quiet_NaN()))));
  // Every float16 converts to float32 exactly and back to itself (NaNs stay NaN).
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const float f = float16_to_float(uint16_t(b));
    if (std::isnan(f)) continue;
    CHECK_MESSAGE(float_to_float16(f) == b, b);
  }
  CHECK(float16_to_float(0x0001) == std::ldexp(1.0f, -24));
  CHECK(float16_to_float(0x7bff) == 65504.0f);
  CHECK(float16_to_float(0xfc00) == -kInf);
}

TEST_CASE("whole arrays convert as each element does, for float16 and bfloat16; other types are refused") {
  const std::vector<float> x = {0.f, -1.5f, 1e-7f, 65520.f, 3.1415927f, std::numeric_limits<float>::infinity()};
  for (DType t : {DType::f16, DType::bf16}) {
    CAPTURE(dtype_name(t));
    std::vector<uint16_t> bits(x.size());
    std::vector<float> back(x.size());
    float_to_float16_family(t, x.data(), bits.data(), x.size());
    float16_family_to_float(t, bits.data(), back.data(), x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      CAPTURE(x[i]);
      CHECK(bits[i] == (t == DType::f16 ? float_to_float16(x[i]) : float_to_bfloat16(x[i])));
      const float want = t == DType::f16 ? float16_to_float(bits[i]) : bfloat16_to_float(bits[i]);
      CHECK(std::memcmp(&back[i], &want, sizeof(float)) == 0);
    }
  }
  uint16_t h = 0;
  float f = 0;
  CHECK_THROWS_WITH_AS(float_to_float16_family(DType::f32, &f, &h, 1), "expected float16 or bfloat16, got float32", Error);
  CHECK_THROWS_WITH_AS(float16_family_to_float(DType::i64, &h, &f, 1), "expected float16 or bfloat16, got int64", Error);
}

TEST_CASE("a float64 source is rounded to 16 bits once, not through float32") {
  // 1 + 2^-11 + 2^-40: float32 would drop the 2^-40 and leave a tie that rounds down; rounded once it goes up.
  const double x = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  CHECK(double_to_float16(x) == 0x3c01);
  CHECK(float_to_float16(float(x)) == 0x3c00);
  const double y = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
  CHECK(double_to_bfloat16(y) == 0x3f81);
  CHECK(float_to_bfloat16(float(y)) == 0x3f80);
  CHECK(double_to_float16(1e300) == 0x7c00);
  CHECK(double_to_bfloat16(-1e300) == 0xff80);
  CHECK(double_to_float16(1e-300) == 0x0000);
}

TEST_CASE("float32 -> bfloat16 rounds to nearest even; NaN stays NaN; bfloat16 -> float32 is exact") {
  CHECK(float_to_bfloat16(1.0f) == 0x3f80);
  CHECK(float_to_bfloat16(1.0f + std::ldexp(1.0f, -8)) == 0x3f80);      // tie: to even
  CHECK(float_to_bfloat16(1.0f + 3 * std::ldexp(1.0f, -8)) == 0x3f82);  // tie: to even
  CHECK(float_to_bfloat16(std::numeric_limits<float>::max()) == 0x7f80);  // rounds past the largest: inf
  CHECK(float_to_bfloat16(-kInf) == 0xff80);
  CHECK(float_to_bfloat16(std::numeric_limits<float>::denorm_min()) == 0x0000);
  CHECK(std::isnan(bfloat16_to_float(float_to_bfloat16(std::numeric_limits<float>::quiet_NaN()))));
  // A signalling-looking NaN whose payload lies in the low 16 bits must not become inf.
  uint32_t low_payload = 0x7f800001;
  float snan;
  std::memcpy(&snan, &low_payload, 4);
  CHECK(std::isnan(bfloat16_to_float(float_to_bfloat16(snan))));
  CHECK(bfloat16_to_float(0x3f81) == 1.0f + std::ldexp(1.0f, -7));
}

TEST_CASE("rounding float32 arrays to float16 and bfloat16 in place gives each element's conversion there and back") {
  // round_to_float16 (ops/cast/round_to_float16.h) has vector paths of its own; the scalar conversions are
  // the contract. Specials, then every 2^16-th bit pattern with a few low-bit tails (ties, carries, NaNs).
  std::vector<float> x = {1.f + 0x1p-8f, 1.f + 0x3p-8f, 0x1.fffffep127f, -0x1.fffffep127f, 0x1p-133f, 0x1p-134f,
                          0.f, -0.f, INFINITY, -INFINITY, std::nanf("0x1234"), -std::nanf("1"),
                          std::numeric_limits<float>::signaling_NaN(), 1e-40f, 65520.f, 0x1p-25f};
  for (uint64_t high = 0; high < (1u << 16); high += 7)
    for (uint32_t low : {0x0000u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu}) {
      const uint32_t b = uint32_t(high << 16) | low;
      float f;
      std::memcpy(&f, &b, sizeof f);
      x.push_back(f);
    }
  for (DType to : {DType::f16, DType::bf16}) {
    CAPTURE(dtype_name(to));
    std::vector<float> y(x.size());
    round_to_float16(to, x.data(), y.data(), x.size());
    size_t mismatches = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      const float want = to == DType::f16 ? float16_to_float(float_to_float16(x[i])) : bfloat16_to_float(float_to_bfloat16(x[i]));
      uint32_t got_bits, want_bits, x_bits;
      std::memcpy(&got_bits, &y[i], 4);
      std::memcpy(&want_bits, &want, 4);
      std::memcpy(&x_bits, &x[i], 4);
      CAPTURE(x_bits);
      if (got_bits != want_bits && ++mismatches <= 5) CHECK(got_bits == want_bits);  // the first few, with x
    }
    CHECK(mismatches == 0);
  }
}

TEST_CASE("Cast and CastLike to and from float16 and bfloat16") {
  const Tensor x = make_tensor({5}, {1.0f, 65520.0f, -1e-8f, 3.7f, std::nanf("")});
  const Tensor h = run_op("Cast", attrs({{"to", int_attr(10)}}), {x}, 13)[0];
  REQUIRE(h.dtype() == DType::f16);
  CHECK(bits_of(h)[0] == 0x3c00);
  CHECK(bits_of(h)[1] == 0x7c00);
  CHECK(bits_of(h)[2] == 0x8000);  // -1e-8 is below half the smallest subnormal: -0
  CHECK(h.double_at(3) == double(float16_to_float(float_to_float16(3.7f))));
  CHECK(std::isnan(h.double_at(4)));

  // float16 -> int64 truncates the exact value; -> bool; -> bfloat16 rounds once from the exact value.
  const Tensor h2 = sixteen_bit(DType::f16, {0x4170 /* 2.71875 */, 0xc500 /* -5 */, 0x0000, 0x7c00});
  const Tensor i = run_op("Cast", attrs({{"to", int_attr(7)}}), {h2}, 13)[0];
  CHECK(elements<int64_t>(i) == std::vector<int64_t>{2, -5, 0, std::numeric_limits<int64_t>::max()});
  const Tensor b = run_op("Cast", attrs({{"to", int_attr(16)}}), {h2}, 13)[0];
  CHECK(bits_of(b) == std::vector<uint16_t>{0x402e, 0xc0a0, 0x0000, 0x7f80});  // 2.71875 -> 2.71875 (fits 8 bits)
  const Tensor f = run_op("Cast", attrs({{"to", int_attr(1)}}), {b}, 13)[0];
  CHECK(elements<float>(f) == std::vector<float>{2.71875f, -5.0f, 0.0f, kInf});

  // Integers go through float64: 65519 -> 65504, 65520 -> inf; 257 -> bfloat16 256 (tie to even).
  const Tensor ints = make_int_tensor({3}, {65519, 65520, 257});
  CHECK(bits_of(run_op("Cast", attrs({{"to", int_attr(10)}}), {ints}, 13)[0]) ==
        std::vector<uint16_t>{0x7bff, 0x7c00, 0x5c04});
  CHECK(bits_of(run_op("Cast", attrs({{"to", int_attr(16)}}), {ints}, 13)[0])[2] == 0x4380);

  // Opset 1-5 names the type; opset 19 accepts saturate (float8 only).
  CHECK(run_op("Cast", attrs({{"to", string_attr("FLOAT16")}}), {x}, 5)[0].dtype() == DType::f16);
  CHECK(run_op("Cast", attrs({{"to", int_attr(16)}, {"saturate", int_attr(0)}}), {x}, 19)[0].dtype() == DType::bf16);

  // CastLike takes the second input's type.
  const Tensor like = run_op("CastLike", {}, {x, sixteen_bit(DType::bf16, {0})}, 15)[0];
  CHECK(like.dtype() == DType::bf16);
  CHECK(bits_of(like)[0] == 0x3f80);
  CHECK(run_op("CastLike", {}, {h, x}, 15)[0].double_at(3) == h.double_at(3));
  CHECK_THROWS_AS(make_node("CastLike", attrs({{"saturate", int_attr(1)}}), 2, 1, 15), Error);
  CHECK_NOTHROW(make_node("CastLike", attrs({{"saturate", int_attr(1)}}), 2, 1, 19));
}

TEST_CASE("an op without float16 kernels infers and folds in float32 and types its outputs float16") {
  const Node relu = make_node("Relu", {}, 1, 1, 13);
  Tensor x = sixteen_bit(DType::f16, {0xbc00 /* -1 */, 0x3e00 /* 1.5 */});
  CHECK(computes_float16_in_float32(relu, {ValueInfo::of(x)}));
  const std::vector<ValueInfo> out = infer_node(relu, {ValueInfo::of(x)});
  REQUIRE(out.size() == 1);
  CHECK(out[0].dtype == DType::f16);
  REQUIRE(out[0].constant);
  CHECK(bits_of(*out[0].constant) == std::vector<uint16_t>{0x0000, 0x3e00});
  const std::vector<ValueInfo> unknown = infer_node(relu, {ValueInfo::of(DType::f16, {2, 3})});
  CHECK(unknown[0].dtype == DType::f16);
  CHECK(!unknown[0].constant);
  // Copies and Cast take float16 as it is.
  CHECK(!computes_float16_in_float32(make_node("Reshape", {}, 2, 1, 13), {ValueInfo::of(x)}));
  CHECK(!computes_float16_in_float32(make_node("Cast", attrs({{"to", int_attr(1)}}), 1, 1, 13), {ValueInfo::of(x)}));
  // Arithmetic kernels refuse the storage types by name.
  CHECK_THROWS_WITH_AS(visit_dtype(DType::f16, [](auto) {}), doctest::Contains("float16"), Error);
}

TEST_CASE("at load, a float16 constant read only by ops computing in float32 is held once, as float32") {
  // Per case: who reads the float16 constant "w" besides the node under test; what w is after load.
  struct Case {
    const char* what;
    bool cast_reader;      // Cast(w, to float32) -> "w32" -> Add(x32, w32) (float16 weights); else Add(xh, w)
    bool reshape_reader;   // also Reshape(w) -> graph output (moves float16 as it is: w must stay)
    bool w_is_output;      // w itself a graph output
    bool widened;          // w's constant ends float32 (graph) / the Cast and w's bytes gone (weights)
  };
  const Case cases[] = {
      {"float16 weights through Cast", true, false, false, true},
      {"float16 weights through Cast, also reshaped", true, true, false, false},
      {"float16 weights through Cast, w an output", true, false, true, false},
      {"float16 graph", false, false, false, true},
      {"float16 graph, w also reshaped", false, true, false, false},
      {"float16 graph, w an output", false, false, true, false},
  };
  const Tensor w = sixteen_bit(DType::f16, {0x3c00 /* 1 */, 0x3555 /* 0.333 */, 0xfbff /* -65504 */});
  for (const Case& c : cases) {
    CAPTURE(c.what);
    GraphBuilder b(13);
    b.initializer("w", w).ints("shape", {3, 1});
    if (c.cast_reader) {
      b.input("x", {3}).node("Cast", {"w"}, {"w32"}, "widen", attrs({{"to", int_attr(1)}}));
      b.node("Add", {"x", "w32"}, {"y"}, "add");
    } else {
      b.input("x", {3}, DType::f16).node("Add", {"x", "w"}, {"y"}, "add");
    }
    b.output("y");
    if (c.reshape_reader) b.node("Reshape", {"w", "shape"}, {"w_col"}, "col").output("w_col");
    if (c.w_is_output) b.output("w");
    const std::shared_ptr<const Graph> g = b.finish(builtin_ops());
    const ValueInfo& wi = g->value(g->find_value("w")).info;
    const ValueInfo& yi = g->value(g->find_value("y")).info;
    CHECK(yi.dtype == (c.cast_reader ? DType::f32 : DType::f16));  // the add's output type never changes
    bool cast_left = false;
    for (const Node& n : g->nodes) cast_left = cast_left || n.name == "widen";
    if (c.cast_reader) {
      CHECK(cast_left == !c.widened);
      CHECK(bool(wi.constant) == !c.widened);  // folded into w32, the 16-bit copy dropped
      const ValueInfo& w32 = g->value(g->find_value("w32")).info;
      REQUIRE(w32.constant);
      CHECK(elements<float>(*w32.constant) == std::vector<float>{1.0f, float16_to_float(0x3555), -65504.0f});
    } else {
      REQUIRE(wi.constant);
      CHECK(wi.dtype == (c.widened ? DType::f32 : DType::f16));
      if (c.widened)
        CHECK(elements<float>(*wi.constant) == std::vector<float>{1.0f, float16_to_float(0x3555), -65504.0f});
      else
        CHECK(bits_of(*wi.constant) == bits_of(w));
    }
  }
}
