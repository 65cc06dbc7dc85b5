// swish_in_place (ops/conv/swish.h), the Swish that FusedConv's oneDNN kernel runs after the convolution:
// against x / (1 + exp(-x)) in double, over a dense sweep of the float range that matters, the special
// values, and lengths that end mid-vector or take the parallel path.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "engine/float16.h"
#include "ops/conv/swish.h"

using namespace cnnx;

namespace {

double swish(double x) { return x / (1 + std::exp(-x)); }

// The bound swish.h promises: 3e-7 relative for x >= -87, plus half the smallest denormal (a denormal result
// can be no closer); below -87, where the true value is under 1.5e-36, the result is -0.
bool within_promise(float x, float got) {
  const double want = swish(double(x));
  if (x < -87) return got == 0 && std::signbit(got) && std::abs(want) < 1.5e-36;
  return std::abs(double(got) - want) <= 3e-7 * std::abs(want) + double(std::numeric_limits<float>::denorm_min()) / 2;
}

}  // namespace

TEST_CASE("swish_in_place is within 3e-7 relative of x * sigmoid(x) from -100 to 100") {
  // Every 1/4096 from -100 to 100, then the same again shifted by a third of the step (not on a grid the
  // polynomial's reduction might favour): 1.6M values, through the parallel path.
  std::vector<float> x;
  for (int shift = 0; shift < 2; ++shift)
    for (int64_t i = -409600; i <= 409600; ++i) x.push_back(float((double(i) + shift / 3.0) / 4096));
  std::vector<float> y = x;
  swish_in_place(y.data(), int64_t(y.size()));
  int64_t bad = 0;
  for (size_t i = 0; i < x.size(); ++i)
    if (!within_promise(x[i], y[i])) {
      if (++bad <= 5) {
        CAPTURE(x[i]);
        CAPTURE(y[i]);
        CAPTURE(swish(double(x[i])));
        CHECK(within_promise(x[i], y[i]));
      }
    }
  CHECK(bad == 0);
}

TEST_CASE("swish_in_place: special values, tiny values, and every tail length") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const float denormal = std::numeric_limits<float>::denorm_min();
  const std::vector<float> values = {0.f, -0.f, 1e-30f, -1e-30f, 1000 * denormal, -1001 * denormal, 86.9f, -86.9f,
                                     87.f, -87.f, 87.5f, -87.5f, 1e30f, -1e30f, 3.4e38f, -3.4e38f, inf, -inf, nan,
                                     17.f, -17.f, -16.6367397f};
  const float sentinel = 12345.f;  // around the window: a write past either end shows (ASan does not see
                                   // masked AVX-512 stores)
  // Each length from 1 to 40 (every tail of a 16-float vector), each starting at each value.
  for (size_t n = 1; n <= 40; ++n)
    for (size_t start = 0; start < values.size(); ++start) {
      std::vector<float> x(n);
      for (size_t i = 0; i < n; ++i) x[i] = values[(start + i) % values.size()];
      std::vector<float> padded(n + 32, sentinel);
      std::copy(x.begin(), x.end(), padded.begin() + 16);
      swish_in_place(padded.data() + 16, int64_t(n));
      const std::vector<float> y(padded.begin() + 16, padded.begin() + 16 + int64_t(n));
      for (size_t i = 0; i < 16; ++i) {
        CAPTURE(n);
        CAPTURE(i);
        CHECK(padded[i] == sentinel);
        CHECK(padded[16 + n + i] == sentinel);
      }
      for (size_t i = 0; i < n; ++i) {
        CAPTURE(n);
        CAPTURE(i);
        CAPTURE(x[i]);
        CAPTURE(y[i]);
        if (std::isnan(x[i]) || x[i] == -inf) CHECK(std::isnan(y[i]));  // -inf * sigmoid(-inf) = -inf * 0
        else if (x[i] == inf) CHECK(y[i] == inf);
        else CHECK(within_promise(x[i], y[i]));
      }
    }
}

TEST_CASE("swish_round_to_float16_in_place is swish_in_place, then the rounding to float16, in one sweep") {
  // Past float16's range (65504; 65520 rounds to inf), its subnormals, ties, specials; lengths across the
  // 1024-float blocks, the vector tail, and the parallel path.
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> specials = {0.f, -0.f, 1.f + 0x1p-11f, 1.f + 0x3p-11f, 65504.f, 65519.f, 65520.f,
                                       -65520.f, 0x1p-24f, 0x1p-25f, 0x3p-25f, 1e-30f, 87.5f, -87.5f, inf, -inf, nan};
  for (const size_t n : {size_t(1), size_t(7), size_t(1023), size_t(1025), size_t(40000)})
    for (const bool swish : {false, true}) {
      std::vector<float> x(n);
      for (size_t i = 0; i < n; ++i)
        x[i] = i < specials.size() ? specials[i] : float((double(i) - double(n) / 2) * 70000 / double(n));
      std::vector<float> want = x, got = x;
      if (swish) swish_in_place(want.data(), int64_t(n));
      for (float& v : want) v = float16_to_float(float_to_float16(v));
      swish_round_to_float16_in_place(got.data(), int64_t(n), swish);
      for (size_t i = 0; i < n; ++i) {
        CAPTURE(n);
        CAPTURE(swish);
        CAPTURE(i);
        CAPTURE(x[i]);
        CHECK((std::isnan(want[i]) ? std::isnan(got[i]) : got[i] == want[i]));
      }
    }
}
