#include "ops/detect/non_max_suppression.h"

#include <algorithm>

#include "ops/common/node_checks.h"

namespace cnnx {

NmsParams parse_nms(const Node& node) {
  check_node(node, 2, 5, {"center_point_box"});
  require_outputs(node, 1, 1);
  NmsParams p;
  p.center_point_box = node.attrs.get_flag("center_point_box", false);
  return p;
}

std::vector<ValueInfo> infer_nms(const NmsParams& p, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32}, "boxes");
  require_dtype(in, 1, {DType::f32}, "scores");
  const Shape &boxes = in[0].shape, &scores = in[1].shape;
  require(boxes.size() == 3 && (boxes[2] == 4 || boxes[2] < 0), "boxes must be [batches, boxes, 4], got ",
          to_string(boxes));
  require(scores.size() == 3, "scores must be [batches, classes, boxes], got ", to_string(scores));
  auto same = [](int64_t a, int64_t b) { return a < 0 || b < 0 || a == b; };
  require(same(boxes[0], scores[0]) && same(boxes[1], scores[2]), "boxes ", to_string(boxes), " and scores ",
          to_string(scores), " disagree on the batches or the boxes");
  const char* names[] = {"max_output_boxes_per_class", "iou_threshold", "score_threshold"};
  bool all_known = in[0].constant && in[1].constant;
  for (size_t i = 2; i < 5; ++i) {
    if (!present(in, i)) continue;
    require_dtype(in, i, {i == 2 ? DType::i64 : DType::f32}, names[i - 2]);
    require(!in[i].concrete() || checked_numel(in[i].shape) == 1, "input ", i, " (", names[i - 2],
            ") must hold one element, got shape ", to_string(in[i].shape));
    all_known = all_known && in[i].constant;
  }
  if (!all_known) return {ValueInfo::of(DType::i64, {kUnknownDim, 3})};
  std::vector<const Tensor*> data;
  for (size_t i = 0; i < in.size(); ++i) data.push_back(present(in, i) ? in[i].constant.get() : nullptr);
  // The selection itself, so that folding does not select again.
  const std::vector<std::array<int64_t, 3>> selected = select_boxes(p, data);
  Tensor rows(DType::i64, {int64_t(selected.size()), 3});
  for (size_t r = 0; r < selected.size(); ++r)
    std::copy(selected[r].begin(), selected[r].end(), rows.data<int64_t>() + 3 * r);
  return {ValueInfo::of(rows)};
}

}  // namespace cnnx
