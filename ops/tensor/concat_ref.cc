// Concat: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/tensor/concat.h"

#include <cstring>

namespace cnnx {

void concat_ref(const ConcatParams& p, const KernelIO& io) {
  Tensor& y = *io.out[0];
  const size_t axis = size_t(normalize_axis(p.axis, y.rank(), "axis"));
  const size_t elem = dtype_size(y.dtype());
  const int64_t outer = numel_range(y.shape(), 0, axis);
  const int64_t inner = numel_range(y.shape(), axis + 1, y.shape().size());
  // Bytes of one outer slice of each input, checked against the output's.
  std::vector<size_t> block;
  size_t total = 0;
  for (const Tensor* x : io.in) {
    if (x->dtype() != y.dtype() || x->rank() != y.rank()) fail("input ", to_string(x->shape()),
            " does not match the output ", to_string(y.shape()));
    block.push_back(size_t(x->dim(int64_t(axis)) * inner) * elem);
    if (x->bytes() != size_t(outer) * block.back()) fail("input ", to_string(x->shape()),
            " does not match the output ", to_string(y.shape()), " outside axis ", axis);
    total += block.back();
  }
  if (total != size_t(y.dim(int64_t(axis)) * inner) * elem)
    fail("inputs do not add up to output ", to_string(y.shape()));
  copy_concat_runs(io, block, outer);
}

void copy_concat_runs(const KernelIO& io, const std::vector<size_t>& run_bytes, int64_t outer) {
  std::vector<const char*> src;
  size_t out_bytes = 0;  // per outer index
  for (size_t i = 0; i < io.in.size(); ++i) {
    src.push_back(static_cast<const char*>(io.in[i]->raw()));
    out_bytes += run_bytes[i];
  }
  char* dst = static_cast<char*>(io.out[0]->raw());
#pragma omp parallel for schedule(static)
  for (int64_t o = 0; o < outer; ++o) {
    char* out = dst + size_t(o) * out_bytes;
    for (size_t i = 0; i < src.size(); ++i) {
      if (run_bytes[i]) std::memcpy(out, src[i] + size_t(o) * run_bytes[i], run_bytes[i]);
      out += run_bytes[i];
    }
  }
}

}  // namespace cnnx
