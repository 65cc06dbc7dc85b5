// A model's large constants, once its plans have prepared them in other layouts, are released
// (engine/releasable_pages.h, dnnl/prepared_weights.h): their bytes come back exactly for every reader that
// needs them (new plans, checks), constants read at run time stay, and many threads running and planning at
// once see the values a model that never released anything gives.
#include <doctest/doctest.h>

#include <cstring>
#include <stdexcept>
#include <thread>

#include "dnnl/prepared_weights.h"
#include "engine/float16.h"
#include "engine/graph.h"
#include "engine/releasable_pages.h"
#include "api/cnnx.h"
#include "runtime/model_access.h"
#include "tests/unit/onnx_bytes.h"

using namespace cnnx;
using namespace onnx_bytes;

namespace {

std::vector<float> pattern(size_t n, int seed) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = float(int64_t((i * 7919 + size_t(seed) * 104729) % 2001) - 1000) / 8000.f;
  return v;
}

// Conv W [256, 128, 3, 3] (1.2 MB, releasable) -> Relu -> GlobalAveragePool -> Flatten -> Gemm with B
// [outputs, 256] transposed (1 MB for 1024 outputs, releasable) and C [outputs]: x [N, 128, 8, 8] -> y [N,
// outputs]. With `big_conv`, W is [1280, 1024, 3, 3] (47 MB) over x [N, 1024, 2, 2], and B [outputs, 1280].
constexpr int64_t kBigConvOut = 1280, kBigConvIn = 1024;
std::vector<float> conv_weights(bool big_conv) {
  return pattern(size_t(big_conv ? kBigConvOut * kBigConvIn * 9 : 256 * 128 * 9), 1);
}
const std::vector<float> kW = conv_weights(false);
std::vector<float> fc_weights(int64_t outputs, int64_t features = 256) {
  return pattern(size_t(outputs * features), 2);
}

// With `b_as_output`, B is also a second graph output.
std::string model(int64_t outputs, bool b_as_output = false, bool big_conv = false) {
  const int64_t in = big_conv ? kBigConvIn : 128, features = big_conv ? kBigConvOut : 256, side = big_conv ? 2 : 8;
  Proto pads = Proto().str(f::attr_name, "pads").varint(f::attr_type, 7);  // AttributeProto INTS
  for (int i = 0; i < 4; ++i) pads.varint(8, 1);                            // AttributeProto.ints
  GraphParts g;
  g.nodes = {node("Conv", {"x", "W"}, {"c"}, "conv", {pads}), node("Relu", {"c"}, {"r"}, "relu"),
             node("GlobalAveragePool", {"r"}, {"p"}, "pool"), node("Flatten", {"p"}, {"f"}, "flatten"),
             node("Gemm", {"f", "B", "C"}, {"y"}, "fc", {int_attr("transB", 1)})};
  g.initializers = {float_initializer("W", {features, in, 3, 3}, conv_weights(big_conv)),
                    float_initializer("B", {outputs, features}, fc_weights(outputs, features)),
                    float_initializer("C", {outputs}, pattern(size_t(outputs), 3))};
  g.inputs = {value("x", {-1, in, side, side})};
  g.outputs = {value("y", {-1, outputs})};
  if (b_as_output) g.outputs.push_back(value("B", {outputs, features}));
  return model_bytes(g);
}

Model load(Backend backend = Backend::dnnl, int64_t fc_outputs = 1024, bool b_as_output = false, bool big_conv = false) {
  Options o;
  o.threads = 2;
  o.backend = backend;
  const std::string bytes = model(fc_outputs, b_as_output, big_conv);
  return Model::load_from_bytes(bytes.data(), bytes.size(), o);
}

Tensor input(int64_t batch, bool big_conv = false) {
  Tensor x(DType::f32, big_conv ? Shape{batch, kBigConvIn, 2, 2} : Shape{batch, 128, 8, 8});
  const std::vector<float> v = pattern(size_t(x.numel()), 4);
  std::memcpy(x.raw(), v.data(), x.bytes());
  return x;
}

const Tensor& constant(const Model& m, const std::string& name) {
  const Graph& g = ModelAccess::graph(m);
  for (const Value& v : g.values)
    if (v.name == name) return *v.info.constant;
  throw std::logic_error("no constant " + name);
}

bool holds(const Tensor& t, const std::vector<float>& want) {
  return t.bytes() == want.size() * sizeof(float) && std::memcmp(t.raw(), want.data(), t.bytes()) == 0;
}

bool same_bits(const Tensor& a, const Tensor& b) {
  return a.shape() == b.shape() && std::memcmp(a.raw(), b.raw(), a.bytes()) == 0;
}

// `data` rounded to float16: the bits, and their exact float32 values.
std::vector<uint16_t> half_bits(const std::vector<float>& data) {
  std::vector<uint16_t> h(data.size());
  float_to_float16_family(DType::f16, data.data(), h.data(), data.size());
  return h;
}
std::vector<float> widened(const std::vector<float>& data) {
  std::vector<float> w(data.size());
  const std::vector<uint16_t> h = half_bits(data);
  float16_family_to_float(DType::f16, h.data(), w.data(), w.size());
  return w;
}

Proto half_initializer(const std::string& name, const std::vector<int64_t>& dims, const std::vector<float>& data) {
  Proto t;
  for (int64_t d : dims) t.varint(f::tensor_dims, uint64_t(d));
  const std::vector<uint16_t> h = half_bits(data);
  return t.varint(f::tensor_data_type, 10)  // FLOAT16
      .str(f::tensor_name, name)
      .str(f::tensor_raw_data, std::string(reinterpret_cast<const char*>(h.data()), h.size() * sizeof(uint16_t)));
}

Proto cast_to(int type) { return int_attr("to", type); }

// The model above in the two forms float16 models ship in. `graph`: every op on float16 (x and y float32
// through Casts), every initializer float16. Else float16 weights: W stored as float16 ("W16") and read
// through Cast(to float32), as onnxconverter-common and IS-Net's export write them.
Model load_half(bool graph) {
  Proto pads = Proto().str(f::attr_name, "pads").varint(f::attr_type, 7);
  for (int i = 0; i < 4; ++i) pads.varint(8, 1);
  GraphParts g;
  g.inputs = {value("x", {-1, 128, 8, 8})};
  g.outputs = {value("y", {-1, 1024})};
  if (graph) {
    g.nodes = {node("Cast", {"x"}, {"xh"}, "in", {cast_to(10)}), node("Conv", {"xh", "W"}, {"c"}, "conv", {pads}),
               node("Relu", {"c"}, {"r"}, "relu"), node("GlobalAveragePool", {"r"}, {"p"}, "pool"),
               node("Flatten", {"p"}, {"f"}, "flatten"),
               node("Gemm", {"f", "B", "C"}, {"yh"}, "fc", {int_attr("transB", 1)}),
               node("Cast", {"yh"}, {"y"}, "out", {cast_to(1)})};
    g.initializers = {half_initializer("W", {256, 128, 3, 3}, kW), half_initializer("B", {1024, 256}, fc_weights(1024)),
                      half_initializer("C", {1024}, pattern(1024, 3))};
  } else {
    g.nodes = {node("Cast", {"W16"}, {"W"}, "widen", {cast_to(1)}), node("Conv", {"x", "W"}, {"c"}, "conv", {pads}),
               node("Relu", {"c"}, {"r"}, "relu"), node("GlobalAveragePool", {"r"}, {"p"}, "pool"),
               node("Flatten", {"p"}, {"f"}, "flatten"),
               node("Gemm", {"f", "B", "C"}, {"y"}, "fc", {int_attr("transB", 1)})};
    g.initializers = {half_initializer("W16", {256, 128, 3, 3}, kW),
                      float_initializer("B", {1024, 256}, fc_weights(1024)),
                      float_initializer("C", {1024}, pattern(1024, 3))};
  }
  Options o;
  o.threads = 2;
  const std::string bytes = model_bytes(g);
  return Model::load_from_bytes(bytes.data(), bytes.size(), o);
}

}  // namespace

TEST_CASE("releasable pages: a pin keeps them, release makes them unreadable, restore gives them back") {
  std::shared_ptr<void> buffer = allocate_releasable(3 << 20);
  const void* p = buffer.get();
  CHECK(is_releasable(p));
  CHECK(!is_releasable(static_cast<const char*>(p) + 64));
  std::memset(buffer.get(), 7, 3 << 20);
  {
    std::shared_ptr<void> pin = pin_pages(p);
    CHECK(pin != nullptr);
    CHECK(!release_pages(p));
    CHECK(!pages_released(p));
  }
  CHECK(release_pages(p));
  CHECK(pages_released(p));
  CHECK(release_pages(p));  // released already: still true
  restore_pages(p);
  CHECK(!pages_released(p));
  CHECK(static_cast<const unsigned char*>(p)[0] == 0);  // zeros until the caller writes
  CHECK(release_pages(p, 1 << 20, 1 << 20));  // a part: the buffer counts as released
  CHECK(pages_released(p));
  restore_pages(p);
  CHECK(!pages_released(p));
  int dummy = 0;
  CHECK(pin_pages(&dummy) == nullptr);
  CHECK(!release_pages(&dummy));
}

TEST_CASE("a model's prepared constants are released, and restored exactly for new plans and checks") {
  const Model m = load();
  const Tensor& W = constant(m, "W");
  const Tensor& C = constant(m, "C");
  CHECK(is_releasable(W.raw()));
  CHECK(!is_releasable(C.raw()));  // 4 KB: not worth a mapping

  const Tensor y1 = m.run({input(1)})[0];
  CHECK(pages_released(W.raw()));  // the convolution prepared it in a blocked layout

  // A check runs reference kernels on the constants: restored, bit for bit, and the kernels agree.
  for (const NodeCheck& c : m.check({input(2)})) {
    CAPTURE(c.node);
    CAPTURE(c.detail);
    CHECK(c.within);
  }
  CHECK(!pages_released(W.raw()));
  CHECK(holds(W, kW));
  CHECK(holds(constant(m, "B"), fc_weights(1024)));

  // A new plan releases them again; the first plan still runs as it did.
  m.run({input(3)});
  CHECK(pages_released(W.raw()));
  CHECK(same_bits(m.run({input(1)})[0], y1));
}

TEST_CASE("a constant of 47 MB is prepared in slices, each released once read, and restored exactly") {
  // Convolution weights are blocked on every CPU oneDNN 2.6 knows (OIhw8i8o, OIhw16i16o, ...): W [1280, 1024,
  // 3, 3] is always prepared, in two slices of at most 32 MB.
  const Model m = load(Backend::dnnl, 16, false, true);
  const Tensor& W = constant(m, "W");
  m.run({input(1, true)});
  CHECK(pages_released(W.raw()));
  for (const NodeCheck& c : m.check({input(1, true)})) {
    CAPTURE(c.node);
    CAPTURE(c.detail);
    CHECK(c.within);
  }
  // Restored from the prepared copy, W holds its bytes only if every slice was prepared right.
  CHECK(holds(W, conv_weights(true)));
}

TEST_CASE("a layer's 40 MB weights are held once: prepared and released, or read as stored") {
  constexpr int64_t kOutputs = 40960;  // B [40960, 256]: 40 MB
  const Model m = load(Backend::dnnl, kOutputs);
  const Tensor& B = constant(m, "B");
  const PreparedWeightCounts before = prepared_weight_counts();
  m.run({input(1)});
  const PreparedWeightCounts d = prepared_weight_counts() - before;
  CAPTURE(d.made_bytes);
  CAPTURE(d.kept);
  // The inner product picks B's layout on this CPU (blocked with AVX-512, as stored with AVX2's GEMM).
  const bool prepared = d.made_bytes >= int64_t(B.bytes());
  CHECK(pages_released(B.raw()) == prepared);
  CHECK((prepared || d.kept >= 1));
  for (const NodeCheck& c : m.check({input(1)})) {
    CAPTURE(c.node);
    CAPTURE(c.detail);
    CHECK(c.within);
  }
  CHECK(holds(B, fc_weights(kOutputs)));
}

TEST_CASE("a prepared constant that is also a graph output is never released: runs copy it out") {
  const Model m = load(Backend::dnnl, 1024, true);
  const std::vector<Tensor> out = m.run({input(1)});
  REQUIRE(out.size() == 2);
  CHECK(!pages_released(constant(m, "B").raw()));
  CHECK(holds(out[1], fc_weights(1024)));
  CHECK(pages_released(constant(m, "W").raw()));
}

TEST_CASE("constants the reference backend reads at run time are never released") {
  const Model m = load(Backend::ref);
  m.run({input(1)});
  CHECK(!pages_released(constant(m, "W").raw()));
  CHECK(holds(constant(m, "W"), kW));
}

TEST_CASE("threads running and planning batches at once on one model get a fresh model's bits") {
  constexpr int kThreads = 4;
  std::vector<Tensor> want;
  for (int t = 0; t < kThreads; ++t) want.push_back(load().run({input(1 + t)})[0]);
  const Model m = load();
  std::vector<std::vector<Tensor>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 3; ++round) {
        const int64_t batch = 1 + (t + round) % kThreads;
        got[size_t(t)].push_back(m.run({input(batch)})[0]);
        if (round == 1) m.check({input(batch)});
      }
    });
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t)
    for (int round = 0; round < 3; ++round) {
      CAPTURE(t);
      CAPTURE(round);
      CHECK(same_bits(got[size_t(t)][size_t(round)], want[size_t((t + round) % kThreads)]));
    }
}

TEST_CASE("float16 weights are held once, as float32: the 16-bit copy goes at load, the plan releases the rest") {
  for (const bool graph : {false, true}) {
    CAPTURE(graph);
    const Model m = load_half(graph);
    const Graph& g = ModelAccess::graph(m);
    // float16 weights: the Cast folded and gone with W16's bytes. A float16 graph: W, B widened in place.
    for (const Node& node : g.nodes) CHECK(!(node.op_type == "Cast" && node.name == "widen"));
    for (const Value& v : g.values) {
      CAPTURE(v.name);
      CHECK(!(v.info.constant && is_float16_family(v.info.dtype)));
    }
    const Tensor& W = constant(m, "W");
    CHECK(W.dtype() == DType::f32);
    CHECK(is_releasable(W.raw()));
    CHECK(holds(W, widened(kW)));
    if (graph) CHECK(holds(constant(m, "B"), widened(fc_weights(1024))));

    const Tensor y1 = m.run({input(1)})[0];
    CHECK(pages_released(W.raw()));  // prepared in the convolution's blocked layout
    for (const NodeCheck& c : m.check({input(2)})) {
      CAPTURE(c.node);
      CAPTURE(c.detail);
      CHECK(c.within);
    }
    CHECK(holds(W, widened(kW)));  // restored exactly
    CHECK(same_bits(m.run({input(1)})[0], y1));
  }
}
