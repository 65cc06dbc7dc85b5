// RoiAlign (opsets 10, 16): per region of interest (rois [R, 4]: x1, y1, x2, y2 in input coordinates, times
// spatial_scale) of image batch_indices[r] of X [N, C, H, W], an output_height x output_width grid of bins
// [R, C, oh, ow]; each bin is sampled on a grid of sampling_ratio x sampling_ratio points (0: ceil of the
// bin's size, per RoI), each point bilinearly interpolated from its 4 neighbouring cells, and the bin is their
// mean (mode "avg") or the largest weighted tap (mode "max", as ONNX Runtime computes it: the max over points
// of max(w1 v1, w2 v2, w3 v3, w4 v4)). coordinate_transformation_mode (opset 16; default "half_pixel") shifts
// the RoI by -0.5 cell; "output_half_pixel" (opset 10's only behaviour, torchvision's aligned=False) does not,
// and widens a RoI narrower than one cell to one. A point more than one cell outside the map contributes 0.
//
// Coordinates and weights are computed in float32 in ONNX Runtime's (and torchvision's) order, once per RoI
// (roi_samples), for both kernels; the sums of products are exact in double and rounded once.
// A batch index outside [0, N) is an error naming the node, checked before anything is read.
//
// Tolerance: against an engine summing in float32 (ONNX Runtime, PyTorch), whose bin value is the mean of
// `count` points of 4 products each: its rounding is at most (count + 9) u max|tap| (u = 2^-24: 3 roundings per
// weight, 4 products and 3 adds per point, count - 1 adds and the division), 8e-7 max|tap| for the 2 x 2 grids
// torchvision and the node tests use: the absolute term covers taps of O(1), the relative term larger ones
// where the output is not far below its taps.
#pragma once

#include <array>

#include "engine/op.h"

namespace cnnx {

struct RoiAlignParams : OpParams {
  bool max_mode = false;    // mode "max"; false: "avg"
  bool half_pixel = true;   // coordinate_transformation_mode "half_pixel"; false: "output_half_pixel"
  int64_t output_height = 1, output_width = 1;
  int64_t sampling_ratio = 0;  // 0: adaptive, ceil(roi size / output size) per RoI
  float spatial_scale = 1.f;
};

constexpr Tolerance kRoiAlignTolerance{2e-6, 2e-6};

RoiAlignParams parse_roi_align(const Node& node);
std::vector<ValueInfo> infer_roi_align(const RoiAlignParams& p, const std::vector<ValueInfo>& in);

// One sampling point: the offsets (within one H x W plane) of its 4 neighbours and their weights; all zero
// for a point outside the map.
struct RoiPoint {
  std::array<int64_t, 4> at{};
  std::array<float, 4> w{};
};
// The points of one RoI: for each bin (row-major), grid_h x grid_w points in a row; `count` the divisor of avg.
struct RoiSamples {
  int64_t grid_h = 0, grid_w = 0, count = 1;
  std::vector<RoiPoint> points;
};
// At most this many points per RoI (an adaptive grid grows with the RoI: a 1000-cell RoI pooled to 7 x 7 has
// 143 x 143 per bin, 1M points); more is an error naming the RoI. Chunks of RoIs hold at most
// kRoiChunkPoints points at a time.
constexpr int64_t kRoiMaxPoints = int64_t(1) << 22, kRoiChunkPoints = int64_t(1) << 20;
// The points of RoI `roi` (4 floats) on an H x W map; throws past kRoiMaxPoints.
void roi_samples(const RoiAlignParams& p, const float* roi, int64_t height, int64_t width, RoiSamples& s);
// Runs the op: checks the batch indices, then per chunk of RoIs computes their points on the calling thread and
// the chunk's output planes (plane = r * C + c) split over the team when `parallel` (nothing in the parallel part
// throws).
void roi_align_run(const RoiAlignParams& p, const KernelIO& io, bool parallel);

void roi_align_ref(const RoiAlignParams& p, const KernelIO& io);
// "native" (roi_align_native.cc): the reference's arithmetic, the RoIs' points computed once each and the
// output planes split over the team.
Kernel<RoiAlignParams> roi_align_native_kernel();

}  // namespace cnnx
