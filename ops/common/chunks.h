// Elementwise work split over the calling thread's OpenMP team.
#pragma once

#include <algorithm>
#include <cstdint>

namespace cnnx {

// Calls f(begin, count) for consecutive chunks of [0, n), in parallel unless `parallel` is false. A chunk is
// 16384 elements (64 KiB of float32): long enough to pay for a task, short enough to share a small tensor.
template <class F>
void for_each_chunk(int64_t n, F f, bool parallel = true) {
  constexpr int64_t kChunk = 16384;
#pragma omp parallel for schedule(static) if (parallel)
  for (int64_t begin = 0; begin < n; begin += kChunk) f(begin, std::min(kChunk, n - begin));
}

}  // namespace cnnx
