#include "lab/gap_bench.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "api/tools_facade.h"
#include "lab/gap_variants.h"
#include "lab/lab_input.h"
#include "lab/read_probe.h"

namespace cnnx::lab {

namespace {

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
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

// "Reshape:ref GlobalAveragePool:mean" for the plan's steps (reorders too).
std::string kernels_of(const PlanView& plan) {
  std::string s;
  for (const StepReport& step : plan.steps())
    s += (s.empty() ? "" : " ") + (step.reorder ? std::string("reorder") : step.op_type + ":" + step.kernel);
  return s;
}

}  // namespace

GapBenchResult run_gap_bench(const GapBenchSettings& s, const std::function<void(const GapRun&)>& on_run) {
  if (s.threads > 0) omp_set_num_threads(s.threads);
  GapBenchResult result;
  result.threads = omp_get_max_threads();

  Tensor x(DType::f32, s.shape);
  fill_lab_input(x);
  result.bytes = int64_t(x.bytes());
  const std::vector<double> want = reference_means(x);
  float sink = 0;
  std::vector<double> all_probes;

  for (const GapVariant& v : gap_variants(s.shape)) {
    for (Backend backend : s.backends) {
      for (bool pass : {false, true}) {
        GapRun r;
        r.spelling = v.name;
        r.backend = backend_name(backend);
        r.pass = pass;
        try {
          std::vector<std::string> disabled;
          if (!pass) disabled.push_back("global-average-pool");
          const PlanView plan = plan_apart(v.model, {x}, backend, disabled);
          r.kernels = kernels_of(plan);
          const Tensor y = plan.run({x})[0];  // warm-up, and the result checked
          require(y.numel() == int64_t(want.size()), "output has ", y.numel(), " values, expected ", want.size());
          for (size_t i = 0; i < want.size(); ++i) {
            const double err = std::abs(double(y.data<float>()[i]) - want[i]);
            r.max_abs = std::max(r.max_abs, err);
            if (want[i] != 0) r.max_rel = std::max(r.max_rel, err / std::abs(want[i]));
          }
          std::vector<double> times, probes;
          for (int i = 0; i < s.iters; ++i) {
            probes.push_back(time_read_probe(x, sink));
            const auto start = std::chrono::steady_clock::now();
            plan.run({x});
            times.push_back(ms_since(start));
          }
          r.median_ms = median(times);
          r.min_ms = *std::min_element(times.begin(), times.end());
          r.probe_ms = median(probes);
          all_probes.insert(all_probes.end(), probes.begin(), probes.end());
        } catch (const Error& e) {
          r.error = e.what();
        }
        result.runs.push_back(r);
        if (on_run) on_run(result.runs.back());
      }
    }
  }
  result.floor_ms = median(all_probes);
  volatile float keep = sink;  // the probe's sums stay computed
  (void)keep;
  return result;
}

}  // namespace cnnx::lab
