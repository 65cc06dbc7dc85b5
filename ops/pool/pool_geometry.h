// Pooling window geometry: the one place where kernel_shape / strides / dilations / pads / auto_pad /
// ceil_mode are turned into output sizes, explicit pads and per-window tap ranges and divisors. Shape
// inference and every pooling kernel (ref, dnnl) call resolve_pool_geometry; none re-derives any of it.
//
// Along one spatial axis, window o starts at input position start(o) = o * stride - pad_begin (negative: in
// the left padding) and has `kernel` taps at start(o) + j * dilation, j in [0, kernel). Positions in [0, in)
// are input cells, [-pad_begin, 0) and [in, in + pad_end) are padding, and positions at or past
// in + pad_end (only reached by a ceil_mode window: "overhang") are neither.
//
// Output size (ONNX AveragePool-19 / MaxPool-12 text), eff = (kernel - 1) * dilation + 1:
//   NOTSET     out = floor((in + pad_begin + pad_end - eff) / stride) + 1; with ceil_mode, ceil instead of
//              floor, and then a last window that would start in the right padding (start >= in) is dropped.
//   VALID      pads 0, out = floor((in - eff) / stride) + 1. The spec's ceil_mode formula for VALID,
//              ceil((in - eff + 1) / stride), is the same number, so ceil_mode changes nothing.
//   SAME_*     out = ceil(in / stride) whatever ceil_mode; total pad = max(0, (out - 1) * stride + eff - in),
//              split in halves, the odd cell at the end (SAME_UPPER) or at the beginning (SAME_LOWER).
// Windows are boxes, so a window's cell counts are products of per-axis tap counts:
//   AveragePool divisor, count_include_pad = 0: taps inside the input;
//                        count_include_pad = 1: taps inside input + pads (never the overhang).
//
// Errors (cnnx::Error naming the attribute and spatial axis): an output size < 1 (kernel larger than the
// padded input) and a window with no input cell at all (pads >= the window, or a dilation stepping over a
// short input), whose max or pad-excluding mean would be undefined. Checking that costs O(1) per axis except
// when a dilation exceeds the input size, where one period of the left-padding windows is scanned (at most
// 2^24 windows, beyond which the geometry is refused as unsupported).
//
// For other kernels: oneDNN's avg_include_padding divides by the full kernel volume, which equals
// count_include_pad's divisor unless a window overhangs (PoolAxis::last_window_overhangs); avg_exclude_padding
// counts the input cells like count_include_pad = 0 (with dilations, compare against the ref kernel first).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/attributes.h"
#include "engine/shape.h"

namespace cnnx {

enum class PoolAutoPad { notset, same_upper, same_lower, valid };

// The window attributes of AveragePool / MaxPool, validated on their own (lengths, signs) at parse time.
struct PoolWindow {
  std::vector<int64_t> kernel;     // per spatial axis, >= 1
  std::vector<int64_t> strides;    // >= 1 (default 1)
  std::vector<int64_t> dilations;  // >= 1 (default 1)
  std::vector<int64_t> pads;       // [begin_1..begin_k, end_1..end_k], >= 0 (default 0); all 0 unless NOTSET
  PoolAutoPad auto_pad = PoolAutoPad::notset;
  bool ceil_mode = false;

  size_t spatial_rank() const { return kernel.size(); }
};

// Reads kernel_shape (required), strides, dilations, pads, auto_pad and ceil_mode from `attrs`. Attributes the
// caller's opset lacks must have been refused before (dilations / ceil_mode absent here mean their default).
PoolWindow parse_pool_window(const Attributes& attrs);

// One spatial axis of a resolved geometry. When `in` is kUnknownDim (load time), `out` is kUnknownDim too,
// pads are those of the attributes (SAME_*: kUnknownDim) and the per-window functions must not be used.
struct PoolAxis {
  int64_t in = 0, out = 0;
  int64_t kernel = 1, stride = 1, dilation = 1;
  int64_t pad_begin = 0, pad_end = 0;  // explicit, after auto_pad

  int64_t window_extent() const { return (kernel - 1) * dilation + 1; }
  int64_t start(int64_t o) const { return o * stride - pad_begin; }
  // Taps j in [tap_begin(o), tap_end(o)) of window o land inside the input (a non-empty range).
  int64_t tap_begin(int64_t o) const;
  int64_t tap_end(int64_t o) const;
  int64_t taps_in_input(int64_t o) const { return tap_end(o) - tap_begin(o); }
  // Taps of window o inside input + pads (the first one always is; a ceil_mode window may lose the last ones).
  int64_t taps_in_padded(int64_t o) const;
  // True when the last window reaches past in + pad_end (ceil_mode only).
  bool last_window_overhangs() const;
};

struct PoolGeometry {
  std::vector<PoolAxis> axes;  // one per spatial axis

  Shape output_spatial() const;  // out of every axis (kUnknownDim where unknown)
  Shape input_spatial() const;
  // AveragePool's divisor for the window at output position `out_index` (one index per axis).
  int64_t divisor(const std::vector<int64_t>& out_index, bool count_include_pad) const;
};

// Resolves `w` against the spatial dims of an input (kUnknownDim allowed). Throws cnnx::Error as described at
// the top of this file; also when the number of spatial dims differs from the kernel's.
PoolGeometry resolve_pool_geometry(const PoolWindow& w, const Shape& input_spatial);

}  // namespace cnnx
