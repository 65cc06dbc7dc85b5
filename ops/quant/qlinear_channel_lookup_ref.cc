// cnnx.internal QLinearChannelLookup: the reference kernel (per input, per image and channel, each element
// through its channel's row).
#include "ops/quant/qlinear_channel_lookup.h"

namespace cnnx {

void qlinear_channel_lookup_ref(const NoParams&, const KernelIO& io) {
  const uint8_t* table = static_cast<const uint8_t*>(io.in[0]->raw());
  const int64_t rows = io.in[0]->shape()[0];
  Tensor& Y = *io.out[0];
  uint8_t* y = static_cast<uint8_t*>(Y.raw());
  const Shape& ys = Y.shape();
  const int64_t N = ys[0], C = ys[1], inner = numel_range(ys, 2, ys.size());
  require(C == rows, "the table has ", rows, " rows for ", C, " channels");
  int64_t c0 = 0;  // the current input's first channel in y
  for (size_t i = 1; i < io.in.size(); ++i) {
    const uint8_t* x = static_cast<const uint8_t*>(io.in[i]->raw());
    const int64_t Ci = io.in[i]->shape()[1];
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < Ci; ++c) {
        const uint8_t* row = table + (c0 + c) * 256;
        for (int64_t s = 0; s < inner; ++s) y[(n * C + c0 + c) * inner + s] = row[x[(n * Ci + c) * inner + s]];
      }
    c0 += Ci;
  }
}

}  // namespace cnnx
