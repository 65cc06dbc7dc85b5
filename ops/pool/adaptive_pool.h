// PyTorch's adaptive average pooling as torch.onnx.export writes it with
// operator_export_type=ONNX_ATEN_FALLBACK when the output size does not divide the input size (otherwise it
// exports AveragePool or GlobalAveragePool): a node `adaptive_avg_pool{1,2,3}d` of domain `org.pytorch.aten`
// (opset import version 1), no attributes, inputs X and output_size.
//
//   X            [N, C, D1..Dk] or unbatched [C, D1..Dk] (k = 1, 2, 3 from the op name); float32 or float64;
//                every Di >= 1
//   output_size  int64 1-D of k values Oi >= 0 (an exported Constant); must be known when the plan is made
//   Y            X's leading dims followed by O1..Ok
//
// Output position i along an axis of input size I and output size O pools input cells
// [floor(i * I / O), ceil((i + 1) * I / O)) (ATen's start_index / end_index): windows cover the input, may
// overlap by one cell when O does not divide I, and repeat cells when O > I. The mean divides by the window's
// cell count (no padding exists).
#pragma once

#include "engine/op.h"

namespace cnnx {

constexpr const char* kAtenDomain = "org.pytorch.aten";

struct AdaptivePoolParams : OpParams {
  int spatial_rank = 2;  // k
};

// Window bounds along one axis (ATen's formulas, integer arithmetic; in * out <= kMaxSize is checked by infer).
inline int64_t adaptive_start(int64_t i, int64_t in, int64_t out) { return i * in / out; }
inline int64_t adaptive_end(int64_t i, int64_t in, int64_t out) { return ((i + 1) * in + out - 1) / out; }

// parse for k = spatial_rank (the digit of the op name), and one per op name for its OpSpec.
AdaptivePoolParams parse_adaptive_pool(const Node& node, int spatial_rank);
AdaptivePoolParams parse_adaptive_avg_pool1d(const Node& node);
AdaptivePoolParams parse_adaptive_avg_pool2d(const Node& node);
AdaptivePoolParams parse_adaptive_avg_pool3d(const Node& node);
// X's leading dims followed by output_size (kUnknownDim while output_size is not a constant yet).
std::vector<ValueInfo> infer_adaptive_pool(const AdaptivePoolParams& p, const std::vector<ValueInfo>& in);

// The kernels of k = 1, 2, 3 (registered in ops/pool/register.cc, domain org.pytorch.aten, since version 1):
// "adaptive" (float32, plain, parallel over output rows, each window summed in float64 in a fixed order
// whatever the thread count), then "ref" (plain loops, float64 sums). Tolerance: kPoolAverageTolerance
// (ops/pool/pool.h), the same mean of float32 values as AveragePool's.
Kernel<AdaptivePoolParams> adaptive_pool_kernel();
Kernel<AdaptivePoolParams> adaptive_pool_ref_kernel();

}  // namespace cnnx
