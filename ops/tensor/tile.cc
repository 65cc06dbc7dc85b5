// Tile (opset 1+), any element type.
#include "ops/tensor/tile.h"

#include "ops/tensor/common.h"

namespace cnnx {

TileParams parse_tile(const Node& node) {
  TileParams p;
  p.legacy = node.opset < 6;
  require_inputs(node, p.legacy ? 3 : 2, p.legacy ? 3 : 2);
  require_outputs(node, 1, 1);
  node.attrs.allow_only({});
  return p;
}

namespace {

// Per-axis repeats from the op's arguments (repeats, or tiles and axis).
std::vector<int64_t> repeats_of(const TileParams& p, int64_t rank, const std::vector<int64_t>& a,
                                const std::vector<int64_t>& b) {
  std::vector<int64_t> reps(size_t(rank), 1);
  if (p.legacy) {
    require(a.size() == 1 && b.size() == 1, "inputs 1 (tiles) and 2 (axis) must be scalars");
    reps[size_t(normalize_axis(b[0], rank, "axis"))] = a[0];
  } else {
    require(int64_t(a.size()) == rank, "input 1 (repeats) ", list_string(a), " must have one entry per input axis (",
            rank, ")");
    reps = a;
  }
  for (int64_t r : reps) require(r >= 0, "repeats ", list_string(reps), " has a negative entry");
  return reps;
}

Shape tiled(const Shape& x, const std::vector<int64_t>& reps) {
  Shape out(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    out[i] = x[i] < 0 ? (reps[i] == 0 ? 0 : kUnknownDim) : checked_mul(x[i], reps[i], "tiled dim");
  if (is_concrete(out)) checked_numel(out);
  return out;
}

}  // namespace

std::vector<ValueInfo> infer_tile(const TileParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  std::vector<int64_t> a, b;
  bool known = true;
  for (size_t i = 1; i < (p.legacy ? 3u : 2u); ++i) {
    require_dtype(in, i, {DType::i64}, "input");
    known = constant_ints(in, i, i == 1 ? a : b) && known;
  }
  if (!known) return {unknown_dims(x.dtype, x.rank())};
  return {ValueInfo::of(x.dtype, tiled(x.shape, repeats_of(p, x.rank(), a, b)))};
}

void tile_ref(const TileParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& y = *io.out[0];
  const std::vector<int64_t> a = ints_of(io.in[1], "repeats");
  const std::vector<int64_t> b = p.legacy ? ints_of(io.in[2], "axis") : std::vector<int64_t>{};
  const Shape out = tiled(x.shape(), repeats_of(p, x.rank(), a, b));
  if (out != y.shape()) fail("output shape ", to_string(y.shape()), " does not match ", to_string(out));
  const int64_t n = y.numel();
  if (n == 0) return;
  const size_t rank = out.size();
  const std::vector<int64_t> xs = strides_of(x.shape());
  std::vector<int64_t> idx(rank, 0), src(rank, 0);  // output index and its input index (idx % dim)
  visit_bits(x.dtype(), [&](auto bits) {
    using U = decltype(bits);
    const U* s = static_cast<const U*>(x.raw());
    U* d = static_cast<U*>(y.raw());
    int64_t off = 0;
    for (int64_t k = 0; k < n; ++k) {
      d[k] = s[off];
      for (size_t ax = rank; ax-- > 0;) {
        if (++idx[ax] < out[ax]) {
          if (++src[ax] == x.dim(int64_t(ax))) {
            src[ax] = 0;
            off -= xs[ax] * (x.dim(int64_t(ax)) - 1);
          } else {
            off += xs[ax];
          }
          break;
        }
        off -= xs[ax] * src[ax];
        idx[ax] = 0;
        src[ax] = 0;
      }
    }
  });
}

}  // namespace cnnx
