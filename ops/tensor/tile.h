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

}  // namespace cnnx
