#include "lab/lab_input.h"

#include <cstdint>

namespace cnnx::lab {

void fill_lab_input(Tensor& x) {
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

}  // namespace cnnx::lab
