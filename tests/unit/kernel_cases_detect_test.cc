// Kernel cases of the detect family (ops/detect): NonMaxSuppression, with every input's data known (its output's
// length is that data's), and RoiAlign (its native kernel against the reference). tests/unit/kernel_cases.h says how a table runs; the selections themselves are
// checked against ONNX's node tests and by hand below.
#include <doctest/doctest.h>

#include <numeric>
#include <random>

#include "tests/unit/kernel_cases.h"

using namespace cnnx;
using namespace cnnx::testing;

namespace {

CaseInput floats3(Shape shape, std::vector<float> v) { return given(make_tensor(std::move(shape), std::move(v))).constant(); }

std::vector<KernelCase> detect_cases() {
  // Three boxes: 0 and 1 overlap (IoU 0.81), 2 apart.
  const std::vector<float> corners = {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 10, 1, 11};
  const std::vector<float> centers = {0.5f, 0.5f, 1, 1, 0.5f, 0.6f, 1, 1, 0.5f, 10.5f, 1, 1};
  std::vector<KernelCase> cases;
  cases.push_back(KernelCase("NonMaxSuppression", 11, "corners, IoU 0.5").in(floats3({1, 3, 4}, corners))
                      .in(floats3({1, 1, 3}, {0.9f, 0.95f, 0.3f})).in(given(make_int_tensor({1}, {3})).constant())
                      .in(floats3({1}, {0.5f})));
  cases.push_back(KernelCase("NonMaxSuppression", 11, "centers, score threshold, 2 classes")
                      .attr("center_point_box", int_attr(1)).in(floats3({1, 3, 4}, centers))
                      .in(floats3({1, 2, 3}, {0.9f, 0.95f, 0.3f, 0.1f, 0.2f, 0.8f}))
                      .in(given(make_int_tensor({1}, {2})).constant()).in(floats3({1}, {0.5f})).in(floats3({1}, {0.25f})));
  cases.push_back(KernelCase("NonMaxSuppression", 10, "defaults: no boxes").in(floats3({1, 3, 4}, corners))
                      .in(floats3({1, 1, 3}, {0.9f, 0.95f, 0.3f})));
  return cases;
}

CaseInput rois_in(std::vector<float> v) { return given(make_tensor({int64_t(v.size() / 4), 4}, std::move(v))); }
CaseInput indices_in(std::vector<int64_t> v) { return given(make_int_tensor({int64_t(v.size())}, std::move(v))); }

std::vector<KernelCase> roi_align_cases() {
  // RoIs inside, straddling the border, past it (points more than a cell out give 0), inverted, tiny, and on
  // the second image; in input coordinates, spatial_scale 0.5 maps them onto the 9 x 11 map.
  const std::vector<float> rois = {2, 3, 13, 15, -4, -2, 6, 5, 18, 14, 30, 26, 9, 9, 3, 4, 5.2f, 5.3f, 5.4f, 5.5f,
                                   0, 0, 21.9f, 17.9f};
  const std::vector<int64_t> batch = {0, 1, 1, 0, 1, 0};
  std::vector<KernelCase> cases;
  for (const char* ctm : {"half_pixel", "output_half_pixel"})
    for (const char* mode : {"avg", "max"})
      for (int64_t ratio : {0, 2})
        cases.push_back(KernelCase("RoiAlign", 16, std::string(ctm) + " " + mode + " sampling_ratio " + std::to_string(ratio))
                            .attr("coordinate_transformation_mode", string_attr(ctm)).attr("mode", string_attr(mode))
                            .attr("output_height", int_attr(3)).attr("output_width", int_attr(4))
                            .attr("sampling_ratio", int_attr(ratio)).attr("spatial_scale", float_attr(0.5f))
                            .in(random_in({2, 5, 9, 11})).in(rois_in(rois)).in(indices_in(batch)));
  cases.push_back(KernelCase("RoiAlign", 10, "opset 10: output_half_pixel, defaults 1 x 1, adaptive")
                      .in(random_in({2, 3, 9, 11})).in(rois_in(rois)).in(indices_in(batch)));
  cases.push_back(KernelCase("RoiAlign", 16, "no RoIs").in(random_in({1, 3, 4, 4})).in(rois_in({})).in(indices_in({})));
  return cases;
}

}  // namespace

KERNEL_CASES("NonMaxSuppression", detect_cases)
KERNEL_CASES("RoiAlign", roi_align_cases)

TEST_CASE("RoiAlign samples as ONNX Runtime and torchvision do") {
  // X = [[1, 2], [3, 4]]; RoI [0, 0, 1, 1], one bin, one point.
  const Tensor x = make_tensor({1, 1, 2, 2}, {1, 2, 3, 4}), roi = make_tensor({1, 4}, {0, 0, 1, 1});
  const Tensor b = make_int_tensor({1}, {0});
  for (const char* kernel : {"ref", "native"}) {
    CAPTURE(kernel);
    Attributes a;
    a.set("sampling_ratio", int_attr(1));
    // output_half_pixel: the point is the RoI's centre (0.5, 0.5): the mean of the four cells.
    CHECK(run_op("RoiAlign", a, {x, roi, b}, 10, 1, kernel)[0].data<float>()[0] == 2.5f);
    // half_pixel: the RoI moves by -0.5 cell, its centre onto cell (0, 0).
    CHECK(run_op("RoiAlign", a, {x, roi, b}, 16, 1, kernel)[0].data<float>()[0] == 1.f);
    // A RoI narrower than a cell is widened to one in output_half_pixel: [0, 0, 0.2, 0.2] samples (0.5, 0.5).
    CHECK(run_op("RoiAlign", a, {x, make_tensor({1, 4}, {0, 0, 0.2f, 0.2f}), b}, 10, 1, kernel)[0].data<float>()[0] ==
          2.5f);
    // max: the largest weighted tap, 0.25 * 4.
    a.set("mode", string_attr("max"));
    CHECK(run_op("RoiAlign", a, {x, roi, b}, 10, 1, kernel)[0].data<float>()[0] == 1.f);
  }
}

TEST_CASE("RoiAlign refuses bad RoIs, batch indices and attributes, naming what is wrong") {
  const Tensor x = make_tensor({2, 1, 4, 4}), b = make_int_tensor({1}, {0});
  const Tensor roi = make_tensor({1, 4}, {0, 0, 1, 1});
  struct Bad {
    const char* what;
    std::vector<Tensor> in;
    Attributes attrs;
    const char* message;
  };
  Attributes bad_mode, bad_ctm, bad_size, bad_ratio;
  bad_mode.set("mode", string_attr("sum"));
  bad_ctm.set("coordinate_transformation_mode", string_attr("asymmetric"));
  bad_size.set("output_height", int_attr(0));
  bad_ratio.set("sampling_ratio", int_attr(-1));
  const std::vector<Bad> bad = {
      {"rois [1, 5]", {x, make_tensor({1, 5}), b}, {}, "rois must be [num_rois, 4], got [1,5]"},
      {"rois of rank 1", {x, make_tensor({4}), b}, {}, "rois must be [num_rois, 4]"},
      {"X of rank 3", {make_tensor({1, 4, 4}), roi, b}, {}, "X must be [N, C, H, W]"},
      {"2 batch indices for 1 RoI", {x, roi, make_int_tensor({2}, {0, 0})}, {}, "disagree on the number of RoIs"},
      {"batch index 2 of 2 images", {x, roi, make_int_tensor({1}, {2})}, {}, "batch_indices[0] is 2; X has 2 images"},
      {"batch index -1", {x, roi, make_int_tensor({1}, {-1})}, {}, "batch_indices[0] is -1"},
      {"int32 batch indices", {x, roi, Tensor(DType::i32, {1})}, {}, "batch_indices"},
      {"mode sum", {x, roi, b}, bad_mode, "attribute 'mode' must be"},
      {"coordinate_transformation_mode asymmetric", {x, roi, b}, bad_ctm, "coordinate_transformation_mode"},
      {"output_height 0", {x, roi, b}, bad_size, "'output_height' (0)"},
      {"sampling_ratio -1", {x, roi, b}, bad_ratio, "'sampling_ratio' must be in [0, 1024], got -1"},
  };
  for (const Bad& c : bad)
    for (const char* kernel : {"ref", "native"}) {
      CAPTURE(c.what);
      CAPTURE(kernel);
      CHECK_THROWS_WITH_AS(run_op("RoiAlign", c.attrs, c.in, 16, 1, kernel), doctest::Contains(c.message), Error);
    }
  // An adaptive grid past kRoiMaxPoints: a RoI of 10^6 cells on a side pooled to 1 x 1.
  CHECK_THROWS_WITH_AS(run_op("RoiAlign", {}, {x, make_tensor({1, 4}, {0, 0, 1e6f, 1e6f}), b}, 16, 1, "native"),
                       doctest::Contains("sampling points per bin"), Error);
}

TEST_CASE("NonMaxSuppression keeps boxes by score, suppressing overlaps past the threshold") {
  const std::vector<Tensor> in = {make_tensor({1, 3, 4}, {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 10, 1, 11}),
                                  make_tensor({1, 1, 3}, {0.9f, 0.95f, 0.3f}), make_int_tensor({1}, {3}),
                                  make_tensor({1}, {0.5f})};
  const Tensor y = run_op("NonMaxSuppression", {}, in, 11, 1, "ref", {true, true, true, true})[0];
  REQUIRE(y.shape() == Shape{2, 3});
  const int64_t want[] = {0, 0, 1, 0, 0, 2};  // box 1 (0.95), then box 2; box 0 overlaps box 1 by IoU 0.81
  for (int i = 0; i < 6; ++i) CHECK(y.data<int64_t>()[i] == want[i]);
  CHECK_THROWS_WITH_AS(run_op("NonMaxSuppression", {}, {make_tensor({3, 4}), make_tensor({1, 1, 3})}, 11, 1, "ref",
                              {true, true}),
                       doctest::Contains("boxes must be [batches, boxes, 4]"), Error);
  CHECK_THROWS_WITH_AS(run_op("NonMaxSuppression", {}, {in[0], in[1], make_int_tensor({1}, {-1})}, 11, 1, "ref",
                              {true, true, true}),
                       doctest::Contains("must be >= 0"), Error);
}

TEST_CASE("NonMaxSuppression keeps what a test against every kept box keeps (the x-sorted search is exact)") {
  // Boxes in 6 far-apart groups (batched NMS's class offsets), of widths from 0 to 60, some inverted corners,
  // many scores; compared with greedy NMS testing every kept box, IoU in float32 as the kernel's.
  std::mt19937 gen(34);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  for (int trial = 0; trial < 20; ++trial) {
    const int64_t n = 400;
    std::vector<float> boxes, scores;
    for (int64_t i = 0; i < n; ++i) {
      const float off = float(i % 6) * 1000.f, x = off + 200 * u(gen), y = 200 * u(gen);
      const float w = trial % 4 == 0 ? 60 * u(gen) * u(gen) : 60 * u(gen), h = 60 * u(gen);
      if (i % 7 == 0) boxes.insert(boxes.end(), {y + h, x + w, y, x});  // opposite corners
      else boxes.insert(boxes.end(), {y, x, y + h, x + w});
      scores.push_back(u(gen));
    }
    const float iou = 0.2f + 0.1f * float(trial % 5);
    const Tensor y = run_op("NonMaxSuppression", {}, {make_tensor({1, n, 4}, boxes), make_tensor({1, 1, n}, scores),
                                                      make_int_tensor({1}, {1000}), make_tensor({1}, {iou})},
                            11, 1, "ref", {true, true, true, true})[0];
    std::vector<int64_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return scores[size_t(a)] > scores[size_t(b)]; });
    auto corner = [&](int64_t i, int k) { return boxes[size_t(i * 4 + k)]; };
    std::vector<int64_t> want;
    for (int64_t i : order) {
      bool suppressed = false;
      for (int64_t j : want) {
        const float ax0 = std::min(corner(j, 1), corner(j, 3)), ax1 = std::max(corner(j, 1), corner(j, 3));
        const float ay0 = std::min(corner(j, 0), corner(j, 2)), ay1 = std::max(corner(j, 0), corner(j, 2));
        const float bx0 = std::min(corner(i, 1), corner(i, 3)), bx1 = std::max(corner(i, 1), corner(i, 3));
        const float by0 = std::min(corner(i, 0), corner(i, 2)), by1 = std::max(corner(i, 0), corner(i, 2));
        const float w = std::min(ax1, bx1) - std::max(ax0, bx0), h = std::min(ay1, by1) - std::max(ay0, by0);
        if (w <= 0 || h <= 0) continue;
        const float inter = w * h, area_a = (ax1 - ax0) * (ay1 - ay0), area_b = (bx1 - bx0) * (by1 - by0);
        const float uni = area_a + area_b - inter;
        if (area_a <= 0 || area_b <= 0 || uni <= 0) continue;
        suppressed = suppressed || inter / uni > iou;
      }
      if (!suppressed) want.push_back(i);
    }
    CAPTURE(trial);
    CAPTURE(iou);
    CHECK(want.size() < size_t(n));  // overlaps were suppressed: the search had work to do
    REQUIRE(y.dim(0) == int64_t(want.size()));
    for (size_t r = 0; r < want.size(); ++r) CHECK(y.data<int64_t>()[r * 3 + 2] == want[r]);
  }
}
