#include "lab/read_probe.h"

#include <omp.h>

#include <chrono>
#include <cstdint>

namespace cnnx::lab {

namespace {

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

}  // namespace

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
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  sink += total;
  return ms;
}

}  // namespace cnnx::lab
