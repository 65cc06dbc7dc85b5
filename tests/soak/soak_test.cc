// Soak and concurrency test: heavy use of one model must give the same bits every time and must not grow.
//
//   cnnx_soak threads MODEL [--threads 8] [--seconds 3 | --runs N] [--omp-threads 1] [--backend dnnl|ref]
//                           [--rss-slack-mb 8]
//       One loaded model run from --threads threads until --seconds pass (or --runs runs are done in
//       total). Inputs cycle through three batch sizes (three plans, made concurrently on first use).
//       Every output must equal, bit for bit, the single-threaded result for the same input. The resident
//       set (VmRSS) is measured with all threads paused after a warm-up (a quarter of the time, and at least
//       20 runs per thread) and again at the end; it may grow by at most --rss-slack-mb.
//   cnnx_soak cycles MODEL [--cycles 1000] [--backend dnnl|ref] [--rss-slack-mb 8]
//       Loads, runs (plan made, run, compared with the first cycle's result) and destroys the model
//       --cycles times. Meant for the ASan build, where LeakSanitizer reports anything not freed; in other
//       builds the resident set after the first tenth of the cycles and at the end must also match.
//
// Why a slack: both RSS readings are taken with no run in flight and after malloc_trim(0), so they count
// live memory plus what glibc cannot return (fragments within its per-thread arenas, up to 8 x cores of
// them). That fragmentation settles once every thread has run every input shape but can still move by a
// few MiB between readings; a leak, a cache without bound or per-run growth shows as a rise that keeps
// growing with the run count (the report prints bytes per run), which is what the check is for. Under
// AddressSanitizer the RSS checks are skipped: its quarantine keeps freed memory resident by design, and
// LeakSanitizer does the job instead.
#include <malloc.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "api/cnnx.h"
#include "runtime/plan.h"
#include "engine/sanitizers.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Args {
  std::string mode, model;
  int threads = 8, omp_threads = 1, cycles = 1000;
  double seconds = 3, rss_slack_mb = 8;
  int64_t runs = 0;  // 0: run for --seconds
  cnnx::Backend backend = cnnx::Backend::dnnl;
};

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "cnnx_soak: " << problem << "\n"
            << "usage: cnnx_soak threads MODEL [--threads N] [--seconds S | --runs N] [--omp-threads N]\n"
            << "                 [--backend dnnl|ref] [--rss-slack-mb M]\n"
            << "       cnnx_soak cycles MODEL [--cycles N] [--backend dnnl|ref] [--rss-slack-mb M]\n";
  std::exit(2);
}

Args parse_args(int argc, char** argv) {
  if (argc < 3) usage("missing arguments");
  Args a;
  a.mode = argv[1];
  a.model = argv[2];
  if (a.mode != "threads" && a.mode != "cycles") usage("unknown mode '" + a.mode + "'");
  for (int i = 3; i < argc; i += 2) {
    std::string flag = argv[i];
    if (i + 1 >= argc) usage(flag + " needs a value");
    std::string v = argv[i + 1];
    if (flag == "--threads") a.threads = std::stoi(v);
    else if (flag == "--omp-threads") a.omp_threads = std::stoi(v);
    else if (flag == "--cycles") a.cycles = std::stoi(v);
    else if (flag == "--seconds") a.seconds = std::stod(v);
    else if (flag == "--runs") a.runs = std::stoll(v);
    else if (flag == "--rss-slack-mb") a.rss_slack_mb = std::stod(v);
    else if (flag == "--backend") a.backend = cnnx::parse_backend(v);
    else usage("unknown option " + flag);
  }
  if (a.threads < 1 || a.cycles < 1 || a.seconds <= 0 || a.runs < 0) usage("counts must be positive");
  return a;
}

// Resident set in bytes after giving freed heap memory back to the system, from /proc/self/status.
int64_t rss_bytes() {
  malloc_trim(0);
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6)) * 1024;  // "VmRSS:  1234 kB"
  return -1;
}

double mib(int64_t bytes) { return double(bytes) / (1 << 20); }

// Input sets for the model: float inputs with unknown dims set to `batch`, deterministic values.
std::vector<cnnx::Tensor> make_inputs(const cnnx::Model& model, int64_t batch, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.f, 1.f);
  std::vector<cnnx::Tensor> inputs;
  for (const cnnx::TensorSpec& s : model.inputs()) {
    if (s.dtype != cnnx::DType::f32 || !s.shape_known)
      cnnx::fail("cnnx_soak: input '", s.name, "' must be float32 with a known rank");
    cnnx::Shape shape = s.shape;
    for (int64_t& d : shape) d = d < 0 ? batch : d;
    cnnx::Tensor t(cnnx::DType::f32, shape);
    for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = uniform(rng);
    inputs.push_back(t);
  }
  return inputs;
}

bool same_bits(const std::vector<cnnx::Tensor>& got, const std::vector<cnnx::Tensor>& want) {
  if (got.size() != want.size()) return false;
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i].dtype() != want[i].dtype() || got[i].shape() != want[i].shape() ||
        std::memcmp(got[i].raw(), want[i].raw(), want[i].bytes()) != 0)
      return false;
  return true;
}

// Prints the RSS verdict; true when within the slack (or skipped under ASan).
bool check_rss(int64_t before, int64_t after, int64_t runs_between, double slack_mb, const char* what) {
  std::printf("RSS after warm-up %.1f MiB, at the end %.1f MiB: %+.2f MiB over %lld %s (%+.1f bytes each)\n",
              mib(before), mib(after), mib(after - before), (long long)runs_between, what,
              runs_between ? double(after - before) / double(runs_between) : 0.0);
  if (CNNX_ASAN) {
    std::printf("RSS check skipped: AddressSanitizer's quarantine keeps freed memory resident (LeakSanitizer "
                "checks leaks at exit)\n");
    return true;
  }
  if (mib(after - before) > slack_mb) {
    std::printf("FAIL: RSS grew by %.2f MiB, more than the %.1f MiB allowed\n", mib(after - before), slack_mb);
    return false;
  }
  return true;
}

int soak_threads(const Args& a) {
  cnnx::Options options;
  options.backend = a.backend;
  options.threads = a.omp_threads;
  const cnnx::Model model = cnnx::Model::load(a.model, options);
  std::vector<std::vector<cnnx::Tensor>> inputs, want;
  for (int64_t batch = 1; batch <= 3; ++batch) inputs.push_back(make_inputs(model, batch, unsigned(batch)));
  // The single-threaded results, from a separately loaded model, so the shared one plans under contention.
  const cnnx::Model solo = cnnx::Model::load(a.model, options);
  for (const auto& in : inputs) want.push_back(solo.run(in));

  std::atomic<bool> stop{false}, pause{false};
  std::atomic<int64_t> runs{0}, mismatches{0};
  std::unique_ptr<std::atomic<int64_t>[]> runs_per_thread(new std::atomic<int64_t>[size_t(a.threads)]());
  std::mutex mutex;
  std::condition_variable cv;
  int paused = 0;
  std::string first_error;

  auto worker = [&](int t) {
    try {
      for (size_t k = size_t(t); !stop; ++k) {
        if (pause) {
          std::unique_lock<std::mutex> lock(mutex);
          ++paused;
          cv.notify_all();
          cv.wait(lock, [&] { return !pause; });
          --paused;
        }
        size_t v = k % inputs.size();
        if (!same_bits(model.run(inputs[v]), want[v])) ++mismatches;
        ++runs_per_thread[size_t(t)];
        if (++runs >= a.runs && a.runs > 0) stop = true;
      }
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(mutex);
      if (first_error.empty()) first_error = e.what();
      stop = true;
    }
    std::lock_guard<std::mutex> lock(mutex);  // wakes the main thread if it waits for a pause
    cv.notify_all();
  };

  const auto start = Clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  std::vector<std::thread> pool;
  for (int t = 0; t < a.threads; ++t) pool.emplace_back(worker, t);

  // Warm-up: a quarter of the time (or of the runs), and 20 runs per thread.
  auto warmed_up = [&] {
    for (int t = 0; t < a.threads; ++t)
      if (runs_per_thread[size_t(t)] < 20) return false;
    return a.runs > 0 ? runs >= a.runs / 4 : elapsed() >= a.seconds / 4;
  };
  while (!stop && !warmed_up()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  int64_t rss_warm = -1, runs_warm = 0;
  if (!stop) {
    {
      std::unique_lock<std::mutex> lock(mutex);
      pause = true;
      cv.wait(lock, [&] { return paused == a.threads || stop; });
      rss_warm = rss_bytes();
      runs_warm = runs;
      pause = false;
    }
    cv.notify_all();
  }
  while (!stop && (a.runs > 0 || elapsed() < a.seconds)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  stop = true;
  {
    std::lock_guard<std::mutex> lock(mutex);
    pause = false;
  }
  cv.notify_all();
  for (auto& th : pool) th.join();
  const int64_t rss_end = rss_bytes();

  const std::string per_run = a.omp_threads == 0 ? "all cores" : std::to_string(a.omp_threads) + " OpenMP thread(s)";
  std::printf("%lld runs of %s in %.1f s from %d threads (%s backend, %s per run), %lld mismatched\n",
              (long long)runs.load(), a.model.c_str(), elapsed(), a.threads, cnnx::backend_name(a.backend),
              per_run.c_str(), (long long)mismatches.load());
  if (!first_error.empty()) {
    std::printf("FAIL: a run threw: %s\n", first_error.c_str());
    return 1;
  }
  if (rss_warm < 0) {
    std::printf("FAIL: stopped before the warm-up ended (%lld runs); give more --seconds or --runs\n",
                (long long)runs.load());
    return 1;
  }
  bool ok = check_rss(rss_warm, rss_end, runs - runs_warm, a.rss_slack_mb, "runs");
  if (mismatches > 0) {
    std::printf("FAIL: %lld runs differ from the single-threaded result\n", (long long)mismatches.load());
    ok = false;
  }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

int soak_cycles(const Args& a) {
  cnnx::Options options;
  options.backend = a.backend;
  options.threads = 1;
  std::vector<cnnx::Tensor> inputs, want;
  int64_t rss_warm = -1;
  const int warm_cycles = std::max(1, a.cycles / 10);
  int64_t mismatches = 0;
  const auto start = Clock::now();
  for (int c = 0; c < a.cycles; ++c) {
    if (c == warm_cycles) rss_warm = rss_bytes();
    cnnx::Model model = cnnx::Model::load(a.model, options);
    if (c == 0) inputs = make_inputs(model, 2, 1);
    std::vector<cnnx::Tensor> got = model.run(inputs);
    if (c == 0) want = got;
    else if (!same_bits(got, want)) ++mismatches;
  }
  const int64_t rss_end = rss_bytes();
  std::printf("%d load/run/unload cycles of %s in %.1f s (%s backend), %lld mismatched\n", a.cycles,
              a.model.c_str(), std::chrono::duration<double>(Clock::now() - start).count(),
              cnnx::backend_name(a.backend), (long long)mismatches);
  bool ok = mismatches == 0;
  if (rss_warm >= 0) ok = check_rss(rss_warm, rss_end, a.cycles - warm_cycles, a.rss_slack_mb, "cycles") && ok;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Args a = parse_args(argc, argv);
    return a.mode == "threads" ? soak_threads(a) : soak_cycles(a);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cnnx_soak: error: %s\n", e.what());
    return 1;
  }
}
