// Concat (opset 1+), any element type.
#include "ops/tensor/concat.h"

#include <cstring>

namespace cnnx {

ConcatParams parse_concat(const Node& node) {
  require(!node.inputs.empty(), "expects at least 1 input, got 0");
  for (size_t i = 0; i < node.inputs.size(); ++i) require(node.inputs[i] >= 0, "input ", i, " is omitted");
  require_outputs(node, 1, 1);
  node.attrs.allow_only({"axis"});
  ConcatParams p;
  p.axis = node.opset >= 4 ? node.attrs.require_int("axis") : node.attrs.get_int("axis", 1);
  return p;
}

std::vector<ValueInfo> infer_concat(const ConcatParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& first = input(in, 0);
  const int64_t rank = first.rank();
  const size_t axis = size_t(normalize_axis(p.axis, rank, "axis"));
  Shape out = first.shape;
  for (size_t i = 1; i < in.size(); ++i) {
    const ValueInfo& x = input(in, i);
    require(x.dtype == first.dtype, "input ", i, " has element type ", dtype_name(x.dtype), " but input 0 has ",
            dtype_name(first.dtype));
    if (x.rank() != rank) fail("input ", i, " has shape ", to_string(x.shape), " but input 0 has ",
            to_string(first.shape), " (ranks differ)");
    for (size_t a = 0; a < size_t(rank); ++a) {
      const int64_t d = x.shape[a];
      if (a == axis) {
        out[a] = out[a] < 0 || d < 0 ? kUnknownDim : checked_add(out[a], d, "concatenated dim");
      } else if (d >= 0) {
        if (out[a] >= 0 && out[a] != d) fail("input ", i, " has shape ", to_string(x.shape),
                ", which differs from the others at axis ", a, " (only axis ", axis, " may differ)");
        out[a] = d;
      }
    }
  }
  return {ValueInfo::of(first.dtype, out)};
}

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

size_t concat_axis(const ConcatParams& p, const std::vector<ValueInfo>& in) {
  return size_t(normalize_axis(p.axis, input(in, 0).rank(), "axis"));
}

}  // namespace cnnx
