// The pooling lab's library (lab/), which `cnnx pool` prints: every GAP spelling runs and gives the float64 mean,
// and the AveragePool explanation of docs/pooling.md's worked examples (sizes, divisors, engines, PyTorch).
// tests/cli/pool_lab_test.py checks the same from the command line, with the printing.
#include <doctest/doctest.h>
#include <omp.h>

#include <cmath>

#include "lab/avg_pool_explain.h"
#include "lab/gap_bench.h"
#include "lab/gap_variants.h"
#include "lab/lab_input.h"
#include "tests/unit/op_harness.h"

using namespace cnnx;
using namespace cnnx::lab;

namespace {

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : " | ") + x;
  return s;
}

}  // namespace

TEST_CASE("the lab's input is the same for any thread count, uniform in [-1, 1)") {
  Tensor one(DType::f32, {3, 5, 1001}), two(DType::f32, {3, 5, 1001});
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  fill_lab_input(one);
  omp_set_num_threads(2);
  fill_lab_input(two);
  omp_set_num_threads(saved);
  double sum = 0;
  for (int64_t i = 0; i < one.numel(); ++i) {
    CAPTURE(i);
    REQUIRE(one.data<float>()[i] == two.data<float>()[i]);
    REQUIRE(one.data<float>()[i] >= -1.f);
    REQUIRE(one.data<float>()[i] < 1.f);
    sum += one.data<float>()[i];
  }
  CHECK(std::abs(sum / double(one.numel())) < 0.05);
}

TEST_CASE("every GAP spelling runs on both backends, pass off and on, and gives the float64 mean") {
  struct Case {
    Shape shape;
    const char* adaptive;  // the ATen spelling's op
  };
  for (const Case& c : {Case{{2, 3, 17}, "adaptive_avg_pool1d"}, Case{{2, 3, 5, 4}, "adaptive_avg_pool2d"},
                        Case{{1, 2, 3, 4, 5}, "adaptive_avg_pool3d"}}) {
    CAPTURE(to_string(c.shape));
    const std::vector<GapVariant> variants = gap_variants(c.shape);
    REQUIRE(variants.size() == 6);
    CHECK(variants[0].name == "GlobalAveragePool");
    CHECK(variants[5].name == "aten::" + std::string(c.adaptive) + "(output_size=1)");
    GapBenchSettings s;
    s.shape = c.shape;
    s.backends = {Backend::dnnl, Backend::ref};
    s.iters = 1;
    int seen = 0;
    const GapBenchResult r = run_gap_bench(s, [&](const GapRun&) { ++seen; });
    CHECK(seen == 24);
    REQUIRE(r.runs.size() == 24);
    CHECK(r.bytes == 4 * checked_numel(c.shape));
    CHECK(r.threads == omp_get_max_threads());
    for (size_t i = 0; i < r.runs.size(); ++i) {
      const GapRun& run = r.runs[i];
      CAPTURE(run.spelling);
      CAPTURE(run.backend);
      CAPTURE(run.pass);
      CAPTURE(run.kernels);
      CHECK(run.spelling == variants[i / 4].name);
      CHECK(run.backend == (i % 4 < 2 ? "dnnl" : "ref"));
      CHECK(run.pass == (i % 2 == 1));
      REQUIRE(run.error == "");
      if (run.kernels.find("AveragePool:dnnl") != std::string::npos)
        CHECK(run.max_abs <= 1e-5);  // oneDNN sums in float32: the op's tolerance
      else
        CHECK(run.max_rel <= 1e-6);
      if (run.pass) CHECK(run.kernels.rfind(run.backend == "dnnl" ? "GlobalAveragePool:mean" : "GlobalAveragePool:ref", 0) == 0);
      CHECK(run.median_ms >= 0);
      CHECK(run.min_ms <= run.median_ms);
    }
  }
}

TEST_CASE("explain_avg_pool: ceil_mode with count_include_pad, the overhanging window (docs/pooling.md example 2)") {
  AvgPoolSettings s;
  s.shape = {1, 1, 6, 6};
  s.kernel = {3, 3};
  s.strides = {2, 2};
  s.pads = {1, 1, 1, 1};
  s.ceil_mode = true;
  s.count_include_pad = true;
  const AvgPoolExplanation e = explain_avg_pool(s);
  CHECK(e.output_shape == Shape{1, 1, 4, 4});
  CHECK(e.count_include_pad);
  REQUIRE(e.axes.size() == 2);
  for (const AvgPoolAxisInfo& a : e.axes) {
    CHECK(a.formula == "out = ceil((6 + 1 + 1 - 3) / 2) + 1 = 4");
    REQUIRE(a.windows.size() == 4);
    const std::vector<int64_t> want_factor{3, 3, 3, 2}, want_start{-1, 1, 3, 5};
    for (size_t o = 0; o < 4; ++o) {
      CAPTURE(o);
      CHECK(a.windows[o].index == int64_t(o));
      CHECK(a.windows[o].start == want_start[o]);
      CHECK(a.windows[o].divisor_factor == want_factor[o]);
      CHECK(a.windows[o].starts_in_padding == (o == 0));
      CHECK(a.windows[o].overhangs == (o == 3));
    }
  }
  CHECK(e.geometry.divisor({3, 3}, true) == 4);
  CHECK(e.geometry.divisor({0, 3}, true) == 6);
  CHECK(e.dnnl_backend_kernel == "ref");
  CHECK(joined(e.declined).find("overhangs") != std::string::npos);
  CHECK(e.max_abs_diff_vs_ref == 0);
  REQUIRE(e.onednn_include_padding_differs.size() == 2);
  CHECK(e.onednn_include_padding_differs[0] ==
        "axis 0: the last window's divisor factor is 2; oneDNN's include-padding pooling uses 3 (it divides every "
        "window by the kernel volume 9)");
  CHECK(e.pytorch.expressible);
  CHECK(e.pytorch.call == "F.avg_pool2d(x, kernel_size=[3,3], stride=[2,2], padding=[1,1], ceil_mode=True, "
                          "count_include_pad=True)");
  CHECK(e.pytorch.differences.empty());
  REQUIRE(e.warnings.size() == 1);
  CHECK(e.warnings[0].rfind("node 'AveragePool' (AveragePool): ceil_mode with count_include_pad", 0) == 0);
}

TEST_CASE("explain_avg_pool: sizes, shown windows and PyTorch's view over a table of geometries") {
  struct Case {
    const char* what;
    AvgPoolSettings s;
    Shape out;
    const char* formula;  // a substring of axis 0's formula
    bool expressible;
    const char* reason;  // a substring of PyTorch's reasons; "" for none
  };
  auto settings = [](Shape shape, std::vector<int64_t> kernel, std::vector<int64_t> strides, std::vector<int64_t> pads,
                     std::vector<int64_t> dilations, const char* auto_pad, bool ceil) {
    AvgPoolSettings s;
    s.shape = std::move(shape), s.kernel = std::move(kernel), s.strides = std::move(strides);
    s.pads = std::move(pads), s.dilations = std::move(dilations), s.auto_pad = auto_pad, s.ceil_mode = ceil;
    return s;
  };
  const std::vector<Case> cases = {
      {"ceil_mode drops a window starting in the padding (example 1)",
       settings({1, 1, 5, 5}, {2, 2}, {2, 2}, {1, 1, 1, 1}, {}, "NOTSET", true), {1, 1, 3, 3},
       "minus the last window, which would start at 5 (in the right padding): 3", true, ""},
      {"SAME_UPPER with dilation (example 3)", settings({1, 1, 7}, {3}, {}, {}, {2}, "SAME_UPPER", false), {1, 1, 7},
       "window extent (3 - 1) * 2 + 1 = 5; out = ceil(7 / 1) = 7, total pad max(0, (7 - 1) * 1 + 5 - 7) = 4 -> pads 2 + 2",
       false, "no dilation"},
      {"SAME_LOWER alone", settings({1, 1, 7}, {3}, {2}, {}, {}, "SAME_LOWER", false), {1, 1, 4},
       "pads 1 + 1 (odd cell at the beginning)", true, "auto_pad SAME_*"},
      {"pads deeper than half the kernel (example 4)", settings({1, 1, 4}, {3}, {}, {2, 2}, {}, "NOTSET", false),
       {1, 1, 6}, "out = floor((4 + 2 + 2 - 3) / 1) + 1 = 6", false, "exceeds half the kernel (3)"},
      {"asymmetric pads (example 5)", settings({1, 1, 5}, {3}, {}, {0, 2}, {}, "NOTSET", false), {1, 1, 5}, "= 5",
       false, "PyTorch pads both sides equally"},
      {"VALID", settings({1, 1, 9, 9}, {2, 3}, {2, 2}, {}, {}, "VALID", false), {1, 1, 4, 4},
       "out = floor((9 - 2) / 2) + 1 = 4", true, ""},
  };
  for (const Case& c : cases) {
    CAPTURE(std::string(c.what));
    const AvgPoolExplanation e = explain_avg_pool(c.s);
    CHECK(e.output_shape == c.out);
    CAPTURE(e.axes.at(0).formula);
    CHECK(e.axes.at(0).formula.find(c.formula) != std::string::npos);
    CAPTURE(joined(e.pytorch.reasons));
    CHECK(e.pytorch.expressible == c.expressible);
    if (std::string(c.reason).empty())
      CHECK(e.pytorch.reasons.empty());
    else
      CHECK(joined(e.pytorch.reasons).find(c.reason) != std::string::npos);
    CHECK(e.max_abs_diff_vs_ref <= 1e-5);
  }

  // Many windows: the first and last three are shown.
  AvgPoolSettings s = settings({1, 1, 40}, {3}, {}, {1, 1}, {}, "NOTSET", false);
  const AvgPoolExplanation e = explain_avg_pool(s);
  std::vector<int64_t> shown;
  for (const AvgPoolWindowInfo& w : e.axes.at(0).windows) shown.push_back(w.index);
  CHECK(shown == std::vector<int64_t>{0, 1, 2, 37, 38, 39});
  CHECK(e.axes[0].windows[0].divisor_factor == 2);  // count_include_pad = 0: the padded cell does not count

  // A geometry that cannot load is refused as at load, naming the node.
  s = settings({1, 1, 4, 4}, {5, 5}, {}, {}, {}, "NOTSET", false);
  CHECK_THROWS_WITH_AS(explain_avg_pool(s), doctest::Contains("node 'AveragePool' (AveragePool): kernel_shape 5"), Error);
}
