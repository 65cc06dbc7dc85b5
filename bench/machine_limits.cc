// The machine's limits for float32 inference, measured, so a model's time can be set against them
// (bench/zoo.sh; issue 18: compute-bound models at >= 90% of the FMA peak, memory-bound ones at >= 90% of the
// read bandwidth), and the int8 and bfloat16 peaks where the CPU has instructions for them. Prints one JSON
// object:
//
//   {"isa": "avx2", "threads": [1, 2], "fma_gflops": {"1": ..., "2": ...}, "clock_ghz": ..., "fma_per_cycle": ...,
//    "int8": {"via": "vpmaddubsw+vpmaddwd+vpaddd (avx2)", "gops": {"1": ..., "2": ...}},
//    "bf16": {"declined": "..."}, "read_gbps": {"1": ..., "2": ...}, "buffer_mb": 1024, "reps": 5}
//
// fma_gflops: float32 FMAs (2 FLOP each) per second with every thread running an unrolled loop of
// independent fused multiply-adds on registers (more accumulators than FMA latency x FMA ports on any x86
// core, so the loop is bound by the ports, not by the latency, and few enough to stay in registers with the
// two constants: 16 of AVX-512's 32, 12 of AVX2's 16; with 16, AVX2 spilled to memory and measured 54 GFLOP/s
// on a 2-core EPYC where 2 FMA ports x 8 lanes x 2 FLOP at ~3 GHz is ~190). AVX-512 where the CPU has it (on
// cores that split a 512-bit FMA in two, as Zen 4 does, this is still their peak), else AVX2 + FMA.
// clock_ghz: one thread's cycles per second, from a chain of dependent integer adds (1 cycle each on every x86
// core since the P6); fma_per_cycle = fma_gflops at 1 thread / (clock_ghz x lanes x 2): the vector FMAs a core
// retires per cycle, the known count to check the peak against. 256-bit: 2 on Zen 1-3 and Intel cores since
// Haswell. 512-bit: 2 on Zen 5 and Intel cores with two 512-bit FMA units; 1 on Zen 4 (each 512-bit FMA takes
// both of its 256-bit FMA pipes: the same 32 FLOP per cycle as AVX2) and on Intel cores with one such unit.
// The core loops (FMA, int8, bf16, clock) are timed in each thread's CPU time, so other processes sharing the
// cores lower them little; the read bandwidth by the wall clock.
// int8: multiply-adds of unsigned by signed bytes into int32 (2 ops each) per second, as int8 convolutions do
// them: VNNI's vpdpbusd where the CPU has it (AVX512_VNNI on 512-bit registers, else AVX-VNNI on 256-bit),
// else vpmaddubsw + vpmaddwd + vpaddd (AVX512BW, else AVX2); the same accumulator counts as the FMA loop.
// bf16: bfloat16 pair dot products into float32 (vdpbf16ps, AVX512_BF16: 2 FLOP per multiply-add), or
// "declined" with the reason where the CPU has no such instruction (bfloat16 then runs converted to float32,
// at fma_gflops at best). AMX tiles are not measured.
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
#include <ctime>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int64_t kFmaIters = 20'000'000;  // per thread and repetition: 20M x 16 FMAs x 16 lanes ~ 0.2 s
constexpr int kAvx512Accumulators = 16, kAvx2Accumulators = 12;

// The seconds one run of body(t) on `threads` threads took: wall, from the start signal to the last thread
// finishing, and each thread's CPU time (CLOCK_THREAD_CPUTIME_ID: it stops while the thread is descheduled).
struct Timing {
  double wall = 0;
  std::vector<double> cpu;
};

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// Runs body(t) on `threads` threads started together.
Timing timed_on_threads(int threads, const std::function<void(int)>& body) {
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  Timing timing;
  timing.cpu.resize(size_t(threads));
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) {
      }
      const double start = thread_cpu_seconds();
      body(t);
      timing.cpu[size_t(t)] = thread_cpu_seconds() - start;
    });
  while (ready.load() < threads) {
  }
  const auto start = std::chrono::steady_clock::now();
  go.store(true, std::memory_order_release);
  for (std::thread& th : pool) th.join();
  timing.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return timing;
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

// Lane 0 of an int32 vector (_mm512_castsi512_si128: GCC 12 warns about its own header there).
__attribute__((target("avx512f"))) int32_t first_lane_avx512(__m512i v) {
  int32_t lanes[16];
  _mm512_storeu_si512(lanes, v);
  return lanes[0];
}

__attribute__((target("avx2"))) int32_t first_lane_avx2(__m256i v) {
  int32_t lanes[8];
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(lanes), v);
  return lanes[0];
}

// int8 multiply-adds: every 32-bit lane of an accumulator adds the products of 4 unsigned bytes of `a` and 4
// signed bytes of `b`. The accumulators only grow by wrapping: no value makes any instruction slower.
__attribute__((target("avx512f,avx512vnni"))) int32_t int8_loop_avx512_vnni(int64_t iters) {
  __m512i acc[kAvx512Accumulators];
  for (__m512i& r : acc) r = _mm512_set1_epi32(1);
  const __m512i a = _mm512_set1_epi8(3), b = _mm512_set1_epi8(-5);
  for (int64_t i = 0; i < iters; ++i)
    for (__m512i& r : acc) r = _mm512_dpbusd_epi32(r, a, b);
  __m512i s = acc[0];
  for (int k = 1; k < kAvx512Accumulators; ++k) s = _mm512_add_epi32(s, acc[k]);
  return first_lane_avx512(s);
}

__attribute__((target("avx2,avxvnni"))) int32_t int8_loop_avx_vnni(int64_t iters) {
  __m256i acc[kAvx2Accumulators];
  for (__m256i& r : acc) r = _mm256_set1_epi32(1);
  const __m256i a = _mm256_set1_epi8(3), b = _mm256_set1_epi8(-5);
  for (int64_t i = 0; i < iters; ++i)
    for (__m256i& r : acc) r = _mm256_dpbusd_avx_epi32(r, a, b);
  __m256i s = acc[0];
  for (int k = 1; k < kAvx2Accumulators; ++k) s = _mm256_add_epi32(s, acc[k]);
  return first_lane_avx2(s);
}

// Without VNNI: u8 x s8 pairs summed into int16 (vpmaddubsw), int16 pairs into int32 (vpmaddwd by ones), added
// (vpaddd). The unsigned operand is the accumulator itself: with two constants the compiler would hoist both
// products out of the loop.
__attribute__((target("avx512f,avx512bw"))) int32_t int8_loop_avx512bw(int64_t iters) {
  __m512i acc[kAvx512Accumulators];
  for (__m512i& r : acc) r = _mm512_set1_epi32(1);
  const __m512i b = _mm512_set1_epi8(-5), ones = _mm512_set1_epi16(1);
  for (int64_t i = 0; i < iters; ++i)
    for (__m512i& r : acc) r = _mm512_add_epi32(r, _mm512_madd_epi16(_mm512_maddubs_epi16(r, b), ones));
  __m512i s = acc[0];
  for (int k = 1; k < kAvx512Accumulators; ++k) s = _mm512_add_epi32(s, acc[k]);
  return first_lane_avx512(s);
}

__attribute__((target("avx2"))) int32_t int8_loop_avx2(int64_t iters) {
  __m256i acc[kAvx2Accumulators];
  for (__m256i& r : acc) r = _mm256_set1_epi32(1);
  const __m256i b = _mm256_set1_epi8(-5), ones = _mm256_set1_epi16(1);
  for (int64_t i = 0; i < iters; ++i)
    for (__m256i& r : acc) r = _mm256_add_epi32(r, _mm256_madd_epi16(_mm256_maddubs_epi16(r, b), ones));
  __m256i s = acc[0];
  for (int k = 1; k < kAvx2Accumulators; ++k) s = _mm256_add_epi32(s, acc[k]);
  return first_lane_avx2(s);
}

// bfloat16: each float32 lane adds the products of a pair of bfloat16s (vdpbf16ps): 1 + 2e-8 rounds back to 1,
// so no value ever becomes denormal.
__attribute__((target("avx512f,avx512bf16"))) float bf16_loop_avx512(int64_t iters) {
  __m512 acc[kAvx512Accumulators];
  for (__m512& r : acc) r = _mm512_set1_ps(1.f);
  const __m512bh m = _mm512_cvtne2ps_pbh(_mm512_set1_ps(1e-4f), _mm512_set1_ps(1e-4f));
  for (int64_t i = 0; i < iters; ++i)
    for (__m512& r : acc) r = _mm512_dpbf16_ps(r, m, m);
  __m512 s = acc[0];
  for (int k = 1; k < kAvx512Accumulators; ++k) s = _mm512_add_ps(s, acc[k]);
  return sum_lanes_avx512(s);
}

// The int8 loop this CPU runs best, its name, and the bytes one of its instruction groups multiplies.
struct Int8Loop {
  int32_t (*loop)(int64_t iters);
  const char* via;
  int bytes, accumulators;
};
Int8Loop int8_loop() {
  if (__builtin_cpu_supports("avx512vnni"))
    return {int8_loop_avx512_vnni, "vpdpbusd (avx512_vnni)", 64, kAvx512Accumulators};
  if (__builtin_cpu_supports("avxvnni")) return {int8_loop_avx_vnni, "vpdpbusd (avx_vnni)", 32, kAvx2Accumulators};
  if (__builtin_cpu_supports("avx512bw"))
    return {int8_loop_avx512bw, "vpmaddubsw+vpmaddwd+vpaddd (avx512bw)", 64, kAvx512Accumulators};
  return {int8_loop_avx2, "vpmaddubsw+vpmaddwd+vpaddd (avx2)", 32, kAvx2Accumulators};
}

// One thread's clock in GHz: a chain of dependent register adds, one cycle each, best of `reps`.
double clock_ghz(int reps) {
  constexpr int64_t kIters = 2'000'000;  // x 100 adds: 2e8 cycles, ~0.07 s at 3 GHz
  double best = 0;
  for (int rep = 0; rep < reps; ++rep) {
    uint64_t x = 0;
    const double s = timed_on_threads(1, [&](int) {
      for (int64_t i = 0; i < kIters; ++i) asm volatile(".rept 100\n\tadd $1, %0\n\t.endr" : "+r"(x));
    }).cpu[0];
    best = std::max(best, double(kIters) * 100 / s / 1e9);
  }
  return best;
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

// The best over `reps` of `work` units per thread per second, every one of `threads` threads running `body`.
// In core loops (registers only) each thread's rate is its work over its CPU time, summed over the threads:
// the cores' limit even while other processes take turns on them (wall time on a machine at load average 7
// halved the FMA peak and put the clock, measured apart, at 0.8 GHz). Reads share the memory bus, not only
// cores, so they are timed by the wall clock.
enum class Bound { core, memory };
double best_rate(int threads, int reps, double work, Bound bound, const std::function<void(int)>& body) {
  double best = 0;
  for (int rep = 0; rep < reps; ++rep) {
    const Timing timing = timed_on_threads(threads, body);
    double rate = 0;
    if (bound == Bound::memory) rate = double(threads) * work / timing.wall;
    else
      for (double cpu : timing.cpu) rate += work / cpu;
    best = std::max(best, rate);
  }
  return best;
}

// {"1": v1, "2": v2, ...} of `values` by thread count, each with `digits` decimals.
std::string by_threads(const std::vector<int>& threads, const std::vector<double>& values, int digits) {
  std::string json;
  for (size_t i = 0; i < threads.size(); ++i) {
    char num[64];
    std::snprintf(num, sizeof num, "%.*f", digits, values[i]);
    json += (json.empty() ? "\"" : ", \"") + std::to_string(threads[i]) + "\": " + num;
  }
  return "{" + json + "}";
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse_args(argc, argv);
  const bool avx512 = __builtin_cpu_supports("avx512f");
  if (!avx512 && !(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))) {
    std::fprintf(stderr, "cnnx_machine_limits: needs AVX2 + FMA or AVX-512\n");
    return 1;
  }
  const int lanes = avx512 ? 16 : 8, accumulators = avx512 ? kAvx512Accumulators : kAvx2Accumulators;
  const Int8Loop int8 = int8_loop();
  const bool bf16 = __builtin_cpu_supports("avx512bf16");

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
  std::vector<double> fma, int8_ops, bf16_flop, read;
  for (int threads : args.threads) {
    const auto keep = [&](float v) { sink.store(v, std::memory_order_relaxed); };
    fma.push_back(best_rate(threads, args.reps, double(kFmaIters) * accumulators * lanes * 2 / 1e9, Bound::core,
                            [&](int) { keep(avx512 ? fma_loop_avx512(kFmaIters) : fma_loop_avx2(kFmaIters)); }));
    // 2 ops (a multiply and an add) per byte pair.
    int8_ops.push_back(best_rate(threads, args.reps, double(kFmaIters) * int8.accumulators * int8.bytes * 2 / 1e9,
                                 Bound::core, [&](int) { keep(float(int8.loop(kFmaIters))); }));
    // 2 FLOP per bfloat16 pair's multiply-add, 32 pairs per instruction.
    if (bf16)
      bf16_flop.push_back(best_rate(threads, args.reps, double(kFmaIters) * kAvx512Accumulators * 32 * 2 / 1e9,
                                    Bound::core, [&](int) { keep(bf16_loop_avx512(kFmaIters)); }));
    // Parts of 64-float multiples, so every part starts 64-byte aligned.
    const double bytes_per_thread = double(n / 64 * 64 * sizeof(float)) / threads / 1e9;
    read.push_back(best_rate(threads, args.reps, bytes_per_thread, Bound::memory, [&](int t) {
      const size_t blocks = n / 64;
      const size_t begin = blocks * size_t(t) / size_t(threads) * 64;
      const size_t end = blocks * size_t(t + 1) / size_t(threads) * 64;
      keep(avx512 ? read_sum_avx512(buffer + begin, end - begin) : read_sum_avx2(buffer + begin, end - begin));
    }));
  }
  std::free(buffer);
  const double ghz = clock_ghz(args.reps);
  std::string threads_json;
  for (int threads : args.threads) threads_json += (threads_json.empty() ? "" : ", ") + std::to_string(threads);
  const auto one = std::find(args.threads.begin(), args.threads.end(), 1);
  char per_cycle[32] = "null";
  if (one != args.threads.end())
    std::snprintf(per_cycle, sizeof per_cycle, "%.2f", fma[size_t(one - args.threads.begin())] / (ghz * lanes * 2));
  const std::string bf16_json =
      bf16 ? "{\"via\": \"vdpbf16ps (avx512_bf16)\", \"gflops\": " + by_threads(args.threads, bf16_flop, 1) + "}"
           : "{\"declined\": \"no AVX512_BF16 on this CPU (no vdpbf16ps): bfloat16 runs converted to float32, at the "
             "FMA peak at best\"}";
  std::printf("{\"isa\": \"%s\", \"threads\": [%s], \"fma_gflops\": %s, \"clock_ghz\": %.2f, \"fma_per_cycle\": %s, "
              "\"int8\": {\"via\": \"%s\", \"gops\": %s}, \"bf16\": %s, \"read_gbps\": %s, \"buffer_mb\": %zu, "
              "\"reps\": %d}\n",
              avx512 ? "avx512f" : "avx2", threads_json.c_str(), by_threads(args.threads, fma, 1).c_str(), ghz,
              per_cycle, int8.via, by_threads(args.threads, int8_ops, 1).c_str(), bf16_json.c_str(),
              by_threads(args.threads, read, 2).c_str(), args.buffer_mb, args.reps);
  return 0;
}
