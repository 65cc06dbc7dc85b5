// Runs and times every spelling of global average pooling (lab/gap_variants.h) on one seeded input: each on
// every backend asked for, with the global-average-pool pass off and then on, checked against a float64 mean
// and timed between reads of the same input (lab/read_probe.h). `cnnx pool gap` prints what this returns.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "api/cnnx.h"

namespace cnnx::lab {

struct GapBenchSettings {
  Shape shape;                    // [N, C, D1..Dk], k = 1 to 3, every dim >= 1 (the caller checks it fits memory)
  std::vector<Backend> backends;  // in the order to run
  int iters = 5;                  // timed runs per spelling, backend and pass setting (>= 1)
  int threads = 0;                // OpenMP threads for everything after this call; 0 keeps OpenMP's default
};

// One spelling on one backend with the pass off or on. When planning or running threw, `error` holds the
// message and the numbers are 0.
struct GapRun {
  std::string spelling, backend, kernels;  // kernels: "op:kernel" per plan step, space-separated ("reorder")
  bool pass = false;                       // the global-average-pool pass was on
  double max_abs = 0, max_rel = 0;         // against the float64 mean of every (n, c) plane
  double median_ms = 0, min_ms = 0;        // of `iters` runs after one untimed run (the one checked)
  double probe_ms = 0;                     // median of the read probes taken just before each timed run
  std::string error;
};

struct GapBenchResult {
  int threads = 0;        // OpenMP threads the runs had
  int64_t bytes = 0;      // of the input
  double floor_ms = 0;    // median of every read probe of the whole bench: the read floor
  std::vector<GapRun> runs;  // spellings in gap_variants order; per spelling, backends in order, pass off, on
};

// Sets the thread count, fills the input (lab/lab_input.h), then plans, checks and times every run in the order
// of GapBenchResult::runs, calling `on_run` (when set) after each. Errors of a single run are kept in its
// GapRun; a spelling whose graph does not build throws cnnx::Error.
GapBenchResult run_gap_bench(const GapBenchSettings& s, const std::function<void(const GapRun&)>& on_run = {});

}  // namespace cnnx::lab
