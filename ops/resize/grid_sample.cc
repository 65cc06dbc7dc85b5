#include "ops/resize/grid_sample.h"

#include "ops/common/node_checks.h"

namespace cnnx {

GridSampleParams parse_grid_sample(const Node& node) {
  check_node(node, 2, 2, {"align_corners", "mode", "padding_mode"});
  GridSampleParams p;
  const int64_t align = node.attrs.get_int("align_corners", 0);
  require(align == 0 || align == 1, "attribute 'align_corners' must be 0 or 1, got ", align);
  p.align_corners = align == 1;
  const std::string mode = node.attrs.get_string("mode", "bilinear");
  if (mode == "bilinear" || mode == "linear") p.mode = GridSampleMode::bilinear;
  else if (mode == "nearest") p.mode = GridSampleMode::nearest;
  else if (mode == "bicubic" || mode == "cubic") p.mode = GridSampleMode::bicubic;
  else fail("attribute 'mode' must be bilinear, nearest or bicubic, got '", mode, "'");
  const std::string padding = node.attrs.get_string("padding_mode", "zeros");
  if (padding == "zeros") p.padding = GridSamplePadding::zeros;
  else if (padding == "border") p.padding = GridSamplePadding::border;
  else if (padding == "reflection") p.padding = GridSamplePadding::reflection;
  else fail("attribute 'padding_mode' must be zeros, border or reflection, got '", padding, "'");
  return p;
}

std::vector<ValueInfo> infer_grid_sample(const GridSampleParams&, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32}, "X");
  require_dtype(in, 1, {DType::f32}, "grid");
  const ValueInfo &x = in[0], &grid = in[1];
  require(x.rank() == 4, "X must be 4-D [N, C, H, W], got shape ", to_string(x.shape));
  require(grid.rank() == 4, "grid must be 4-D [N, H_out, W_out, 2], got shape ", to_string(grid.shape));
  require(grid.shape[3] < 0 || grid.shape[3] == 2, "grid's last dim must be 2 (x, y), got shape ",
          to_string(grid.shape));
  require(x.shape[0] < 0 || grid.shape[0] < 0 || x.shape[0] == grid.shape[0], "X has batch ", x.shape[0],
          "; grid has ", grid.shape[0]);
  return {ValueInfo::of(DType::f32, {x.shape[0] >= 0 ? x.shape[0] : grid.shape[0], x.shape[1], grid.shape[1],
                                     grid.shape[2]})};
}

}  // namespace cnnx
