// Slice. Before opset 10 starts, ends and axes are attributes and every step is 1; from opset 10 on they are
// inputs 1..4 (data, starts, ends, axes?, steps?) and steps may be negative. Indices are clamped exactly as
// the ONNX spec says (see resolve_slice in slice.cc).
#pragma once

#include <vector>

#include "engine/op.h"

namespace cnnx {

struct SliceParams : OpParams {
  bool from_inputs = false;  // opset 10+
  // Attribute form only:
  std::vector<int64_t> starts, ends, axes;
  bool has_axes = false;
};

SliceParams parse_slice(const Node& node);
std::vector<ValueInfo> infer_slice(const SliceParams& p, const std::vector<ValueInfo>& in);

// Per input axis: the first index read, the step, and the output length (kUnknownDim when the input dim is
// unknown). Axes not sliced read everything with step 1.
struct SliceGeometry {
  std::vector<int64_t> start, step;
  Shape out;
};

// The geometry from params and constant inputs, or false when an argument is known only at run time.
bool constant_geometry(const SliceParams& p, const std::vector<ValueInfo>& in, SliceGeometry& g);

void slice_ref(const SliceParams& p, const KernelIO& io);
// oneDNN: one reorder from a sub-memory view of the input, unit steps only (ops/tensor/slice_dnnl.cc).
Kernel<SliceParams> slice_dnnl_kernel();
// Starts, ends, axes and steps resolved against data's shape as the ONNX spec says (clamped, negative
// values counted from the end).
SliceGeometry resolve_slice(const Shape& data, const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                            const std::vector<int64_t>* axes_arg, const std::vector<int64_t>* steps);

}  // namespace cnnx
