// Tile (opset 1+), any element type.
#include "ops/tensor/tile.h"

#include "ops/common/data_movement.h"

namespace cnnx {

TileParams parse_tile(const Node& node) {
  TileParams p;
  p.legacy = node.opset < 6;
  check_node(node, p.legacy ? 3 : 2, p.legacy ? 3 : 2, {});
  return p;
}

Shape tiled_shape(const Shape& x, const std::vector<int64_t>& reps) {
  Shape out(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    out[i] = x[i] < 0 ? (reps[i] == 0 ? 0 : kUnknownDim) : checked_mul(x[i], reps[i], "tiled dim");
  if (is_concrete(out)) checked_numel(out);
  return out;
}

// Per-axis repeats from the op's arguments (repeats, or tiles and axis).
std::vector<int64_t> tile_repeats(const TileParams& p, int64_t rank, const std::vector<int64_t>& a,
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

std::vector<ValueInfo> infer_tile(const TileParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  std::vector<int64_t> a, b;
  bool known = true;
  for (size_t i = 1; i < (p.legacy ? 3u : 2u); ++i) {
    require_dtype(in, i, {DType::i64}, "input");
    known = constant_ints(in, i, i == 1 ? a : b) && known;
  }
  if (!known) return {unknown_dims(x.dtype, x.rank())};
  return {ValueInfo::of(x.dtype, tiled_shape(x.shape, tile_repeats(p, x.rank(), a, b)))};
}

}  // namespace cnnx
