// ReverseSequence: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include <cstring>

#include "ops/index/reverse_sequence.h"

namespace cnnx {

void reverse_sequence_ref(const ReverseSequenceParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  const Tensor& lens = *io.in[1];
  const int64_t batch = x.dim(p.batch_axis), time = x.dim(p.time_axis);
  require(lens.numel() == batch, "sequence_lens has ", lens.numel(), " entries; the batch axis has ", batch);
  // One slice is the dims after the first two; (t, b) starts at (t * batch + b) slices in when time is
  // axis 0, (b * time + t) when it is axis 1.
  const size_t slice = x.rank() && x.numel() ? size_t(x.numel() / (batch * time)) * dtype_size(x.dtype()) : 0;
  const char* from = static_cast<const char*>(x.raw());
  char* to = static_cast<char*>(io.out[0]->raw());
  auto at = [&](int64_t t, int64_t b) { return size_t(p.time_axis == 0 ? t * batch + b : b * time + t) * slice; };
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t n = lens.int_at(b);
    require(n >= 0 && n <= time, "sequence_lens[", b, "] is ", n, "; the time axis has ", time);
    for (int64_t t = 0; t < time; ++t) std::memcpy(to + at(t, b), from + at(t < n ? n - 1 - t : t, b), slice);
  }
}

}  // namespace cnnx
