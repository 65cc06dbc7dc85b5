// Resize geometry: the one place where scales / sizes / roi / axes / keep_aspect_ratio_policy become per-axis
// sizes, and output cells become source coordinates and weighted input taps. Shape inference and both kernels
// call resolve_resize; the reference kernel reads axis_taps, the oneDNN kernel compares nearest_index with
// its own rounding. None re-derives any of it.
//
// Along one axis (in cells of X, out of Y, scale s, length_resized L = in * s, or out given sizes without an
// aspect policy), output cell o maps to the source coordinate x (ONNX Resize-19, cell centres at integers):
//   half_pixel            (o + 0.5) / s - 0.5
//   half_pixel_symmetric  in / 2 * (1 - out / L) + (o + 0.5) / s - 0.5
//   pytorch_half_pixel    L > 1 ? (o + 0.5) / s - 0.5 : 0
//   align_corners         L == 1 ? 0 : o * (in - 1) / (L - 1)
//   asymmetric            o / s
//   tf_half_pixel_for_nn  (o + 0.5) / s
//   tf_crop_and_resize    L > 1 ? start * (in - 1) + o * (end - start) * (in - 1) / (L - 1)
//                               : 0.5 * (start + end) * (in - 1); outside [0, in - 1] the output cell is
//                         extrapolation_value (in any axis: the whole cell).
// L is a real number (in * s with the given scale: the onnx node tests' align_corners data needs it so).
//
// Taps (ONNX's reference implementation): with b = ceil(x) - 1 and r = x - b in (0, 1],
//   nearest  one cell: x when it is an integer, else floor(x) or floor(x) + 1 by nearest_mode (round_prefer_*
//            on r = 0.5 exactly);
//   linear   cells b + i for i in [start, 1 - start], weight k(s' * (i - r)), k(t) = max(0, 1 - |t|);
//   cubic    the same with Keys' kernel of coefficient A over |t| < 2;
// s' = min(s, 1) with antialias (weights then divided by their sum), else 1, and start = floor(-support / s')
// + 1 (support 1 linear, 2 cubic): 2 taps linear and 4 cubic without antialias. Cells outside [0, in) read the
// edge cell, or with exclude_outside get weight 0 and the rest is scaled to sum 1. Taps of weight 0 are
// dropped (so nearest and integer coordinates select, also over inf and NaN).
#pragma once

#include "ops/resize/resize.h"

namespace cnnx {

struct ResizeAxis {
  int64_t in = 0, out = 0;
  double scale = 1;
  double length = 0;  // length_resized, L above
  double roi_start = 0, roi_end = 1;

  bool identity() const { return in == out && scale == 1 && roi_start == 0 && roi_end == 1; }
};

struct ResizeGeometry {
  std::vector<ResizeAxis> axes;  // one per axis of X
  Shape output() const;
};

// The geometry for input 0's concrete shape, or false when an argument's data is not known yet (load time).
// Throws cnnx::Error naming the argument for bad ones.
bool resolve_resize(const ResizeParams& p, const std::vector<ValueInfo>& in, ResizeGeometry& g);

// The source coordinate of output cell o (formulas above).
double source_coordinate(const ResizeParams& p, const ResizeAxis& a, int64_t o);
// False for a tf_crop_and_resize coordinate outside the input (the cell takes extrapolation_value).
bool inside_crop(const ResizeParams& p, const ResizeAxis& a, double x);
// The cell `nearest` picks for coordinate x, clamped into [0, in).
int64_t nearest_index(const ResizeParams& p, const ResizeAxis& a, double x);

struct ResizeTap {
  int64_t index;  // into the axis, in [0, in)
  double weight;
};

// Every output cell's taps along one axis: cell o's are taps[first[o] .. first[o + 1]), none when it lies
// outside a tf_crop_and_resize box.
struct AxisTaps {
  std::vector<size_t> first;  // out + 1 entries
  std::vector<ResizeTap> taps;
};
AxisTaps axis_taps(const ResizeParams& p, const ResizeAxis& a);


}  // namespace cnnx
