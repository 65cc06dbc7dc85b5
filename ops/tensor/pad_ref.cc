// Pad: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/tensor/pad.h"

#include <algorithm>
#include <cstring>

#include "ops/cast/cast.h"
#include "ops/common/data_movement.h"

namespace cnnx {

namespace {

// For each output index along one axis, the input index it copies, or -1 for the constant.
std::vector<int64_t> source_indices(PadMode mode, int64_t dim, int64_t begin, int64_t end) {
  const int64_t crop_begin = std::max<int64_t>(0, -begin), crop_end = std::max<int64_t>(0, -end);
  const int64_t pad_begin = std::max<int64_t>(0, begin);
  const int64_t out = dim + begin + end;
  const int64_t kept = dim - crop_begin - crop_end;
  std::vector<int64_t> src(size_t(out), -1);
  if (kept <= 0) return src;  // cropped away: constant mode only (resolve_pad checked)
  for (int64_t o = 0; o < out; ++o) {
    int64_t r = o - pad_begin;  // position in the cropped input
    if (r < 0 || r >= kept) {
      switch (mode) {
        case PadMode::constant: continue;
        case PadMode::edge: r = std::min(std::max<int64_t>(r, 0), kept - 1); break;
        case PadMode::wrap: r = ((r % kept) + kept) % kept; break;
        case PadMode::reflect: {
          const int64_t period = 2 * (kept - 1);  // kept >= 2 here
          r = ((r % period) + period) % period;
          if (r >= kept) r = period - r;
          break;
        }
      }
    }
    src[size_t(o)] = crop_begin + r;
  }
  return src;
}

}  // namespace

void pad_ref(const PadParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& y = *io.out[0];
  auto has = [&](size_t i) { return i < io.in.size() && io.in[i] != nullptr; };
  // The constant as one element of the data's type.
  Tensor value(x.dtype(), {});
  PadGeometry g;
  if (p.from_inputs) {
    const std::vector<int64_t> axes = ints_of(has(3) ? io.in[3] : nullptr, "axes");
    g = resolve_pad(p.mode, x.shape(), ints_of(io.in[1], "pads"), has(3) ? &axes : nullptr);
    if (has(2)) {
      require(io.in[2]->dtype() == x.dtype() && io.in[2]->numel() == 1, "constant_value must be one ",
              dtype_name(x.dtype()));
      std::memcpy(value.raw(), io.in[2]->raw(), value.bytes());
    }
  } else {
    g = resolve_pad(p.mode, x.shape(), p.pads, nullptr);
    visit_dtype(x.dtype(), [&](auto t) {
      using T = decltype(t);
      *static_cast<T*>(value.raw()) = cast_value<T>(p.value);
    });
  }
  if (g.out != y.shape()) fail("output shape ", to_string(y.shape()), " does not match ", to_string(g.out));
  const size_t rank = g.out.size();
  std::vector<std::vector<int64_t>> src(rank);
  for (size_t a = 0; a < rank; ++a) src[a] = source_indices(p.mode, x.dim(int64_t(a)), g.begin[a], g.end[a]);
  const std::vector<int64_t> x_strides = strides_of(x.shape());
  const int64_t n = y.numel();
  visit_bits(x.dtype(), [&](auto bits) {
    using U = decltype(bits);
    const U* s = static_cast<const U*>(x.raw());
    U* d = static_cast<U*>(y.raw());
    const U fill = *static_cast<const U*>(value.raw());
    std::vector<int64_t> idx(rank, 0);
    for (int64_t k = 0; k < n; ++k) {
      int64_t off = 0;
      bool inside = true;
      for (size_t a = 0; a < rank && inside; ++a) {
        const int64_t i = src[a][size_t(idx[a])];
        inside = i >= 0;
        off += i * x_strides[a];
      }
      d[k] = inside ? s[off] : fill;
      for (size_t a = rank; a-- > 0;) {
        if (++idx[a] < g.out[a]) break;
        idx[a] = 0;
      }
    }
  });
}

}  // namespace cnnx
