// Tile: output dim a = input dim a x repeats[a]. Opset 6+: input 1 `repeats` (1-D int64, one per input axis,
// each >= 0). Opset 1-5: inputs `tiles` and `axis` (scalars): the input repeated `tiles` times along `axis`.
// The output is sized from data: infer checks the products for overflow and the tensor limit applies before
// it is allocated (engine/node_eval.cc).
// Reference kernel only: oneDNN 2.6 has no primitive that repeats a tensor. kExact (a copy).
#pragma once

#include "engine/op.h"

namespace cnnx {

struct TileParams : OpParams {
  bool legacy = false;  // opset 1-5: (tiles, axis) inputs
};

TileParams parse_tile(const Node& node);
std::vector<ValueInfo> infer_tile(const TileParams& p, const std::vector<ValueInfo>& in);
void tile_ref(const TileParams& p, const KernelIO& io);
// Per-axis repeats from the op's arguments (repeats, or tiles and axis), and the shape they tile x to.
std::vector<int64_t> tile_repeats(const TileParams& p, int64_t rank, const std::vector<int64_t>& a,
                                  const std::vector<int64_t>& b);
Shape tiled_shape(const Shape& x, const std::vector<int64_t>& reps);

}  // namespace cnnx
