// The machine's limits for float32 inference, measured, so a model's time can be set against them
// (bench/zoo.sh; issue 18: compute-bound models at >= 90% of the FMA peak, memory-bound ones at >= 90% of the
// read bandwidth). Prints one JSON object:
//
//   {"isa": "avx512f", "threads": [1, 2], "fma_gflops": {"1": ..., "2": ...}, "read_gbps": {"1": ..., "2": ...},
//    "buffer_mb": 1024, "reps": 5}
//
// fma_gflops: float32 FMAs (2 FLOP each) per second with every thread running an unrolled loop of
// independent fused multiply-adds on registers (more accumulators than FMA latency x FMA ports on any x86
// core, so the loop is bound by the ports, not by the latency, and few enough to stay in registers with the
// two constants: 16 of AVX-512's 32, 12 of AVX2's 16; with 16, AVX2 spilled to memory and measured 54 GFLOP/s
// on a 2-core EPYC where 2 FMA ports x 8 lanes x 2 FLOP at ~3 GHz is ~190). AVX-512 where the CPU has it (on
// cores that split a 512-bit FMA in two, as Zen 4 does, this is still their peak), else AVX2 + FMA.
// read_gbps: bytes per second summed by all threads over one buffer far larger than the caches, each thread
// its own contiguous part (first touched by that thread), 4 independent vector sums per thread.
// Each figure is the best of `reps` repetitions: on a shared machine the best is the nearest to the limit.
//
// Usage: cnnx_machine_limits [--threads N,...] [--buffer-mb MB] [--reps R]   (default threads: 1 and all cores)
#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int64_t kFmaIters = 20'000'000;  // per thread and repetition: 20M x 16 FMAs x 16 lanes ~ 0.2 s
constexpr int kAvx512Accumulators = 16, kAvx2Accumulators = 12;

// Runs body(t) on `threads` threads started together; returns the wall time in seconds from the start signal
// to the last one finishing.
double timed_on_threads(int threads, const std::function<void(int)>& body) {
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) {
      }
      body(t);
    });
  while (ready.load() < threads) {
  }
  const auto start = std::chrono::steady_clock::now();
  go.store(true, std::memory_order_release);
  for (std::thread& th : pool) th.join();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// (_mm512_reduce_add_ps would do, but GCC 12 warns about its own header there.)
__attribute__((target("avx512f"))) float sum_lanes_avx512(__m512 v) {
  float lanes[16];
  _mm512_storeu_ps(lanes, v);
  float sum = 0;
  for (float x : lanes) sum += x;
  return sum;
}

__attribute__((target("avx2"))) float sum_lanes_avx2(__m256 v) {
  float lanes[8];
  _mm256_storeu_ps(lanes, v);
  float sum = 0;
  for (float x : lanes) sum += x;
  return sum;
}

// acc = acc * m + a on 16 independent registers; m < 1, so the values settle at a / (1 - m), never denormal.
__attribute__((target("avx512f"))) float fma_loop_avx512(int64_t iters) {
  __m512 acc[kAvx512Accumulators];
  for (__m512& r : acc) r = _mm512_set1_ps(1.f);
  const __m512 m = _mm512_set1_ps(0.999999f), a = _mm512_set1_ps(1e-6f);
  for (int64_t i = 0; i < iters; ++i)
    for (__m512& r : acc) r = _mm512_fmadd_ps(r, m, a);
  __m512 s = acc[0];
  for (int k = 1; k < 16; ++k) s = _mm512_add_ps(s, acc[k]);
  return sum_lanes_avx512(s);
}

__attribute__((target("avx2,fma"))) float fma_loop_avx2(int64_t iters) {
  __m256 acc[kAvx2Accumulators];
  for (__m256& r : acc) r = _mm256_set1_ps(1.f);
  const __m256 m = _mm256_set1_ps(0.999999f), a = _mm256_set1_ps(1e-6f);
  for (int64_t i = 0; i < iters; ++i)
    for (__m256& r : acc) r = _mm256_fmadd_ps(r, m, a);
  __m256 s = acc[0];
  for (int k = 1; k < kAvx2Accumulators; ++k) s = _mm256_add_ps(s, acc[k]);
  return sum_lanes_avx2(s);
}

__attribute__((target("avx512f"))) float read_sum_avx512(const float* p, size_t n) {
  __m512 s0 = _mm512_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    s0 = _mm512_add_ps(s0, _mm512_load_ps(p + i));
    s1 = _mm512_add_ps(s1, _mm512_load_ps(p + i + 16));
    s2 = _mm512_add_ps(s2, _mm512_load_ps(p + i + 32));
    s3 = _mm512_add_ps(s3, _mm512_load_ps(p + i + 48));
  }
  float sum = sum_lanes_avx512(_mm512_add_ps(_mm512_add_ps(s0, s1), _mm512_add_ps(s2, s3)));
  for (; i < n; ++i) sum += p[i];
  return sum;
}

__attribute__((target("avx2"))) float read_sum_avx2(const float* p, size_t n) {
  __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    s0 = _mm256_add_ps(s0, _mm256_load_ps(p + i));
    s1 = _mm256_add_ps(s1, _mm256_load_ps(p + i + 8));
    s2 = _mm256_add_ps(s2, _mm256_load_ps(p + i + 16));
    s3 = _mm256_add_ps(s3, _mm256_load_ps(p + i + 24));
  }
  float sum = sum_lanes_avx2(_mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3)));
  for (; i < n; ++i) sum += p[i];
  return sum;
}

struct Args {
  std::vector<int> threads;
  size_t buffer_mb = 1024;
  int reps = 5;
};

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    if (arg == "--threads" && value) {
      for (const char* s = value; *s;) {
        a.threads.push_back(std::max(1, std::atoi(s)));
        s = std::strchr(s, ',');
        if (!s) break;
        ++s;
      }
      ++i;
    } else if (arg == "--buffer-mb" && value) {
      a.buffer_mb = size_t(std::max(1, std::atoi(value)));
      ++i;
    } else if (arg == "--reps" && value) {
      a.reps = std::max(1, std::atoi(value));
      ++i;
    } else {
      std::fprintf(stderr, "usage: %s [--threads N,...] [--buffer-mb MB] [--reps R]\n", argv[0]);
      std::exit(2);
    }
  }
  if (a.threads.empty()) {
    const int all = int(std::max(1u, std::thread::hardware_concurrency()));
    a.threads = all > 1 ? std::vector<int>{1, all} : std::vector<int>{1};
  }
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse_args(argc, argv);
  const bool avx512 = __builtin_cpu_supports("avx512f");
  if (!avx512 && !(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))) {
    std::fprintf(stderr, "cnnx_machine_limits: needs AVX2 + FMA or AVX-512\n");
    return 1;
  }
  const int lanes = avx512 ? 16 : 8;

  // One buffer, each thread count splitting it into contiguous parts; every page touched once before timing.
  const size_t n = args.buffer_mb * (size_t(1) << 20) / sizeof(float);
  float* buffer = static_cast<float*>(std::aligned_alloc(64, n * sizeof(float)));
  if (!buffer) {
    std::fprintf(stderr, "cnnx_machine_limits: cannot allocate %zu MB\n", args.buffer_mb);
    return 1;
  }
  const int widest = *std::max_element(args.threads.begin(), args.threads.end());
  timed_on_threads(widest, [&](int t) {
    const size_t begin = n * size_t(t) / size_t(widest), end = n * size_t(t + 1) / size_t(widest);
    for (size_t i = begin; i < end; ++i) buffer[i] = float(i & 1023) * 1e-3f;
  });

  std::atomic<float> sink{0};  // every sum is stored here, so none can be dropped
  std::string fma_json, read_json, threads_json;
  for (int threads : args.threads) {
    double fma_best = 0, read_best = 0;
    for (int rep = 0; rep < args.reps; ++rep) {
      const double s = timed_on_threads(threads, [&](int) {
        sink.store(avx512 ? fma_loop_avx512(kFmaIters) : fma_loop_avx2(kFmaIters), std::memory_order_relaxed);
      });
      const int accumulators = avx512 ? kAvx512Accumulators : kAvx2Accumulators;
      fma_best = std::max(fma_best, double(threads) * double(kFmaIters) * accumulators * lanes * 2 / s / 1e9);
      const double r = timed_on_threads(threads, [&](int t) {
        // Parts of 64-float multiples, so every part starts 64-byte aligned.
        const size_t blocks = n / 64;
        const size_t begin = blocks * size_t(t) / size_t(threads) * 64, end = blocks * size_t(t + 1) / size_t(threads) * 64;
        const float* p = buffer + begin;
        sink.store(avx512 ? read_sum_avx512(p, end - begin) : read_sum_avx2(p, end - begin), std::memory_order_relaxed);
      });
      read_best = std::max(read_best, double(n / 64 * 64 * sizeof(float)) / r / 1e9);
    }
    const std::string key = "\"" + std::to_string(threads) + "\": ";
    char num[64];
    std::snprintf(num, sizeof num, "%.1f", fma_best);
    fma_json += (fma_json.empty() ? "" : ", ") + key + num;
    std::snprintf(num, sizeof num, "%.2f", read_best);
    read_json += (read_json.empty() ? "" : ", ") + key + num;
    threads_json += (threads_json.empty() ? "" : ", ") + std::to_string(threads);
  }
  std::free(buffer);
  std::printf("{\"isa\": \"%s\", \"threads\": [%s], \"fma_gflops\": {%s}, \"read_gbps\": {%s}, \"buffer_mb\": %zu, "
              "\"reps\": %d}\n",
              avx512 ? "avx512f" : "avx2", threads_json.c_str(), fma_json.c_str(), read_json.c_str(), args.buffer_mb,
              args.reps);
  return 0;
}
