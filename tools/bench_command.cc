// cnnx bench MODEL: times Model::run on seeded random inputs. Prints median, min and p90 of --iters runs after
// --warmup runs, plus load time, the first run (planning included, and shown alone as plan_ms) and peak RSS;
// --json prints one object (with --profile, also "steps": every plan step's op, name, kernel, mean ms, median_ms
// and min_ms, and "profile_run_ms", the mean wall time of the profiled runs). "run_threads" counts the timed runs by the team
// they used ({"2": 17, "1": 3}): with --threads 0 the team adapts to the machine (runtime/team.h). --callers K
// runs from K threads at once ("callers"; "runs_per_s": timed runs over their wall time, all callers together).
// "gflop" (GFLOP per run: 2 per multiply-add of the sum-of-products steps, Conv, Gemm, MatMul, ...) and
// "weight_mb" (MB of constants the steps read) are the plan's work (PlanWork, api/tools_facade.h), to set the times
// against the machine's FMA peak and read bandwidth (bench/machine_limits.cc). "prepared_weights": the
// weights the plans' kernels prepared ("made", "made_mb") and those a plan shared with another plan of the
// model instead ("shared", "shared_mb": the one-thread twin's; PreparedWeightTotals). "precision" is what ran
// ("precision_requested" what --precision asked; "precision_emulated", "precision_note", "cpu_isa" and
// "cpu_native_bfloat16" say how bf16 ran or why it did not: PrecisionReport).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "tools/commands.h"

namespace cnnx::tools {

namespace {

struct BenchOptions : ModelArgs {
  std::vector<std::string> shapes;  // NAME=D0,D1,...
  int64_t batch = 1;
  int threads = 0;
  int iters = 20;
  int warmup = 3;
  int callers = 1;
  bool json = false;
  bool profile = false;
};

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

double peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

// Per-step times (mean, median and minimum over `iters` runs), to see where a model's time
// goes: a summary by op and the slowest steps on stderr, and every step in plan order as the returned JSON array
// ({op, name, kernel, ms}; a reorder's name is the value it converts). `run_ms` gets the mean wall time of the
// profiled runs, which the steps (timed inside them) add up to at most. The runs use the team the model decided
// on for a whole run (the plan's).
nlohmann::json profile_steps(const Model& model, const std::vector<Tensor>& inputs, int iters, double& run_ms) {
  const PlanView plan = plan_of(model, inputs);
  std::vector<double> step_ms;
  std::vector<std::vector<double>> runs(static_cast<size_t>(iters));  // each run's step times, for medians and minima
  {
    auto start = std::chrono::steady_clock::now();
    for (auto& r : runs) plan.run(inputs, &r);
    run_ms = ms_since(start) / iters;
  }
  const std::vector<StepReport> plan_steps = plan.steps();
  step_ms.assign(plan_steps.size(), 0.0);
  for (const auto& r : runs)
    for (size_t s = 0; s < r.size(); ++s) step_ms[s] += r[s];
  nlohmann::json steps = nlohmann::json::array();
  std::map<std::string, std::pair<double, int>> by_op;
  double total = 0;
  std::vector<double> samples;
  for (size_t s = 0; s < step_ms.size(); ++s) {
    const StepReport& step = plan_steps[s];
    const std::string op = step.reorder ? "(reorder)" : step.op_type;
    const double ms = step_ms[s] / iters;
    samples.clear();
    for (const auto& r : runs) samples.push_back(s < r.size() ? r[s] : 0.0);
    std::sort(samples.begin(), samples.end());
    // On a shared machine a step's median and minimum survive load that its mean does not.
    steps.push_back({{"op", op},
                     {"name", step.name},
                     {"kernel", step.kernel},
                     {"ms", ms},
                     {"median_ms", samples[samples.size() / 2]},
                     {"min_ms", samples.front()}});
    by_op[op].first += ms;
    ++by_op[op].second;
    total += ms;
  }
  std::vector<std::pair<double, std::string>> ops;
  for (const auto& [op, v] : by_op) ops.push_back({v.first, op + " x" + std::to_string(v.second)});
  std::sort(ops.rbegin(), ops.rend());
  std::cerr << std::fixed << std::setprecision(3) << "profile (mean of " << iters << " runs, " << total
            << " ms in steps):\n";
  for (const auto& [ms, what] : ops) std::cerr << "  " << std::setw(9) << ms << " ms  " << what << "\n";
  std::vector<size_t> order(steps.size());
  for (size_t s = 0; s < order.size(); ++s) order[s] = s;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return step_ms[a] > step_ms[b]; });
  std::cerr << "slowest steps (--json --profile lists every step):\n";
  for (size_t i = 0; i < std::min<size_t>(10, order.size()); ++i) {
    const nlohmann::json& s = steps[order[i]];
    std::cerr << "  " << std::setw(9) << s["ms"].get<double>() << " ms  " << s["op"].get<std::string>() << " "
              << s["name"].get<std::string>() << "  " << s["kernel"].get<std::string>() << "\n";
  }
  return steps;
}

// --callers threads each make --warmup untimed runs, wait for each other, then --iters timed runs on the one
// model, as an app serving several requests at once would. Appends every timed run's wall time (ms) to `times`
// and counts the runs by the team they used; returns the wall time from the start of the timed runs to the end
// of the last one.
double timed_runs(const Model& model, const std::vector<Tensor>& inputs, const BenchOptions& o,
                  std::vector<double>& times, std::map<std::string, int>& run_threads) {
  std::mutex mutex;
  std::condition_variable all_warm;
  int warming = o.callers;
  std::chrono::steady_clock::time_point timed_start;
  auto caller = [&] {
    for (int i = 0; i < o.warmup; ++i) model.run(inputs);
    {
      std::unique_lock<std::mutex> lock(mutex);
      if (--warming == 0) {
        timed_start = std::chrono::steady_clock::now();
        all_warm.notify_all();
      }
      all_warm.wait(lock, [&] { return warming == 0; });
    }
    std::vector<std::pair<double, int>> mine;
    for (int i = 0; i < o.iters; ++i) {
      RunInfo info;
      const auto start = std::chrono::steady_clock::now();
      model.run(inputs, &info);
      mine.push_back({ms_since(start), info.threads});
    }
    std::lock_guard<std::mutex> lock(mutex);
    for (const auto& [ms, threads] : mine) {
      times.push_back(ms);
      ++run_threads[std::to_string(threads)];
    }
  };
  std::vector<std::thread> others;
  for (int c = 1; c < o.callers; ++c) others.emplace_back(caller);
  caller();
  for (std::thread& t : others) t.join();
  return ms_since(timed_start);
}

int bench(const BenchOptions& o) {
  Options mo = engine_options(o);
  mo.threads = o.threads;
  auto start = std::chrono::steady_clock::now();
  Model model = Model::load(o.model, mo);
  const double load_ms = ms_since(start);
  print_warnings(model);
  std::vector<Tensor> inputs =
      random_inputs(model, planning_shapes(model, o.shapes, o.batch), 1, "cnnx bench makes only float32 inputs");
  start = std::chrono::steady_clock::now();
  const PlanView plan = plan_of(model, inputs);  // cached: the run below finds it
  const double plan_ms = ms_since(start);
  model.run(inputs);
  const double first_run_ms = ms_since(start);
  const PlanWork cost = plan.work();
  std::vector<double> times;
  std::map<std::string, int> run_threads;  // team size -> timed runs that used it (runtime/team.h)
  const double timed_ms = timed_runs(model, inputs, o, times, run_threads);
  nlohmann::json steps;
  double profile_run_ms = 0;
  if (o.profile) steps = profile_steps(model, inputs, o.iters, profile_run_ms);
  std::sort(times.begin(), times.end());
  auto at = [&](double q) { return times[std::min(times.size() - 1, size_t(q * double(times.size() - 1) + 0.5))]; };
  nlohmann::json j{{"model", o.model},           {"backend", o.backend},     {"threads", o.threads},
                   {"iters", o.iters},           {"median_ms", at(0.5)},     {"min_ms", times.front()},
                   {"p90_ms", at(0.9)},          {"max_ms", times.back()},   {"load_ms", load_ms},
                   {"first_run_ms", first_run_ms}, {"plan_ms", plan_ms}, {"peak_rss_mb", peak_rss_mb()},
                   {"run_threads", run_threads}, {"callers", o.callers},
                   {"runs_per_s", double(times.size()) / (timed_ms / 1e3)},
                   {"gflop", cost.flop / 1e9},   {"weight_mb", double(cost.weight_bytes) / 1e6}};
  j["isa"] = cpu_report().isa;
  const PrecisionReport precision = precision_report(model);
  j["precision"] = precision_name(precision.used);  // what ran; "precision_requested" what was asked
  j["precision_requested"] = precision_name(precision.requested);
  j["precision_emulated"] = precision.emulated;
  j["precision_note"] = precision.why;
  j["cpu_native_bfloat16"] = precision.cpu_native_bfloat16;
  for (const char* name : {"GOMP_SPINCOUNT", "OMP_WAIT_POLICY"}) {  // how the team waits (tools/omp_waiting.cc)
    const char* value = std::getenv(name);
    j["omp_waiting"][name] = value ? nlohmann::json(value) : nlohmann::json();
  }
  j["disabled_passes"] = o.disabled_passes;
  j["disabled_kernels"] = o.disabled_kernels;
  const PreparedWeightTotals prepared = prepared_weight_totals();
  j["prepared_weights"] = {{"made", prepared.made}, {"made_mb", double(prepared.made_bytes) / (1 << 20)},
                           {"shared", prepared.shared}, {"shared_mb", double(prepared.shared_bytes) / (1 << 20)}};
  for (size_t i = 0; i < inputs.size(); ++i) j["inputs"][model.inputs()[i].name] = inputs[i].shape();
  if (o.profile) {
    j["steps"] = steps;
    j["profile_run_ms"] = profile_run_ms;
  }
  if (o.json) {
    std::cout << j.dump() << "\n";
    return 0;
  }
  std::cout << std::fixed << std::setprecision(2) << o.model << " (" << o.backend << ", "
            << precision_name(precision.used) << (precision.emulated ? " emulated" : "") << ", " << o.iters
            << " runs)\n"
            << "  median " << at(0.5) << " ms   min " << times.front() << " ms   p90 " << at(0.9) << " ms\n"
            << "  " << double(times.size()) / (timed_ms / 1e3) << " runs/s from " << o.callers << " caller"
            << (o.callers == 1 ? "" : "s") << "\n"
            << "  load " << load_ms << " ms   first run " << first_run_ms << " ms (planning " << plan_ms
            << " ms)   peak RSS " << peak_rss_mb()
            << " MB\n"
            << "  work " << std::setprecision(3) << cost.flop / 1e9 << " GFLOP (" << cost.flop / 1e6 / at(0.5)
            << " GFLOP/s at the median), weights " << std::setprecision(1) << double(cost.weight_bytes) / 1e6
            << " MB\n";
  if (run_threads.size() > 1) {
    std::cout << "  threads per run:";
    for (const auto& [threads, runs] : run_threads) std::cout << " " << threads << " x" << runs;
    std::cout << " (the team adapts to a busy machine; --threads N pins it)\n";
  }
  return 0;
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* sub = add_model_command(app, "bench", "Time a model on random inputs", *o);
  add_shape_options(sub, o->shapes, o->batch, "an input", "", CLI::NonNegativeNumber);
  add_threads_option(sub, o->threads);
  sub->add_option("--iters", o->iters, "Timed runs")->check(CLI::PositiveNumber);
  sub->add_option("--callers", o->callers, "Threads calling run at once on the one model, --iters runs each")
      ->check(CLI::PositiveNumber);
  sub->add_option("--warmup", o->warmup, "Untimed runs after the first")->check(CLI::NonNegativeNumber);
  add_backend_option(sub, o->backend, "Kernels");
  add_precision_option(sub, o->precision);
  sub->add_flag("--json", o->json, "Print one JSON object");
  sub->add_flag("--profile", o->profile, "Also show where the time goes: per op and slowest steps on stderr; with --json, every step");
  add_disable_options(sub, o->disabled_passes, o->disabled_kernels);
  return {sub, [o] { return bench(*o); }};
}

}  // namespace cnnx::tools
