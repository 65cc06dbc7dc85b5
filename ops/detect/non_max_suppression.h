// NonMaxSuppression (opsets 10, 11): per batch and class, boxes whose score is above score_threshold (input 4,
// strictly; none given: every box), taken by descending score (ties: the lower box index first), each kept
// unless its IoU with a box kept before exceeds iou_threshold (input 3, default 0, strictly), at most
// max_output_boxes_per_class (input 2, default 0: none) of them. Output: int64 [selected, 3] rows (batch,
// class, box), by batch, class, then order kept. center_point_box 0: boxes are [y1, x1, y2, x2], any two
// opposite corners; 1: [x_center, y_center, width, height]. IoU in float32 as ONNX Runtime computes it (a box
// of area 0 suppresses nothing). The count depends on the data: infer gives it when every input's data is
// known, otherwise the plan ends at the node (OpHints::shapes_from_data, runtime/plan.h). Exact (kExact).
#pragma once

#include <array>

#include "engine/op.h"

namespace cnnx {

struct NmsParams : OpParams {
  bool center_point_box = false;
};

NmsParams parse_nms(const Node& node);
std::vector<ValueInfo> infer_nms(const NmsParams& p, const std::vector<ValueInfo>& in);
void nms_ref(const NmsParams& p, const KernelIO& io);
// The selected (batch, class, box) rows for these inputs (omitted optional ones nullptr).
std::vector<std::array<int64_t, 3>> select_boxes(const NmsParams& p, const std::vector<const Tensor*>& in);

}  // namespace cnnx
