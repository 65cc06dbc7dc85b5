// GridSample (opset 16; torch.nn.functional.grid_sample): output[n, c, h, w] samples X[n, c] (4-D, float32) at
// grid[n, h, w] = (x, y), normalized so that -1 and 1 are the centres of the edge cells (align_corners = 1) or
// their outer edges (0, the default). `mode` bilinear (default; 4 taps), nearest (halves to even, as PyTorch's
// nearbyint) or bicubic (16 taps, A = -0.75); `padding_mode` zeros (taps outside read 0), border (coordinates
// clamped to the edge) or reflection (coordinates reflected at the edges, then clamped). Opset 20's names
// linear and cubic are accepted as the same modes. Output [N, C, H_out, W_out] from grid [N, H_out, W_out, 2].
// Reference kernel only: coordinates in float (as PyTorch and ONNX Runtime), weights and sums in double; tolerance as Resize's
// (ops/resize/resize.h: the same taps and weights).
#pragma once

#include "engine/op.h"

namespace cnnx {

enum class GridSampleMode { bilinear, nearest, bicubic };
enum class GridSamplePadding { zeros, border, reflection };

struct GridSampleParams : OpParams {
  GridSampleMode mode = GridSampleMode::bilinear;
  GridSamplePadding padding = GridSamplePadding::zeros;
  bool align_corners = false;
};

GridSampleParams parse_grid_sample(const Node& node);
std::vector<ValueInfo> infer_grid_sample(const GridSampleParams& p, const std::vector<ValueInfo>& in);
void grid_sample_ref(const GridSampleParams& p, const KernelIO& io);

}  // namespace cnnx
