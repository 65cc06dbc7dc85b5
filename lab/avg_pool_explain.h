// One AveragePool geometry explained (`cnnx pool avg`; DESIGN.md, "Pooling semantics"; docs/pooling.md): the
// node is built as a model of opset 19 (ModelSketch, api/tools_facade.h) and parsed, inferred and checked as at load;
// then, per spatial axis, the output size with the ONNX formula and its numbers, and the windows with their taps
// and divisors (the edges, where padding is, when there are many); the dnnl backend against the reference kernel
// on one seeded input (lab/lab_input.h) and where oneDNN's own include-padding divisor would differ; PyTorch's
// view of the same settings (lab/torch_avg_pool.h); the load-time cautions about other engines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api/tools_facade.h"
#include "lab/torch_avg_pool.h"

namespace cnnx::lab {

// AveragePool attributes as numbers; an empty list leaves its attribute out (its ONNX default applies).
struct AvgPoolSettings {
  Shape shape;                               // the input [N, C, D1..Dk], k = 1 to 3, known dims
  std::vector<int64_t> kernel;               // kernel_shape: k values (required)
  std::vector<int64_t> strides, dilations;   // k values each, or empty
  std::vector<int64_t> pads;                 // 2k values [begin.., end..], or empty
  std::string auto_pad = "NOTSET";           // NOTSET (left out), SAME_UPPER, SAME_LOWER or VALID
  bool ceil_mode = false, count_include_pad = false;  // set as 1 when true, left out otherwise
};

// Window `index` along one axis (PoolAxis, in ops/pool/pool_geometry.h through api/tools_facade.h, says where
// windows start).
struct AvgPoolWindowInfo {
  int64_t index = 0, start = 0;  // start: its first tap's input position (negative: in the left padding)
  int64_t taps_in_input = 0;     // taps inside [0, in)
  int64_t taps_in_padded = 0;    // taps inside input + pads (never the overhang)
  int64_t divisor_factor = 0;    // this axis's factor of the divisor: one of the two above, by count_include_pad
  bool starts_in_padding = false;  // start < 0 or start >= in
  bool overhangs = false;          // reaches past in + pad_end (a ceil_mode window)
};

struct AvgPoolAxisInfo {
  PoolAxis axis;                          // resolved: in, out, kernel, stride, dilation, explicit pads
  std::string formula;                    // e.g. "out = floor((6 + 1 + 1 - 3) / 2) + 1 = 3", SAME's pads too
  std::vector<AvgPoolWindowInfo> windows;  // every window when out <= 12, else the first and last three
};

struct AvgPoolExplanation {
  Shape input_shape, output_shape;
  bool count_include_pad = false;
  PoolGeometry geometry;               // for per-window divisors (PoolGeometry::divisor)
  std::vector<AvgPoolAxisInfo> axes;   // one per spatial axis
  // The dnnl backend on one input: its kernel for the node ("ref" when oneDNN declined), why kernels before
  // it declined, and its largest absolute difference from the reference kernel.
  std::string dnnl_backend_kernel;
  std::vector<std::string> declined;
  double max_abs_diff_vs_ref = 0;
  // With count_include_pad, one line per axis whose last window overhangs: oneDNN's avg_include_padding
  // divides by the kernel volume there, ONNX by the cells inside input + pads.
  std::vector<std::string> onednn_include_padding_differs;
  TorchAvgPool pytorch;
  std::vector<std::string> warnings;  // the model's load-time warnings: "node 'AveragePool' (AveragePool): ..."
};

// Throws cnnx::Error as loading such a model would (e.g. a kernel larger than the padded input, a window of
// padding only), naming the node 'AveragePool'.
AvgPoolExplanation explain_avg_pool(const AvgPoolSettings& s);

}  // namespace cnnx::lab
