// NonMaxSuppression: the reference kernel (ONNX Runtime's order of selection and its float32 IoU).
#include "ops/detect/non_max_suppression.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cnnx {

namespace {

struct Corners {
  float x_min, y_min, x_max, y_max;
};

Corners corners(const float* b, bool center_point_box) {
  if (center_point_box) {
    const float half_w = b[2] / 2, half_h = b[3] / 2;
    return {b[0] - half_w, b[1] - half_h, b[0] + half_w, b[1] + half_h};
  }
  return {std::min(b[1], b[3]), std::min(b[0], b[2]), std::max(b[1], b[3]), std::max(b[0], b[2])};
}

// A kept box with its area, computed once (the same float32 operations as for the candidate).
struct Kept {
  Corners box;
  float area;
};

float area_of(const Corners& b) { return (b.x_max - b.x_min) * (b.y_max - b.y_min); }

// IoU(a, b) > threshold, as ONNX Runtime decides it. Most pairs do not overlap (batched NMS moves each class's
// boxes apart): they are rejected after the intersection's sides.
bool suppresses(const Kept& a, const Corners& b, float area_b, float threshold) {
  const float width = std::min(a.box.x_max, b.x_max) - std::max(a.box.x_min, b.x_min);
  if (width <= 0) return false;
  const float height = std::min(a.box.y_max, b.y_max) - std::max(a.box.y_min, b.y_min);
  if (height <= 0) return false;
  const float intersection = width * height;
  const float union_area = a.area + area_b - intersection;
  if (a.area <= 0 || area_b <= 0 || union_area <= 0) return false;
  return intersection / union_area > threshold;
}

}  // namespace

std::vector<std::array<int64_t, 3>> select_boxes(const NmsParams& p, const std::vector<const Tensor*>& in) {
  const Tensor &boxes = *in[0], &scores = *in[1];
  const int64_t batches = scores.dim(0), classes = scores.dim(1), count = scores.dim(2);
  auto given = [&](size_t i) { return i < in.size() && in[i] != nullptr; };
  const int64_t max_boxes = given(2) ? in[2]->int_at(0) : 0;
  require(max_boxes >= 0, "input 2 (max_output_boxes_per_class) is ", max_boxes, "; it must be >= 0");
  const float iou_threshold = given(3) ? float(in[3]->double_at(0)) : 0.f;
  const bool thresholded = given(4);
  const float score_threshold = thresholded ? float(in[4]->double_at(0)) : 0.f;
  std::vector<std::array<int64_t, 3>> selected;
  std::vector<int64_t> order;
  std::vector<Kept> kept;
  for (int64_t b = 0; b < batches; ++b)
    for (int64_t c = 0; c < classes; ++c) {
      const float* s = scores.data<float>() + (b * classes + c) * count;
      order.clear();
      for (int64_t i = 0; i < count; ++i)
        if (!thresholded || s[i] > score_threshold) order.push_back(i);
      std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return s[x] > s[y]; });
      kept.clear();
      // Kept boxes sorted by x_min, so that only those that can overlap a candidate along x are tested (batched
      // NMS puts each class's boxes apart: thousands kept, a few near each candidate). Which boxes are tested
      // does not change the answer (any kept box suppressing), only how many: a kept box starting at or after
      // the candidate's x_max, or ending at or before its x_min, has no intersection (width <= 0 exactly).
      // Those ending before are found through the widest kept box (its float width, widened past rounding).
      // Non-finite coordinates (no order) test every kept box.
      bool finite = true;
      for (int64_t i : order)
        for (int k = 0; k < 4; ++k) finite = finite && std::isfinite(boxes.data<float>()[(b * count + i) * 4 + k]);
      float widest = 0;
      auto by_x_min = [](const Kept& k, double x) { return double(k.box.x_min) < x; };
      for (int64_t i : order) {
        if (int64_t(kept.size()) >= max_boxes) break;
        const Corners box = corners(boxes.data<float>() + (b * count + i) * 4, p.center_point_box);
        const float area = area_of(box);
        auto first = kept.begin(), last = kept.end();
        if (finite) {
          const double reach = double(widest) * (1 + 1e-6) + std::abs(double(box.x_min)) * 1e-12;
          first = std::lower_bound(kept.begin(), kept.end(), double(box.x_min) - reach, by_x_min);
          last = std::lower_bound(first, kept.end(), double(box.x_max), by_x_min);
        }
        if (std::any_of(first, last, [&](const Kept& k) { return suppresses(k, box, area, iou_threshold); })) continue;
        if (finite) {
          kept.insert(std::upper_bound(kept.begin(), kept.end(), box.x_min,
                                       [](float x, const Kept& k) { return x < k.box.x_min; }),
                      {box, area});
          widest = std::max(widest, box.x_max - box.x_min);
        } else {
          kept.push_back({box, area});
        }
        selected.push_back({b, c, i});
      }
    }
  return selected;
}

void nms_ref(const NmsParams& p, const KernelIO& io) {
  const std::vector<std::array<int64_t, 3>> selected = select_boxes(p, io.in);
  Tensor& y = *io.out[0];
  require(y.shape() == Shape{int64_t(selected.size()), 3}, selected.size(), " boxes are selected; the output was planned as ",
          to_string(y.shape()));
  for (size_t r = 0; r < selected.size(); ++r) std::copy(selected[r].begin(), selected[r].end(), y.data<int64_t>() + 3 * r);
}

}  // namespace cnnx
