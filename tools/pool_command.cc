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
//
// The lab itself (graphs, runs, timings, geometry) is in lab/; this file reads the options and prints.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "lab/avg_pool_explain.h"
#include "lab/gap_bench.h"
#include "tools/commands.h"

namespace cnnx::tools {

namespace {

using lab::GapRun;

// ---- options ----

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
  lab::GapBenchSettings settings;
  settings.shape = parse_pool_shape(o.shape);
  const std::vector<Outside> outside = parse_compare(o.compare);
  settings.threads = o.threads;
  settings.iters = o.iters;
  if (o.backend != "ref") settings.backends.push_back(Backend::dnnl);
  if (o.backend != "dnnl") settings.backends.push_back(Backend::ref);
  const bool progress = !o.json && isatty(2);
  const lab::GapBenchResult result = lab::run_gap_bench(settings, [progress](const GapRun& r) {
    if (progress)
      std::cerr << "  " << std::left << std::setw(58) << r.spelling << std::setw(5) << r.backend << " pass "
                << (r.pass ? "on " : "off") << std::right << std::fixed << std::setprecision(1) << std::setw(9)
                << r.median_ms << " ms\n";
  });
  const Shape& shape = settings.shape;
  const std::vector<GapRun>& runs = result.runs;
  const int threads = result.threads;
  const double floor_ms = result.floor_ms;
  const double gb = double(result.bytes) / 1e9;

  if (!o.plot.empty())
    write_svg(o.plot, "Global average pooling over " + to_string(shape) + " float32, " + std::to_string(threads) +
                          " threads (cnnx pool gap)",
              runs, outside, floor_ms);
  if (o.json) {
    nlohmann::json j{{"shape", shape}, {"bytes", result.bytes}, {"threads", threads}, {"iters", o.iters},
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
  return 0;
}

// ---- cnnx pool avg ----

struct AvgOptions {
  std::string shape, kernel, strides, pads, dilations;
  std::string auto_pad = "NOTSET";
  bool ceil = false, count_include_pad = false, json = false;
};

int avg_lab(const AvgOptions& o) {
  lab::AvgPoolSettings s;
  s.shape = parse_pool_shape(o.shape);
  const size_t k = s.shape.size() - 2;
  auto per_axis = [&](const std::string& text, const char* option, size_t count, int64_t min) {
    std::vector<int64_t> v = parse_ints(text, option, min);
    require(v.size() == count, option, " '", text, "' has ", v.size(), " values; expected ", count, " for ", k,
            " spatial dims");
    return v;
  };
  s.kernel = per_axis(o.kernel, "--kernel", k, 1);
  if (!o.strides.empty()) s.strides = per_axis(o.strides, "--strides", k, 1);
  if (!o.dilations.empty()) s.dilations = per_axis(o.dilations, "--dilations", k, 1);
  if (!o.pads.empty()) s.pads = per_axis(o.pads, "--pads", 2 * k, 0);
  s.auto_pad = o.auto_pad;
  s.ceil_mode = o.ceil;
  s.count_include_pad = o.count_include_pad;
  const lab::AvgPoolExplanation e = lab::explain_avg_pool(s);
  const lab::TorchAvgPool& torch = e.pytorch;

  if (o.json) {
    nlohmann::json axes = nlohmann::json::array();
    for (const lab::AvgPoolAxisInfo& info : e.axes) {
      const PoolAxis& a = info.axis;
      nlohmann::json windows = nlohmann::json::array();
      for (const lab::AvgPoolWindowInfo& w : info.windows)
        windows.push_back({{"index", w.index},
                           {"start", w.start},
                           {"taps_in_input", w.taps_in_input},
                           {"taps_in_input_and_pads", w.taps_in_padded},
                           {"divisor_factor", w.divisor_factor},
                           {"starts_in_padding", w.starts_in_padding},
                           {"overhangs", w.overhangs}});
      axes.push_back({{"in", a.in}, {"out", a.out}, {"kernel", a.kernel}, {"stride", a.stride}, {"dilation", a.dilation},
                      {"pad_begin", a.pad_begin}, {"pad_end", a.pad_end}, {"formula", info.formula},
                      {"windows", windows}});
    }
    nlohmann::json engines;
    engines["dnnl_backend_kernel"] = e.dnnl_backend_kernel;
    engines["declined"] = e.declined;
    engines["max_abs_diff_vs_ref"] = e.max_abs_diff_vs_ref;
    engines["onednn_include_padding_differs"] = e.onednn_include_padding_differs;
    nlohmann::json j{{"input_shape", e.input_shape}, {"output_shape", e.output_shape},
                     {"count_include_pad", e.count_include_pad}, {"axes", axes}, {"engines", engines},
                     {"warnings", e.warnings}};
    j["pytorch"] = {{"expressible", torch.expressible}, {"call", torch.call}, {"reasons", torch.reasons},
                    {"differences", torch.differences}};
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  std::cout << "AveragePool (ONNX opset 19) over x " << to_string(e.input_shape) << " -> " << to_string(e.output_shape)
            << ", count_include_pad " << e.count_include_pad << "\n\noutput size per spatial axis:\n";
  for (size_t d = 0; d < e.axes.size(); ++d) std::cout << "  axis " << d << ": " << e.axes[d].formula << "\n";
  std::cout << "\nwindows (start position, taps inside the input / inside input + pads; the divisor is the product "
               "over axes of the "
            << (e.count_include_pad ? "second" : "first") << " number):\n";
  for (size_t d = 0; d < e.axes.size(); ++d) {
    std::cout << "  axis " << d << ":";
    int64_t prev = -1;
    for (const lab::AvgPoolWindowInfo& w : e.axes[d].windows) {
      if (prev >= 0 && w.index != prev + 1) std::cout << " ...";
      prev = w.index;
      std::cout << " [" << w.index << "] @" << w.start << " " << w.taps_in_input << "/" << w.taps_in_padded;
      if (w.starts_in_padding) std::cout << " (starts in padding)";
      if (w.overhangs) std::cout << " (overhangs the padding)";
    }
    std::cout << "\n";
  }
  const PoolGeometry& g = e.geometry;
  if (g.axes.size() == 2 && g.axes[0].out <= 16 && g.axes[1].out <= 16) {
    std::cout << "\ndivisor of every window:\n";
    for (int64_t i = 0; i < g.axes[0].out; ++i) {
      std::cout << "  ";
      for (int64_t j = 0; j < g.axes[1].out; ++j) std::cout << std::setw(4) << g.divisor({i, j}, e.count_include_pad);
      std::cout << "\n";
    }
  }
  std::cout << "\noneDNN vs reference (dnnl backend on one random input): kernel " << e.dnnl_backend_kernel;
  for (const std::string& why : e.declined) std::cout << " [declined " << why << "]";
  std::cout << ", max abs diff " << std::scientific << std::setprecision(1) << e.max_abs_diff_vs_ref << std::defaultfloat
            << "\n";
  for (const std::string& line : e.onednn_include_padding_differs) std::cout << "  oneDNN itself: " << line << "\n";
  std::cout << "\nPyTorch: ";
  if (torch.expressible) {
    std::cout << torch.call << "\n";
    if (torch.differences.empty()) std::cout << "  same output size and divisors as ONNX\n";
    for (const std::string& line : torch.differences) std::cout << "  differs: " << line << "\n";
  } else {
    std::cout << "no direct equivalent\n";
  }
  for (const std::string& line : torch.reasons) std::cout << "  " << line << "\n";
  std::cout << "\nother engines:" << (e.warnings.empty() ? " no known disagreement for these settings\n" : "\n");
  for (const std::string& c : e.warnings) {
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
