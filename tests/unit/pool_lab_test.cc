// The pooling lab's engine parts: the global mean kernel (ops/pool/global_mean.h) against a float64 mean over
// shapes, layouts and thread counts; the global-average-pool pass recognizing every spelling and refusing near
// misses (passes/global_average_pool.cc); AveragePool's load-time cautions (ops/pool/pool_caution.cc).
//
// Expected means are computed here by the definition: a sequential float64 sum over the plane divided by its
// size (float64 keeps ~1e-16 relative error per add, far below the 1e-6 checked).
#include <doctest/doctest.h>
#include <omp.h>

#include <cmath>
#include <cstring>

#include "dnnl/dnnl_runtime.h"
#include "engine/graph_builder.h"
#include "ops/builtin_ops.h"
#include "runtime/plan.h"
#include "ops/pool/adaptive_pool.h"
#include "ops/pool/global_mean.h"
#include "ops/cast/round_to_float16.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

// The float64 mean of every (n, c) plane of a plain tensor.
std::vector<double> plane_means(const Tensor& x) {
  const int64_t planes = x.dim(0) * x.dim(1), plane = numel_range(x.shape(), 2, x.shape().size());
  std::vector<double> means(size_t(planes), 0.0);
  for (int64_t p = 0; p < planes; ++p) {
    double sum = 0;
    for (int64_t i = 0; i < plane; ++i) sum += double(x.data<float>()[p * plane + i]);
    means[size_t(p)] = sum / double(plane);
  }
  return means;
}

// What the lab claims for the global mean kernel: within 1e-6 relative of the float64 mean (1 float32 ulp
// covers that), ten times tighter than GlobalAveragePool's declared tolerance, which any kernel must meet.
constexpr Tolerance kMeanClaim{1e-30, 1e-6};

Tensor run_mean(const Tensor& x, const Layout& layout = Layout(), const Tensor* blocked = nullptr) {
  const std::vector<ValueInfo> in{ValueInfo::of(DType::f32, x.shape())};
  Shape y_shape = x.shape();
  for (size_t d = 2; d < y_shape.size(); ++d) y_shape[d] = 1;
  Tensor y(DType::f32, y_shape);
  const std::vector<ValueInfo> out{ValueInfo::of(DType::f32, y_shape)};
  const KernelLayouts offered{{layout}, {}};
  Compiled c = global_mean_kernel().compile(std::make_shared<NoParams>(), {in, out, offered});
  REQUIRE(c.reason() == "");
  auto compiled = c.take();
  if (!is_plain(layout)) {
    REQUIRE(compiled->layouts() != nullptr);
    CHECK(compiled->layouts()->in.at(0) == layout);
  }
  compiled->run({{blocked ? blocked : &x}, {&y}});
  return y;
}

std::vector<uint8_t> bits(const Tensor& t) {
  const auto* p = static_cast<const uint8_t*>(t.raw());
  return std::vector<uint8_t>(p, p + t.bytes());
}

// Runs f with OpenMP's thread count set to `threads`, then restores it.
template <class F>
auto with_threads(int threads, F f) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
  auto result = f();
  omp_set_num_threads(saved);
  return result;
}

}  // namespace

TEST_CASE("the global mean kernel equals the float64 mean over shapes, 1D to 3D") {
  const std::vector<Shape> shapes = {
      {1, 1, 1},        {2, 3, 5},       {1, 1, 7, 7},   {4, 16, 14, 14}, {2, 5, 3, 4, 5},
      {1, 1, 300001},   // one plane of 37 chunks with a tail: N*C = 1, more work items than threads
      {3, 2, 65537},    // planes just over 8 chunks
      {1, 3, 256, 256},  {0, 3, 4, 4},  {2, 0, 4},
  };
  for (const Shape& shape : shapes) {
    for (float offset : {0.f, 100.f}) {
      CAPTURE(to_string(shape));
      CAPTURE(offset);
      Tensor x = random_tensor(shape, 7, offset - 1.f, offset + 1.f);
      Tensor y = run_mean(x);
      CHECK(within(y, plane_means(x), kMeanClaim) == "");
    }
  }
}

TEST_CASE("the global mean kernel gives the same bits for any thread count") {
  struct Case {
    Shape shape;
    const char* layout;  // "plain" or a oneDNN format tag below
  };
  const std::vector<Case> cases = {{{1, 1, 1 << 20}, "plain"},  {{2, 3, 40000}, "plain"},
                                   {{8, 64, 56, 56}, "plain"},  {{1, 32, 300, 300}, "nChw16c"},
                                   {{2, 24, 64, 64}, "nChw8c"}, {{2, 40, 64, 64}, "nhwc"}};
  for (const Case& c : cases) {
    CAPTURE(to_string(c.shape));
    CAPTURE(std::string(c.layout));
    Tensor x = random_tensor(c.shape, 3);
    Layout layout;
    std::vector<float> buffer;
    Tensor blocked;
    if (std::string(c.layout) != "plain") {
      const tag t = std::string(c.layout) == "nChw16c" ? tag::nChw16c : std::string(c.layout) == "nChw8c" ? tag::nChw8c : tag::nhwc;
      const dnnl::memory::desc md(dnnl::memory::dims(c.shape.begin(), c.shape.end()), dnnl::memory::data_type::f32, t);
      layout = layout_of(md);
      buffer.assign(md.get_size() / sizeof(float), 0.f);
      blocked = Tensor::borrow(DType::f32, c.shape, buffer.data());
      const DnnlReorder to_md(plain_f32_desc(c.shape), md);  // none for nchw
    if (to_md) to_md.run(nullptr, dnnl_wrap(plain_f32_desc(c.shape), x), dnnl_wrap(md, blocked));
    else std::memcpy(buffer.data(), x.raw(), x.bytes());
    }
    const Tensor* in = blocked.defined() ? &blocked : nullptr;
    const std::vector<uint8_t> one = bits(with_threads(1, [&] { return run_mean(x, layout, in); }));
    for (int threads : {2, 3, 8}) {
      CAPTURE(threads);
      CHECK(bits(with_threads(threads, [&] { return run_mean(x, layout, in); })) == one);
    }
  }
}

TEST_CASE("the global mean kernel adds a channels-last plane's chunk sums in chunk order") {
  // 2048 channels: chunks of 4 rows. Channel 0's chunk sums are 1, then x, then -x, with x = 1e17 (a float,
  // whose float64 ulp is 16): in chunk order 1 + x rounds to x and the mean is exactly 0; any order that adds
  // x and -x first gives 1 / 12.
  const Shape shape{1, 2048, 12};
  Tensor x(DType::f32, shape);
  const float big = 1e17f;
  x.data<float>()[0] = 1.f;
  x.data<float>()[4] = big;
  x.data<float>()[8] = -big;
  const dnnl::memory::desc md({1, 2048, 12}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::nwc);
  const Layout layout = layout_of(md);
  std::vector<float> buffer(md.get_size() / sizeof(float), 0.f);
  Tensor channels_last = Tensor::borrow(DType::f32, shape, buffer.data());
  DnnlReorder(plain_f32_desc(shape), md).run(nullptr, dnnl_wrap(plain_f32_desc(shape), x), dnnl_wrap(md, channels_last));
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    const Tensor y = with_threads(threads, [&] { return run_mean(x, layout, &channels_last); });
    CHECK(y.data<float>()[0] == 0.f);
    CHECK(y.data<float>()[1] == 0.f);
  }
}

TEST_CASE("the global mean kernel reads oneDNN's blocked and channels-last layouts where they arrive") {
  struct Case {
    Shape shape;
    tag format;
    const char* name;
    dnnl::memory::dims strides = {};  // instead of `format` when given
  };
  const std::vector<Case> cases = {
      {{2, 5, 6, 7}, tag::nchw, "nchw (plain)"},
      {{2, 20, 7, 7}, tag::nChw16c, "nChw16c, C not a multiple of 16"},
      {{1, 16, 13, 11}, tag::nChw16c, "nChw16c"},
      {{3, 13, 9, 9}, tag::nChw8c, "nChw8c"},
      {{2, 5, 6, 7}, tag::nhwc, "nhwc"},
      {{1, 3, 200, 200}, tag::nhwc, "nhwc, several chunks"},
      {{1, 40, 64, 64}, tag::nChw16c, "nChw16c, several chunks"},
      {{1, 2500, 3, 3}, tag::nhwc, "nhwc, rows wider than a chunk"},
      {{1, 7, 5, 7}, tag::nhwc, "nhwc, 35 rows: a tail of 3 after the 4-row steps"},
      {{1, 5, 4, 7}, tag::undef, "channels-last rows of 8 floats for 5 channels", {4 * 7 * 8, 1, 7 * 8, 8}},
      {{2, 17, 3, 4, 5}, tag::nCdhw16c, "nCdhw16c (3D)"},
      {{2, 9, 30}, tag::nCw8c, "nCw8c (1D)"},
      {{2, 6, 5, 5}, tag::chwn, "chwn (not read: taken plain)"},
  };
  for (const Case& c : cases) {
    CAPTURE(std::string(c.name));
    CAPTURE(to_string(c.shape));
    Tensor x = random_tensor(c.shape, 11, 0.5f, 1.5f);
    const dnnl::memory::dims dims(c.shape.begin(), c.shape.end());
    const dnnl::memory::desc md = c.strides.empty() ? dnnl::memory::desc(dims, dnnl::memory::data_type::f32, c.format)
                                                    : dnnl::memory::desc(dims, dnnl::memory::data_type::f32, c.strides);
    const Layout layout = layout_of(md);
    MeanLayout read;
    const bool readable = mean_layout_of(layout, c.shape, read);
    CHECK(readable == (c.format != tag::chwn));
    if (!readable) {
      const std::vector<ValueInfo> in{ValueInfo::of(DType::f32, c.shape)}, out;
      const KernelLayouts offered{{layout}, {}};
      Compiled compiled = global_mean_kernel().compile(std::make_shared<NoParams>(), {in, out, offered});
      REQUIRE(bool(compiled));
      CHECK(compiled.take()->layouts() == nullptr);  // plain: the plan reorders
      continue;
    }
    std::vector<float> buffer(md.get_size() / sizeof(float), 0.f);
    Tensor blocked = Tensor::borrow(DType::f32, c.shape, buffer.data());
    const DnnlReorder to_md(plain_f32_desc(c.shape), md);  // none for nchw
    if (to_md) to_md.run(nullptr, dnnl_wrap(plain_f32_desc(c.shape), x), dnnl_wrap(md, blocked));
    else std::memcpy(buffer.data(), x.raw(), x.bytes());
    Tensor y = run_mean(x, layout, &blocked);
    CHECK(within(y, plane_means(x), kMeanClaim) == "");
    // The same arrangement stored in bfloat16 (a native bfloat16 plan, dnnl/layouts.h): the mean of the
    // bfloat16 values, summed in the same order.
    const Tensor rounded = rounded_to_bfloat16(x);
    const dnnl::memory::desc bf16_md = with_data_type(md, dnnl::memory::data_type::bf16);
    std::vector<uint16_t> bf16_buffer(bf16_md.get_size() / sizeof(uint16_t), 0);
    Tensor stored = Tensor::borrow(DType::f32, c.shape, bf16_buffer.data());
    DnnlReorder(plain_f32_desc(c.shape), bf16_md)
        .run(nullptr, dnnl_wrap(plain_f32_desc(c.shape), rounded), dnnl_wrap(bf16_md, stored));
    CHECK(within(run_mean(x, layout_of(bf16_md), &stored), plane_means(rounded), kMeanClaim) == "");
  }
}

TEST_CASE("GlobalAveragePool runs the mean kernel first; --backend ref runs the reference kernel") {
  const OpDef& gap = builtin_ops().find("", "GlobalAveragePool", 1);
  REQUIRE(gap.kernels.size() == 3);
  CHECK(gap.kernels[0].name == "mean");
  CHECK(gap.kernels[1].name == "dnnl");
  CHECK(gap.kernels[2].name == "ref");
  const auto mean_declines = [&](const ValueInfo& x) {
    const std::vector<ValueInfo> in{x}, out;
    const KernelLayouts plain = plain_layouts(1);
    return gap.kernels[0].compile(std::make_shared<NoParams>(), {in, out, plain}).reason();
  };
  CHECK(mean_declines(ValueInfo::of(DType::f64, {1, 2, 3})) != "");
  CHECK(mean_declines(ValueInfo::of(DType::f32, {1, 2})) != "");
  Tensor x = random_tensor({2, 3, 9, 9}, 5);
  CHECK(within_tolerance("GlobalAveragePool", 1, run_op("GlobalAveragePool", {}, {x}, 13, 1, "mean")[0],
                         run_op("GlobalAveragePool", {}, {x}, 13, 1, "ref")[0]) == "");
}

// ---- the global-average-pool pass ----

namespace {

Attributes attrs(std::initializer_list<std::pair<const char*, Attribute>> list) {
  Attributes a;
  for (const auto& [name, value] : list) a.set(name, value);
  return a;
}

struct Planned {
  std::string ops;   // the planned nodes' types, space-separated
  std::string note;  // of the GlobalAveragePool node, if any
  Tensor y;
};

Planned plan_and_run(const Graph& model, const Tensor& x, Backend backend, bool pass) {
  auto g = std::make_shared<Graph>(model);
  build_graph(*g, builtin_ops());
  std::vector<std::string> disabled;
  if (!pass) disabled.push_back("global-average-pool");
  auto plan = Plan::build(g, {ValueInfo::of(DType::f32, x.shape())}, backend, disabled);
  Planned r;
  for (const Node& n : plan->graph().nodes) {
    r.ops += (r.ops.empty() ? "" : " ") + n.op_type;
    if (n.op_type == "GlobalAveragePool") r.note = n.note;
  }
  r.y = plan->run({x})[0];
  return r;
}

}  // namespace

TEST_CASE("the global-average-pool pass rewrites every spelling and keeps the results") {
  const Shape x_shape{2, 3, 6, 5};
  struct Case {
    const char* what;
    GraphBuilder b;
    const char* ops;   // planned nodes with the pass
    const char* note;  // the spelling it names
  };
  std::vector<Case> cases;
  auto add = [&](const char* what, GraphBuilder b, const char* ops, const char* note) {
    cases.push_back({what, std::move(b), ops, note});
  };
  {
    GraphBuilder b;
    b.input("x", x_shape).node("AveragePool", {"x"}, {"y"}, "", attrs({{"kernel_shape", testing::ints({6, 5})}})).output("y");
    add("AveragePool kernel = spatial dims", b, "GlobalAveragePool", "AveragePool(kernel_shape=[6,5])");
  }
  {
    GraphBuilder b(19);
    b.input("x", x_shape)
        .node("AveragePool", {"x"}, {"y"}, "",
              attrs({{"kernel_shape", testing::ints({6, 5})}, {"ceil_mode", int_attr(1)}, {"count_include_pad", int_attr(1)},
                     {"strides", testing::ints({2, 2})}}))
        .output("y");
    add("AveragePool with ceil_mode and count_include_pad that change nothing", b, "GlobalAveragePool",
        "AveragePool(ceil_mode=1, count_include_pad=1, kernel_shape=[6,5], strides=[2,2])");
  }
  {
    GraphBuilder b;
    b.input("x", x_shape)
        .node("AveragePool", {"x"}, {"y"}, "", attrs({{"kernel_shape", testing::ints({7, 5})}, {"pads", testing::ints({0, 0, 1, 0})}}))
        .output("y");
    add("AveragePool over one padded row excluded from the divisor", b, "GlobalAveragePool",
        "AveragePool(kernel_shape=[7,5], pads=[0,0,1,0])");
  }
  {
    GraphBuilder b;
    b.input("x", x_shape).node("ReduceMean", {"x"}, {"y"}, "", attrs({{"axes", testing::ints({2, 3})}})).output("y");
    add("ReduceMean axes [2,3]", b, "GlobalAveragePool", "ReduceMean(axes=[2,3], keepdims=1)");
  }
  {
    GraphBuilder b;
    b.input("x", x_shape)
        .node("ReduceMean", {"x"}, {"y"}, "", attrs({{"axes", testing::ints({-1, -2})}, {"keepdims", int_attr(0)}}))
        .output("y");
    add("ReduceMean axes [-1,-2], keepdims 0", b, "GlobalAveragePool Reshape", "ReduceMean(axes=[-1,-2], keepdims=0)");
  }
  {
    GraphBuilder b(18);
    b.input("x", x_shape).ints("axes", {2, 3})
        .node("ReduceMean", {"x", "axes"}, {"y"}, "", attrs({{"keepdims", int_attr(0)}}))
        .output("y");
    add("ReduceMean opset 18, axes input, keepdims 0", b, "GlobalAveragePool Reshape",
        "ReduceMean(axes input [2,3], keepdims=0)");
  }
  {
    GraphBuilder b;
    b.input("x", x_shape).ints("shape", {2, 3, 1, 1})
        .node("ReduceMean", {"x"}, {"m"}, "", attrs({{"axes", testing::ints({2, 3})}, {"keepdims", int_attr(0)}}))
        .node("Reshape", {"m", "shape"}, {"y"})
        .output("y");
    add("ReduceMean keepdims 0 then Reshape back to [N,C,1,1]", b, "GlobalAveragePool",
        "ReduceMean(axes=[2,3], keepdims=0) -> Reshape");
  }
  {
    GraphBuilder b;
    b.input("x", x_shape).ints("shape", {0, 0, -1})
        .node("Reshape", {"x", "shape"}, {"f"})
        .node("ReduceMean", {"f"}, {"y"}, "", attrs({{"axes", testing::ints({2})}, {"keepdims", int_attr(0)}}))
        .output("y");
    add("Reshape to [N,C,H*W], ReduceMean last axis", b, "GlobalAveragePool Reshape",
        "Reshape to [2,3,30] -> ReduceMean(axes=[2], keepdims=0)");
  }
  {
    GraphBuilder b;
    b.input("x", x_shape)
        .node("Flatten", {"x"}, {"f"}, "", attrs({{"axis", int_attr(2)}}))
        .node("ReduceMean", {"f"}, {"y"}, "", attrs({{"axes", testing::ints({1})}}))
        .output("y");
    add("Flatten to [N*C,H*W], ReduceMean axis 1", b, "GlobalAveragePool Reshape",
        "Flatten to [6,30] -> ReduceMean(axes=[1], keepdims=1)");
  }
  {
    GraphBuilder b;
    b.input("x", x_shape).ints("pads", {0, 0, 0, 0, 0, 0, 0, 0})
        .node("Pad", {"x", "pads"}, {"p"})
        .node("AveragePool", {"p"}, {"y"}, "", attrs({{"kernel_shape", testing::ints({6, 5})}}))
        .output("y");
    add("Pad of zeros (dropped by drop-identity) then AveragePool: torch.onnx's F.avg_pool2d", b,
        "GlobalAveragePool", "AveragePool(kernel_shape=[6,5])");
  }
  {
    GraphBuilder b;
    b.g.opsets[kAtenDomain] = 1;
    b.input("x", x_shape).ints("size", {1, 1})
        .node("adaptive_avg_pool2d", {"x", "size"}, {"y"}, "", {}, kAtenDomain)
        .output("y");
    add("adaptive_avg_pool2d to 1x1", b, "GlobalAveragePool", "adaptive_avg_pool2d(output_size=[1,1])");
  }
  for (const Case& c : cases) {
    CAPTURE(std::string(c.what));
    Tensor x = random_tensor(x_shape, 17);
    for (Backend backend : {Backend::dnnl, Backend::ref}) {
      CAPTURE(backend_name(backend));
      const Planned on = plan_and_run(c.b.g, x, backend, true);
      const Planned off = plan_and_run(c.b.g, x, backend, false);
      CHECK(on.ops == c.ops);
      CHECK(on.note == c.note);
      CHECK(off.ops != on.ops);
      REQUIRE(on.y.shape() == off.y.shape());
      CHECK(within(on.y, plane_means(x), kMeanClaim) == "");
      CHECK(within_tolerance("GlobalAveragePool", 1, off.y, on.y) == "");
    }
  }
}

TEST_CASE("the global-average-pool pass refuses near misses") {
  const Shape x_shape{2, 3, 6, 5};
  struct Case {
    const char* what;
    GraphBuilder b;
  };
  std::vector<Case> cases;
  {
    GraphBuilder b;
    b.input("x", x_shape)
        .node("AveragePool", {"x"}, {"y"}, "", attrs({{"kernel_shape", testing::ints({6, 5})}, {"pads", testing::ints({1, 1, 1, 1})}}))
        .output("y");
    cases.push_back({"AveragePool kernel = spatial dims with pads (3x3 windows)", b});
  }
  {
    GraphBuilder b;
    b.input("x", x_shape)
        .node("AveragePool", {"x"}, {"y"}, "",
              attrs({{"kernel_shape", testing::ints({7, 5})}, {"pads", testing::ints({0, 0, 1, 0})}, {"count_include_pad", int_attr(1)}}))
        .output("y");
    cases.push_back({"AveragePool whose divisor counts a padded row", b});
  }
  {
    GraphBuilder b;
    b.input("x", x_shape).node("AveragePool", {"x"}, {"y"}, "", attrs({{"kernel_shape", testing::ints({6, 4})}})).output("y");
    cases.push_back({"AveragePool one column short", b});
  }
  {
    GraphBuilder b;
    b.input("x", x_shape).node("ReduceMean", {"x"}, {"y"}, "", attrs({{"axes", testing::ints({1, 2})}})).output("y");
    cases.push_back({"ReduceMean over axes [1,2]", b});
  }
  {
    GraphBuilder b;
    b.input("x", x_shape).node("ReduceMean", {"x"}, {"y"}, "", attrs({{"axes", testing::ints({3})}})).output("y");
    cases.push_back({"ReduceMean over W only", b});
  }
  {
    GraphBuilder b;
    b.input("x", x_shape).node("ReduceMean", {"x"}, {"y"}).output("y");
    cases.push_back({"ReduceMean over every axis", b});
  }
  {
    GraphBuilder b;
    b.input("x", x_shape).ints("shape", {2, 3, 30})
        .node("Reshape", {"x", "shape"}, {"f"})
        .node("ReduceMean", {"f"}, {"y"}, "", attrs({{"axes", testing::ints({1, 2})}}))
        .output("y");
    cases.push_back({"Reshape to [N,C,H*W], ReduceMean over axes [1,2]", b});
  }
  {
    GraphBuilder b;
    b.input("x", x_shape).ints("shape", {2, 90})
        .node("Reshape", {"x", "shape"}, {"f"})
        .node("ReduceMean", {"f"}, {"y"}, "", attrs({{"axes", testing::ints({1})}}))
        .output("y");
    cases.push_back({"Reshape to [N,C*H*W], ReduceMean axis 1", b});
  }
  {
    GraphBuilder b;
    b.input("x", x_shape).ints("pads", {0, 0, 1, 0, 0, 0, 1, 0})
        .node("Pad", {"x", "pads"}, {"p"})
        .node("AveragePool", {"p"}, {"y"}, "", attrs({{"kernel_shape", testing::ints({6, 5})}}))
        .output("y");
    cases.push_back({"a Pad that pads, then AveragePool of the old size", b});
  }
  {
    GraphBuilder b;
    b.g.opsets[kAtenDomain] = 1;
    b.input("x", x_shape).ints("size", {2, 1})
        .node("adaptive_avg_pool2d", {"x", "size"}, {"y"}, "", {}, kAtenDomain)
        .output("y");
    cases.push_back({"adaptive_avg_pool2d to 2x1", b});
  }
  for (const Case& c : cases) {
    CAPTURE(std::string(c.what));
    Tensor x = random_tensor(x_shape, 19);
    const Planned on = plan_and_run(c.b.g, x, Backend::dnnl, true);
    CHECK(on.ops.find("GlobalAveragePool") == std::string::npos);
  }
}

TEST_CASE("the pass keeps a Reshape that something else reads") {
  GraphBuilder b;
  b.input("x", {1, 4, 3, 3}).ints("shape", {1, 4, 9})
      .node("Reshape", {"x", "shape"}, {"f"})
      .node("ReduceMean", {"f"}, {"y"}, "", attrs({{"axes", testing::ints({2})}}))
      .output("y")
      .output("f");
  auto g = std::make_shared<Graph>(b.g);
  build_graph(*g, builtin_ops());
  auto plan = Plan::build(g, {ValueInfo::of(DType::f32, {1, 4, 3, 3})}, Backend::dnnl);
  std::string ops;
  for (const Node& n : plan->graph().nodes) ops += n.op_type + " ";
  CHECK(ops == "Reshape GlobalAveragePool Reshape ");
}

// ---- AveragePool cautions ----

TEST_CASE("AveragePool settings engines disagree on are warned about once per node at load") {
  struct Case {
    const char* what;
    Shape x;
    Attributes a;
    const char* want;  // a substring of the warning; "" for none
  };
  const std::vector<Case> cases = {
      {"ceil_mode + count_include_pad, overhanging window", {1, 1, 6, 6},
       attrs({{"kernel_shape", testing::ints({3, 3})}, {"strides", testing::ints({2, 2})}, {"pads", testing::ints({1, 1, 1, 1})},
              {"ceil_mode", int_attr(1)}, {"count_include_pad", int_attr(1)}}),
       "divisor factor along axis 0: 2 of 3, axis 1: 2 of 3"},
      {"ceil_mode dropping a window that starts in the padding", {1, 1, 5, 5},
       attrs({{"kernel_shape", testing::ints({2, 2})}, {"strides", testing::ints({2, 2})}, {"pads", testing::ints({1, 1, 1, 1})},
              {"ceil_mode", int_attr(1)}}),
       "output size along axis 0: 3 (the dropped window would start at 5"},
      {"SAME_UPPER with dilations", {1, 1, 7, 7},
       attrs({{"kernel_shape", testing::ints({3, 3})}, {"dilations", testing::ints({2, 2})}, {"auto_pad", string_attr("SAME_UPPER")}}),
       "ONNX Runtime 1.30 pads for the undilated kernel"},
      {"ceil_mode + count_include_pad, spatial size unknown", {1, 1, kUnknownDim, kUnknownDim},
       attrs({{"kernel_shape", testing::ints({3, 3})}, {"strides", testing::ints({2, 2})}, {"ceil_mode", int_attr(1)},
              {"count_include_pad", int_attr(1)}}),
       "depends on the input size"},
      {"ceil_mode without overhang", {1, 1, 7, 7},
       attrs({{"kernel_shape", testing::ints({3, 3})}, {"strides", testing::ints({2, 2})}, {"ceil_mode", int_attr(1)},
              {"count_include_pad", int_attr(1)}}),
       ""},
      {"plain 3x3 with pads", {1, 1, 7, 7},
       attrs({{"kernel_shape", testing::ints({3, 3})}, {"pads", testing::ints({1, 1, 1, 1})}, {"count_include_pad", int_attr(1)}}), ""},
  };
  for (const Case& c : cases) {
    CAPTURE(std::string(c.what));
    GraphBuilder b(19);
    b.input("x", c.x).node("AveragePool", {"x"}, {"y"}, "", c.a).output("y");
    build_graph(b.g, builtin_ops());
    if (std::string(c.want).empty()) {
      CHECK(b.g.warnings.empty());
      continue;
    }
    REQUIRE(b.g.warnings.size() == 1);
    CAPTURE(b.g.warnings[0]);
    CHECK(b.g.warnings[0].find("node 'AveragePool0' (AveragePool): ") == 0);
    CHECK(b.g.warnings[0].find(c.want) != std::string::npos);
  }
}
