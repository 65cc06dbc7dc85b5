// cnnx pool: the pooling-variant lab (DESIGN.md, "Pooling semantics"; docs/pooling.md shows what it found).
//
//   cnnx pool gap --shape N,C,D1[,D2[,D3]] [--threads T] [--iters K] [--backend dnnl|ref|both] [--json]
//                 [--plot FILE.svg] [--compare LABEL=MS ...]
//     Builds every spelling of global average pooling as a model in memory, plans it on each backend with the
//     global-average-pool pass off and on, and runs it on one seeded input: max abs / rel error against a float64
//     mean, median time, effective GB/s (input bytes / time), the share of the read bandwidth measured in the
//     same run (a plain multi-threaded sum of the same input, timed between the runs) and the kernels used.
//     --compare adds outside figures (e.g. PyTorch's, from bench/pool_peers.sh) to the table and the plot.
//   cnnx pool avg --shape N,C,D1.. --kernel K1.. [--strides] [--pads] [--auto-pad] [--ceil] [--count-include-pad]
//                 [--dilations] [--json]
//     One AveragePool geometry explained: output size per axis with its formula, every window's taps and
//     divisor (edges when there are many), which windows start in the padding or overhang it, the dnnl backend
//     against the reference kernel, and how PyTorch and other engines treat the same settings.
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ops/builtin_ops.h"
#include "ops/pool/adaptive_pool.h"
#include "ops/pool/pool.h"
#include "tools/commands.h"

namespace cnnx::tools {

namespace {

// ---- shared helpers ----

// "256,96,128,128" -> dims; errors name the option and the bad item.
std::vector<int64_t> parse_ints(const std::string& text, const char* option, int64_t min) {
  std::vector<int64_t> v;
  size_t pos = 0;
  for (;;) {
    const size_t comma = text.find(',', pos);
    const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0') fail(option, " '", text, "': '", item, "' is not an integer");
    if (errno == ERANGE) fail(option, " '", text, "': ", item, " is out of range");
    if (value < min || value > kMaxSize)
      fail(option, " '", text, "': ", value, min == 1 ? " is not a positive integer" : " is negative");
    v.push_back(value);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return v;
}

// --shape: N, C and 1 to 3 spatial dims, each >= 1, whose float32 tensor fits in half the machine's memory.
Shape parse_pool_shape(const std::string& text) {
  Shape s;
  try {
    s = parse_ints(text, "--shape", 0);
  } catch (const Error& e) {
    fail(e.what(), " (expected N,C,D1[,D2[,D3]], e.g. 256,96,128,128)");
  }
  require(s.size() >= 3 && s.size() <= 5, "--shape '", text, "' has ", s.size(),
          " dims; expected N,C and 1 to 3 spatial dims");
  for (size_t d = 0; d < s.size(); ++d)
    require(s[d] >= 1, "--shape '", text, "': dim ", d, " is 0; every dim must be at least 1");
  int64_t bytes = 0;
  try {
    bytes = checked_mul(checked_numel(s), 4, "float32 bytes");
  } catch (const Error& e) {
    fail("--shape '", text, "': ", e.what());
  }
  const double memory = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  require(double(bytes) <= memory / 2, "--shape ", to_string(s), " needs ", double(bytes) / 1e9,
          " GB for the input alone; this machine has ", memory / 1e9, " GB");
  return s;
}

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// A graph built in memory: values by name, nodes in order; build() completes it like a loaded model.
struct GraphMaker {
  std::shared_ptr<Graph> g = std::make_shared<Graph>();
  explicit GraphMaker(int opset) { g->opsets[""] = opset; }
  int value(const std::string& name) {
    const int id = g->find_value(name);
    if (id >= 0) return id;
    g->values.push_back(Value{name, {}, -1});
    return int(g->values.size() - 1);
  }
  GraphMaker& input(const std::string& name, const Shape& shape) {
    g->values[size_t(value(name))].info = ValueInfo::of(DType::f32, shape);
    g->inputs.push_back(value(name));
    return *this;
  }
  GraphMaker& ints(const std::string& name, const std::vector<int64_t>& v) {
    Tensor t(DType::i64, {int64_t(v.size())});
    std::copy(v.begin(), v.end(), t.data<int64_t>());
    g->values[size_t(value(name))].info = ValueInfo::of(t);
    return *this;
  }
  GraphMaker& node(const std::string& type, const std::vector<std::string>& ins, const std::string& out,
                   Attributes attrs = {}, const std::string& domain = "") {
    Node n;
    n.name = type;
    n.op_type = type;
    n.domain = domain;
    n.attrs = std::move(attrs);
    for (const std::string& s : ins) n.inputs.push_back(value(s));
    n.outputs.push_back(value(out));
    g->nodes.push_back(std::move(n));
    return *this;
  }
  std::shared_ptr<const Graph> build(const std::string& output) {
    g->outputs.push_back(value(output));
    build_graph(*g, builtin_ops());
    return g;
  }
};

Attribute ints_attr(std::vector<int64_t> v) {
  Attribute a;
  a.kind = Attribute::Kind::ints;
  a.ints = std::move(v);
  return a;
}
Attribute int_attr(int64_t v) {
  Attribute a;
  a.kind = Attribute::Kind::i;
  a.i = v;
  return a;
}
Attribute string_attr(std::string v) {
  Attribute a;
  a.kind = Attribute::Kind::s;
  a.s = std::move(v);
  return a;
}

// "Reshape:ref GlobalAveragePool:mean" for the plan's steps (reorders too).
std::vector<std::string> kernels_of(const Plan& plan) {
  std::vector<std::string> out;
  for (const PlanStep& step : plan.steps())
    out.push_back(step.node < 0 ? "reorder" : plan.graph().nodes[size_t(step.node)].op_type + ":" + step.kernel);
  return out;
}

std::string joined(const std::vector<std::string>& v, const char* sep = " ") {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

// ---- cnnx pool gap ----

struct GapOptions {
  std::string shape;
  int threads = 0;
  int iters = 5;
  std::string backend = "both";
  bool json = false;
  std::string plot;
  std::vector<std::string> compare;  // LABEL=MS
};

struct Spelling {
  std::string name;
  std::shared_ptr<const Graph> graph;
};

// Every spelling of global average pooling over an input of `shape` ([N, C, D1..Dk]).
std::vector<Spelling> spellings(const Shape& shape) {
  const size_t k = shape.size() - 2;
  std::vector<int64_t> spatial_axes, spatial(shape.begin() + 2, shape.end());
  for (size_t d = 2; d < shape.size(); ++d) spatial_axes.push_back(int64_t(d));
  const std::string axes = list_string(spatial_axes);
  std::vector<Spelling> s;
  s.push_back({"GlobalAveragePool", GraphMaker(13).input("x", shape).node("GlobalAveragePool", {"x"}, "y").build("y")});
  {
    Attributes a;
    a.set("kernel_shape", ints_attr(spatial));
    s.push_back({"AveragePool(kernel_shape=" + list_string(spatial) + ")",
                 GraphMaker(13).input("x", shape).node("AveragePool", {"x"}, "y", a).build("y")});
  }
  {
    Attributes a;
    a.set("axes", ints_attr(spatial_axes));
    s.push_back({"ReduceMean(axes=" + axes + ", keepdims=1)",
                 GraphMaker(13).input("x", shape).node("ReduceMean", {"x"}, "y", a).build("y")});
  }
  {
    Attributes a;
    a.set("keepdims", int_attr(0));
    s.push_back({"ReduceMean-18(axes input " + axes + ", keepdims=0)",
                 GraphMaker(18).input("x", shape).ints("axes", spatial_axes).node("ReduceMean", {"x", "axes"}, "y", a).build("y")});
  }
  {
    Attributes a;
    a.set("axes", ints_attr({-1}));
    a.set("keepdims", int_attr(0));
    s.push_back({"Reshape(N,C,-1) -> ReduceMean(axes=[-1], keepdims=0)",
                 GraphMaker(13).input("x", shape).ints("shape", {0, 0, -1})
                     .node("Reshape", {"x", "shape"}, "flat").node("ReduceMean", {"flat"}, "y", a).build("y")});
  }
  {
    GraphMaker m(13);
    m.g->opsets[kAtenDomain] = 1;
    const std::string op = "adaptive_avg_pool" + std::to_string(k) + "d";
    s.push_back({"aten::" + op + "(output_size=1)",
                 m.input("x", shape).ints("size", std::vector<int64_t>(k, 1))
                     .node(op, {"x", "size"}, "y", {}, kAtenDomain).build("y")});
  }
  return s;
}

// Uniform [-1, 1) from a hash of the index: the same input for any thread count, made in parallel.
void fill_input(Tensor& x) {
  float* p = x.data<float>();
  const int64_t n = x.numel();
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    uint64_t z = uint64_t(i) + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    p[i] = float(double(z >> 40) * (2.0 / double(1ull << 24)) - 1.0);
  }
}

// The float64 mean of every (n, c) plane: a sequential float64 sum per plane.
std::vector<double> reference_means(const Tensor& x) {
  const int64_t planes = x.dim(0) * x.dim(1), plane = numel_range(x.shape(), 2, x.shape().size());
  std::vector<double> means(static_cast<size_t>(planes));
  const float* p = x.data<float>();
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < planes; ++i) {
    double sum = 0;
    for (int64_t j = 0; j < plane; ++j) sum += double(p[i * plane + j]);
    means[size_t(i)] = sum / double(plane);
  }
  return means;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
float sum_floats(const float* x, int64_t n) {
  constexpr int kLanes = 64;
  float acc[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int j = 0; j < kLanes; ++j) acc[j] += x[i + j];
  float s = 0;
  for (; i < n; ++i) s += x[i];
  for (int j = 0; j < kLanes; ++j) s += acc[j];
  return s;
}

// The read-bandwidth probe: every thread sums its contiguous share of the input in float32 (the least work
// per byte a read can do). Returns milliseconds.
double time_read_probe(const Tensor& x, float& sink) {
  const float* p = x.data<float>();
  const int64_t n = x.numel();
  const auto start = std::chrono::steady_clock::now();
  float total = 0;
#pragma omp parallel reduction(+ : total)
  {
    const int64_t t = omp_get_thread_num(), threads = omp_get_num_threads();
    const int64_t begin = n * t / threads, end = n * (t + 1) / threads;
    total += sum_floats(p + begin, end - begin);
  }
  const double ms = ms_since(start);
  sink += total;
  return ms;
}

struct GapRun {
  std::string spelling, backend, kernels;
  bool pass = false;
  double max_abs = 0, max_rel = 0, median_ms = 0, min_ms = 0, probe_ms = 0;
  std::string error;
};

struct Outside {
  std::string label;
  double ms;
};

std::vector<Outside> parse_compare(const std::vector<std::string>& items) {
  std::vector<Outside> out;
  for (const std::string& s : items) {
    const size_t eq = s.rfind('=');
    char* end = nullptr;
    const double ms = eq == std::string::npos ? 0 : std::strtod(s.c_str() + eq + 1, &end);
    require(eq != std::string::npos && eq > 0 && end && *end == '\0' && ms > 0, "--compare takes LABEL=MS, got '", s,
            "'");
    out.push_back({s.substr(0, eq), ms});
  }
  return out;
}

// One horizontal bar per run (log-scale time axis), the read floor as a dashed line.
void write_svg(const std::string& path, const std::string& title, const std::vector<GapRun>& runs,
               const std::vector<Outside>& outside, double floor_ms) {
  struct Bar {
    std::string label, color;
    double ms;
  };
  std::vector<Bar> bars;
  for (const GapRun& r : runs) {
    if (!r.error.empty()) continue;
    const bool dnnl = r.backend == "dnnl";
    const char* color = dnnl ? (r.pass ? "#1b7837" : "#a6dba0") : (r.pass ? "#2166ac" : "#92c5de");
    bars.push_back({r.spelling + " | " + r.backend + " | pass " + (r.pass ? "on" : "off"), color, r.median_ms});
  }
  for (const Outside& o : outside) bars.push_back({o.label, "#999999", o.ms});
  double lo = floor_ms, hi = floor_ms;
  for (const Bar& b : bars) lo = std::min(lo, b.ms), hi = std::max(hi, b.ms);
  const double log_lo = std::log10(lo * 0.7), log_hi = std::log10(hi * 1.4);
  const int label_w = 470, plot_w = 520, row_h = 22, top = 56, W = label_w + plot_w + 90;
  const int H = top + int(bars.size()) * row_h + 50;
  auto x_of = [&](double ms) { return label_w + plot_w * (std::log10(ms) - log_lo) / (log_hi - log_lo); };
  auto esc = [](std::string s) {
    std::string o;
    for (char c : s) o += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
    return o;
  };
  std::ofstream f(path);
  require(bool(f), "cannot write --plot file '", path, "'");
  f << std::fixed << std::setprecision(1);
  f << "<svg xmlns='http://www.w3.org/2000/svg' width='" << W << "' height='" << H
    << "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n"
    << "<text x='10' y='20' font-size='14' font-weight='bold'>" << esc(title) << "</text>\n"
    << "<text x='10' y='38' fill='#555'>median ms, log scale; green: dnnl backend, blue: ref backend; dark: "
       "global-average-pool pass on, light: off; grey: other engines</text>\n";
  for (double decade = std::floor(log_lo); decade <= log_hi; ++decade)
    for (double m : {1.0, 2.0, 5.0}) {
      const double ms = m * std::pow(10.0, decade);
      if (std::log10(ms) < log_lo || std::log10(ms) > log_hi) continue;
      const double x = x_of(ms);
      f << "<line x1='" << x << "' y1='" << top - 6 << "' x2='" << x << "' y2='" << H - 40
        << "' stroke='#ddd'/>\n<text x='" << x << "' y='" << H - 26 << "' text-anchor='middle' fill='#555'>"
        << std::defaultfloat << std::setprecision(3) << ms << std::fixed << std::setprecision(1) << "</text>\n";
    }
  for (size_t i = 0; i < bars.size(); ++i) {
    const double y = top + double(i) * row_h;
    f << "<text x='" << label_w - 6 << "' y='" << y + 15 << "' text-anchor='end'>" << esc(bars[i].label) << "</text>\n"
      << "<rect x='" << label_w << "' y='" << y + 3 << "' width='" << std::max(1.0, x_of(bars[i].ms) - label_w)
      << "' height='" << row_h - 6 << "' fill='" << bars[i].color << "'/>\n"
      << "<text x='" << x_of(bars[i].ms) + 4 << "' y='" << y + 15 << "'>" << bars[i].ms << " ms</text>\n";
  }
  const double fx = x_of(floor_ms);
  f << "<line x1='" << fx << "' y1='" << top - 6 << "' x2='" << fx << "' y2='" << H - 40
    << "' stroke='#d73027' stroke-dasharray='4,3'/>\n<text x='" << fx + 3 << "' y='" << top - 8
    << "' fill='#d73027'>read floor " << floor_ms << " ms</text>\n</svg>\n";
}

int gap_lab(const GapOptions& o) {
  const Shape shape = parse_pool_shape(o.shape);
  const std::vector<Outside> outside = parse_compare(o.compare);
  if (o.threads > 0) omp_set_num_threads(o.threads);
  const int threads = omp_get_max_threads();
  std::vector<Backend> backends;
  if (o.backend != "ref") backends.push_back(Backend::dnnl);
  if (o.backend != "dnnl") backends.push_back(Backend::ref);

  Tensor x(DType::f32, shape);
  fill_input(x);
  const std::vector<double> want = reference_means(x);
  const double gb = double(x.bytes()) / 1e9;
  float sink = 0;
  std::vector<double> all_probes;
  std::vector<GapRun> runs;

  for (const Spelling& s : spellings(shape)) {
    for (Backend backend : backends) {
      for (bool pass : {false, true}) {
        GapRun r;
        r.spelling = s.name;
        r.backend = backend_name(backend);
        r.pass = pass;
        try {
          std::vector<std::string> disabled;
          if (!pass) disabled.push_back("global-average-pool");
          auto plan = Plan::build(s.graph, {ValueInfo::of(DType::f32, shape)}, backend, disabled);
          r.kernels = joined(kernels_of(*plan));
          const Tensor y = plan->run({x})[0];  // warm-up, and the result checked
          require(y.numel() == int64_t(want.size()), "output has ", y.numel(), " values, expected ", want.size());
          for (size_t i = 0; i < want.size(); ++i) {
            const double err = std::abs(double(y.data<float>()[i]) - want[i]);
            r.max_abs = std::max(r.max_abs, err);
            if (want[i] != 0) r.max_rel = std::max(r.max_rel, err / std::abs(want[i]));
          }
          std::vector<double> times, probes;
          for (int i = 0; i < o.iters; ++i) {
            probes.push_back(time_read_probe(x, sink));
            const auto start = std::chrono::steady_clock::now();
            plan->run({x});
            times.push_back(ms_since(start));
          }
          r.median_ms = median(times);
          r.min_ms = *std::min_element(times.begin(), times.end());
          r.probe_ms = median(probes);
          all_probes.insert(all_probes.end(), probes.begin(), probes.end());
        } catch (const Error& e) {
          r.error = e.what();
        }
        runs.push_back(r);
        if (!o.json && isatty(2))
          std::cerr << "  " << std::left << std::setw(58) << r.spelling << std::setw(5) << r.backend << " pass "
                    << (pass ? "on " : "off") << std::right << std::fixed << std::setprecision(1) << std::setw(9)
                    << r.median_ms << " ms\n";
      }
    }
  }
  const double floor_ms = median(all_probes);

  if (!o.plot.empty())
    write_svg(o.plot, "Global average pooling over " + to_string(shape) + " float32, " + std::to_string(threads) +
                          " threads (cnnx pool gap)",
              runs, outside, floor_ms);
  if (o.json) {
    nlohmann::json j{{"shape", shape}, {"bytes", x.bytes()}, {"threads", threads}, {"iters", o.iters},
                     {"read_probe", {{"median_ms", floor_ms}, {"gb_per_s", gb / (floor_ms / 1e3)}}}};
    j["runs"] = nlohmann::json::array();
    for (const GapRun& r : runs) {
      nlohmann::json jr{{"spelling", r.spelling}, {"backend", r.backend}, {"pass", r.pass}};
      if (!r.error.empty()) {
        jr["error"] = r.error;
      } else {
        jr.update({{"kernels", r.kernels}, {"max_abs_err", r.max_abs}, {"max_rel_err", r.max_rel},
                   {"median_ms", r.median_ms}, {"min_ms", r.min_ms}, {"gb_per_s", gb / (r.median_ms / 1e3)},
                   {"probe_ms", r.probe_ms}, {"percent_of_read_bw", 100.0 * r.probe_ms / r.median_ms},
                   {"ratio_to_floor", r.median_ms / r.probe_ms}});
      }
      j["runs"].push_back(jr);
    }
    for (const Outside& out : outside)
      j["compare"].push_back({{"label", out.label}, {"median_ms", out.ms}, {"ratio_to_floor", out.ms / floor_ms}});
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  std::cout << std::fixed << std::setprecision(1) << "global average pooling over float32 " << to_string(shape) << " ("
            << std::setprecision(2) << gb << " GB), " << threads << " threads, median of " << o.iters << " runs\n"
            << std::setprecision(1) << "read bandwidth probe (float32 sum of the same input, " << threads
            << " threads): " << floor_ms << " ms = " << gb / (floor_ms / 1e3) << " GB/s\n\n"
            << std::left << std::setw(56) << "spelling" << std::setw(8) << "backend" << "pass" << std::right
            << std::setw(12) << "max abs err" << std::setw(12) << "max rel err" << std::setw(10) << "median ms"
            << std::setw(8) << "GB/s" << std::setw(9) << "% read" << "  kernels\n";
  for (const GapRun& r : runs) {
    std::cout << std::left << std::setw(56) << r.spelling << std::setw(8) << r.backend << (r.pass ? "on  " : "off ");
    if (!r.error.empty()) {
      std::cout << "  error: " << r.error << "\n";
      continue;
    }
    std::cout << std::right << std::scientific << std::setprecision(1) << std::setw(12) << r.max_abs << std::setw(12)
              << r.max_rel << std::fixed << std::setw(10) << r.median_ms << std::setw(8) << gb / (r.median_ms / 1e3)
              << std::setw(8) << 100.0 * r.probe_ms / r.median_ms << "%  " << r.kernels << "\n";
  }
  for (const Outside& out : outside)
    std::cout << std::left << std::setw(56) << out.label << std::setw(8) << "-" << "-   " << std::right
              << std::setw(24) << "" << std::setw(10) << out.ms << std::setw(8) << gb / (out.ms / 1e3) << std::setw(8)
              << 100.0 * floor_ms / out.ms << "%  (given with --compare)\n";
  if (!o.plot.empty()) std::cout << "\nplot: " << o.plot << "\n";
  volatile float keep = sink;  // the probe's sums stay computed
  (void)keep;
  return 0;
}

// ---- cnnx pool avg ----

struct AvgOptions {
  std::string shape, kernel, strides, pads, dilations;
  std::string auto_pad = "NOTSET";
  bool ceil = false, count_include_pad = false, json = false;
};

int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
int64_t ceil_div(int64_t a, int64_t b) { return -floor_div(-a, b); }

// The output-size formula of one axis with its numbers, as ONNX opset 19 states it.
std::string size_formula(const PoolWindow& w, const PoolAxis& a) {
  std::ostringstream s;
  const int64_t eff = a.window_extent();
  if (a.dilation > 1) s << "window extent (" << a.kernel << " - 1) * " << a.dilation << " + 1 = " << eff << "; ";
  if (w.auto_pad == PoolAutoPad::same_upper || w.auto_pad == PoolAutoPad::same_lower) {
    s << "out = ceil(" << a.in << " / " << a.stride << ") = " << a.out << ", total pad max(0, (" << a.out << " - 1) * "
      << a.stride << " + " << eff << " - " << a.in << ") = " << a.pad_begin + a.pad_end << " -> pads " << a.pad_begin
      << " + " << a.pad_end << " (odd cell at the " << (w.auto_pad == PoolAutoPad::same_upper ? "end" : "beginning")
      << ")";
    return s.str();
  }
  if (w.auto_pad == PoolAutoPad::valid) {
    s << "out = floor((" << a.in << " - " << eff << ") / " << a.stride << ") + 1 = " << a.out;
    return s.str();
  }
  const int64_t num = a.in + a.pad_begin + a.pad_end - eff;
  if (!w.ceil_mode) {
    s << "out = floor((" << a.in << " + " << a.pad_begin << " + " << a.pad_end << " - " << eff << ") / " << a.stride
      << ") + 1 = " << a.out;
    return s.str();
  }
  const int64_t up = ceil_div(num, a.stride) + 1;
  s << "out = ceil((" << a.in << " + " << a.pad_begin << " + " << a.pad_end << " - " << eff << ") / " << a.stride
    << ") + 1 = " << up;
  if (up > a.out)
    s << ", minus the last window, which would start at " << a.start(up - 1) << " (in the right padding): " << a.out;
  return s.str();
}

struct WindowInfo {
  int64_t o, start, in_input, in_padded;
  bool starts_in_padding, overhangs;
};

WindowInfo window_info(const PoolAxis& a, int64_t o) {
  const int64_t start = a.start(o);
  return {o, start, a.taps_in_input(o), a.taps_in_padded(o), start < 0 || start >= a.in,
          start + a.window_extent() > a.in + a.pad_end};
}

// Windows to show along an axis: all when few, else the first and last three (the edges, where padding is).
std::vector<int64_t> shown_windows(int64_t out) {
  std::vector<int64_t> v;
  for (int64_t o = 0; o < out; ++o)
    if (out <= 12 || o < 3 || o >= out - 3) v.push_back(o);
  return v;
}

// PyTorch's avg_pool{1,2,3}d for the same geometry: the call, or why there is none; and whether its output
// size and divisors (ATen's pooling_output_shape and hend = min(hstart + k, in + pad)) equal ONNX's.
struct TorchView {
  bool expressible = true;
  std::string call;
  std::vector<std::string> reasons, differences;
};

TorchView torch_view(const PoolParams& p, const PoolGeometry& g) {
  TorchView t;
  const PoolWindow& w = p.window;
  std::vector<int64_t> k, s, pad;
  for (size_t d = 0; d < g.axes.size(); ++d) {
    const PoolAxis& a = g.axes[d];
    k.push_back(a.kernel), s.push_back(a.stride), pad.push_back(a.pad_begin);
    if (a.dilation > 1) t.reasons.push_back("dilation " + std::to_string(a.dilation) + " on axis " + std::to_string(d) +
                                           ": PyTorch's average pooling has no dilation");
    if (a.pad_begin != a.pad_end)
      t.reasons.push_back("pads " + std::to_string(a.pad_begin) + " + " + std::to_string(a.pad_end) + " on axis " +
                          std::to_string(d) +
                          ": PyTorch pads both sides equally (an F.pad before the pooling makes the padded cells "
                          "count as input, i.e. count_include_pad = 1 semantics)");
    else if (2 * a.pad_begin > a.kernel)
      t.reasons.push_back("pad " + std::to_string(a.pad_begin) + " on axis " + std::to_string(d) + " exceeds half the kernel (" +
                          std::to_string(a.kernel) + "): PyTorch refuses it");
  }
  if (w.auto_pad == PoolAutoPad::same_upper || w.auto_pad == PoolAutoPad::same_lower)
    t.reasons.push_back("auto_pad SAME_*: PyTorch pooling has no SAME padding (the pads above are what ONNX resolves)");
  t.expressible = t.reasons.empty() || (t.reasons.size() == 1 && w.auto_pad != PoolAutoPad::notset &&
                                        t.reasons[0].rfind("auto_pad", 0) == 0);
  const bool ceil = w.ceil_mode && w.auto_pad == PoolAutoPad::notset;
  std::ostringstream c;
  c << "F.avg_pool" << g.axes.size() << "d(x, kernel_size=" << list_string(k) << ", stride=" << list_string(s)
    << ", padding=" << list_string(pad) << ", ceil_mode=" << (ceil ? "True" : "False")
    << ", count_include_pad=" << (p.count_include_pad ? "True" : "False") << ")";
  t.call = c.str();
  if (!t.expressible) return t;
  for (size_t d = 0; d < g.axes.size(); ++d) {
    const PoolAxis& a = g.axes[d];
    // ATen: out = div_rtn(in + 2p - k + (ceil ? s - 1 : 0), s) + 1, then if ceil and (out - 1) * s >= in + p: out - 1.
    const int64_t pp = a.pad_begin;
    int64_t out = floor_div(a.in + 2 * pp - a.kernel + (ceil ? a.stride - 1 : 0), a.stride) + 1;
    if (ceil && (out - 1) * a.stride >= a.in + pp) --out;
    if (out != a.out) {
      t.differences.push_back("axis " + std::to_string(d) + ": PyTorch's output size is " + std::to_string(out) +
                              ", ONNX's " + std::to_string(a.out));
      continue;
    }
    for (int64_t o = 0; o < out; ++o) {
      const int64_t start = o * a.stride - pp, end = std::min(start + a.kernel, a.in + pp);
      const int64_t in_input = std::min(end, a.in) - std::max<int64_t>(start, 0);
      const int64_t torch_div = p.count_include_pad ? end - start : in_input;
      const int64_t onnx_div = p.count_include_pad ? a.taps_in_padded(o) : a.taps_in_input(o);
      if (torch_div != onnx_div)
        t.differences.push_back("axis " + std::to_string(d) + " window " + std::to_string(o) + ": PyTorch divides by " +
                                std::to_string(torch_div) + ", ONNX by " + std::to_string(onnx_div));
    }
  }
  return t;
}

int avg_lab(const AvgOptions& o) {
  const Shape shape = parse_pool_shape(o.shape);
  const size_t k = shape.size() - 2;
  Attributes attrs;
  auto per_axis = [&](const std::string& text, const char* option, size_t count, int64_t min) {
    std::vector<int64_t> v = parse_ints(text, option, min);
    require(v.size() == count, option, " '", text, "' has ", v.size(), " values; expected ", count, " for ", k,
            " spatial dims");
    return v;
  };
  attrs.set("kernel_shape", ints_attr(per_axis(o.kernel, "--kernel", k, 1)));
  if (!o.strides.empty()) attrs.set("strides", ints_attr(per_axis(o.strides, "--strides", k, 1)));
  if (!o.dilations.empty()) attrs.set("dilations", ints_attr(per_axis(o.dilations, "--dilations", k, 1)));
  if (!o.pads.empty()) attrs.set("pads", ints_attr(per_axis(o.pads, "--pads", 2 * k, 0)));
  if (o.auto_pad != "NOTSET") attrs.set("auto_pad", string_attr(o.auto_pad));
  if (o.ceil) attrs.set("ceil_mode", int_attr(1));
  if (o.count_include_pad) attrs.set("count_include_pad", int_attr(1));

  // The node as a model of opset 19 (dilations need it): parse, infer and cautions as at load.
  std::shared_ptr<const Graph> graph = GraphMaker(19).input("x", shape).node("AveragePool", {"x"}, "y", attrs).build("y");
  const Node& node = graph->nodes.at(0);
  const auto& p = params_as<PoolParams>(*node.params, node.op_type);
  const PoolGeometry g = resolve_pool_geometry(p.window, Shape(shape.begin() + 2, shape.end()));
  Shape out_shape{shape[0], shape[1]};
  for (int64_t v : g.output_spatial()) out_shape.push_back(v);

  // dnnl backend against the reference kernel on one seeded input.
  nlohmann::json engines;
  Tensor x(DType::f32, shape);
  fill_input(x);
  const auto ref_plan = Plan::build(graph, {ValueInfo::of(DType::f32, shape)}, Backend::ref);
  const auto dnnl_plan = Plan::build(graph, {ValueInfo::of(DType::f32, shape)}, Backend::dnnl);
  const PlanStep& step = dnnl_plan->steps().at(0);
  const Tensor want = ref_plan->run({x})[0], got = dnnl_plan->run({x})[0];
  double diff = 0;
  for (int64_t i = 0; i < want.numel(); ++i)
    diff = std::max(diff, std::abs(double(got.data<float>()[i]) - double(want.data<float>()[i])));
  engines["dnnl_backend_kernel"] = step.kernel;
  engines["declined"] = step.declined;
  engines["max_abs_diff_vs_ref"] = diff;
  // What oneDNN's own include-padding average would divide by where cnnx declines it: the kernel volume.
  int64_t volume = 1;
  for (const PoolAxis& a : g.axes) volume *= a.kernel;
  std::vector<std::string> onednn_differs;
  if (p.count_include_pad)
    for (size_t d = 0; d < g.axes.size(); ++d)
      if (g.axes[d].last_window_overhangs())
        onednn_differs.push_back("axis " + std::to_string(d) + ": the last window's divisor factor is " +
                                 std::to_string(g.axes[d].taps_in_padded(g.axes[d].out - 1)) +
                                 "; oneDNN's include-padding pooling uses " + std::to_string(g.axes[d].kernel) +
                                 " (it divides every window by the kernel volume " + std::to_string(volume) + ")");
  engines["onednn_include_padding_differs"] = onednn_differs;
  const TorchView torch = torch_view(p, g);
  const std::vector<std::string> cautions = graph->warnings;

  nlohmann::json axes = nlohmann::json::array();
  for (size_t d = 0; d < g.axes.size(); ++d) {
    const PoolAxis& a = g.axes[d];
    nlohmann::json windows = nlohmann::json::array();
    for (int64_t wo : shown_windows(a.out)) {
      const WindowInfo wi = window_info(a, wo);
      windows.push_back({{"index", wi.o},
                         {"start", wi.start},
                         {"taps_in_input", wi.in_input},
                         {"taps_in_input_and_pads", wi.in_padded},
                         {"divisor_factor", p.count_include_pad ? wi.in_padded : wi.in_input},
                         {"starts_in_padding", wi.starts_in_padding},
                         {"overhangs", wi.overhangs}});
    }
    axes.push_back({{"in", a.in}, {"out", a.out}, {"kernel", a.kernel}, {"stride", a.stride}, {"dilation", a.dilation},
                    {"pad_begin", a.pad_begin}, {"pad_end", a.pad_end}, {"formula", size_formula(p.window, a)},
                    {"windows", windows}});
  }
  if (o.json) {
    nlohmann::json j{{"input_shape", shape}, {"output_shape", out_shape}, {"count_include_pad", p.count_include_pad},
                     {"axes", axes}, {"engines", engines}, {"warnings", cautions}};
    j["pytorch"] = {{"expressible", torch.expressible}, {"call", torch.call}, {"reasons", torch.reasons},
                    {"differences", torch.differences}};
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  std::cout << "AveragePool (ONNX opset 19) over x " << to_string(shape) << " -> " << to_string(out_shape)
            << ", count_include_pad " << p.count_include_pad << "\n\noutput size per spatial axis:\n";
  for (size_t d = 0; d < g.axes.size(); ++d) std::cout << "  axis " << d << ": " << axes[d]["formula"].get<std::string>() << "\n";
  std::cout << "\nwindows (start position, taps inside the input / inside input + pads; the divisor is the product "
               "over axes of the "
            << (p.count_include_pad ? "second" : "first") << " number):\n";
  for (size_t d = 0; d < g.axes.size(); ++d) {
    std::cout << "  axis " << d << ":";
    int64_t prev = -1;
    for (const auto& wj : axes[d]["windows"]) {
      const int64_t idx = wj["index"];
      if (prev >= 0 && idx != prev + 1) std::cout << " ...";
      prev = idx;
      std::cout << " [" << idx << "] @" << wj["start"].get<int64_t>() << " " << wj["taps_in_input"].get<int64_t>() << "/"
                << wj["taps_in_input_and_pads"].get<int64_t>();
      if (wj["starts_in_padding"].get<bool>()) std::cout << " (starts in padding)";
      if (wj["overhangs"].get<bool>()) std::cout << " (overhangs the padding)";
    }
    std::cout << "\n";
  }
  if (g.axes.size() == 2 && g.axes[0].out <= 16 && g.axes[1].out <= 16) {
    std::cout << "\ndivisor of every window:\n";
    for (int64_t i = 0; i < g.axes[0].out; ++i) {
      std::cout << "  ";
      for (int64_t j = 0; j < g.axes[1].out; ++j) std::cout << std::setw(4) << g.divisor({i, j}, p.count_include_pad);
      std::cout << "\n";
    }
  }
  std::cout << "\noneDNN vs reference (dnnl backend on one random input): kernel " << step.kernel;
  for (const std::string& why : step.declined) std::cout << " [declined " << why << "]";
  std::cout << ", max abs diff " << std::scientific << std::setprecision(1) << diff << std::defaultfloat << "\n";
  for (const std::string& s : onednn_differs) std::cout << "  oneDNN itself: " << s << "\n";
  std::cout << "\nPyTorch: ";
  if (torch.expressible) {
    std::cout << torch.call << "\n";
    if (torch.differences.empty()) std::cout << "  same output size and divisors as ONNX\n";
    for (const std::string& s : torch.differences) std::cout << "  differs: " << s << "\n";
  } else {
    std::cout << "no direct equivalent\n";
  }
  for (const std::string& s : torch.reasons) std::cout << "  " << s << "\n";
  std::cout << "\nother engines:" << (cautions.empty() ? " no known disagreement for these settings\n" : "\n");
  for (const std::string& c : cautions) {
    std::string rest = c.substr(c.find("): ") + 3);
    for (size_t cut; (cut = rest.find("; ceil_mode")) != std::string::npos || (cut = rest.find("; auto_pad")) != std::string::npos;) {
      std::cout << "  " << rest.substr(0, cut) << "\n";
      rest = rest.substr(cut + 2);
    }
    std::cout << "  " << rest << "\n";
  }
  return 0;
}

}  // namespace

Command add_pool_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("pool", "The pooling lab: global average pooling spellings, AveragePool geometry");
  sub->require_subcommand(1);

  auto g = std::make_shared<GapOptions>();
  CLI::App* gap = sub->add_subcommand("gap", "Time and check every spelling of global average pooling");
  gap->add_option("--shape", g->shape, "N,C,D1[,D2[,D3]] of the float32 input")->required();
  gap->add_option("--threads", g->threads, "Threads (0: all cores)")->check(CLI::NonNegativeNumber);
  gap->add_option("--iters", g->iters, "Timed runs per spelling")->check(CLI::PositiveNumber);
  gap->add_option("--backend", g->backend, "dnnl, ref or both")->check(CLI::IsMember({"dnnl", "ref", "both"}));
  gap->add_flag("--json", g->json, "Print one JSON object");
  gap->add_option("--plot", g->plot, "Write an SVG bar chart of the timings to this file");
  gap->add_option("--compare", g->compare, "LABEL=MS: another engine's median to show beside (repeatable)");

  auto a = std::make_shared<AvgOptions>();
  CLI::App* avg = sub->add_subcommand("avg", "Explain one AveragePool geometry and how engines differ on it");
  avg->add_option("--shape", a->shape, "N,C,D1[,D2[,D3]] of the input")->required();
  avg->add_option("--kernel", a->kernel, "K1[,K2[,K3]]")->required();
  avg->add_option("--strides", a->strides, "S1,... (default 1)");
  avg->add_option("--pads", a->pads, "begin1,..,end1,.. (default 0)");
  avg->add_option("--dilations", a->dilations, "D1,... (default 1)");
  avg->add_option("--auto-pad", a->auto_pad, "NOTSET, SAME_UPPER, SAME_LOWER or VALID")
      ->check(CLI::IsMember({"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"}));
  avg->add_flag("--ceil", a->ceil, "ceil_mode = 1");
  avg->add_flag("--count-include-pad", a->count_include_pad, "count_include_pad = 1");
  avg->add_flag("--json", a->json, "Print one JSON object");

  return {sub, [g, a, gap, avg] { return gap->parsed() ? gap_lab(*g) : avg_lab(*a); }};
}

}  // namespace cnnx::tools
