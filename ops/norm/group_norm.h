// InstanceNormalization (opsets 1, 6) and GroupNormalization (opset 18), float32, over an (N x C x D1 ... Dn)
// input (n >= 0). The C channels form G groups of C / G consecutive channels; each (sample, group) block of
// C / G * D1 * ... * Dn values is normalized with its own mean and population variance:
//
//   Y = (X - mean) / sqrt(var + epsilon) * scale + B
//
// InstanceNormalization: G = C (one channel per group), scale and B of shape (C). Opset 1's consumed_inputs is
// a legacy in-place hint without effect on the result: it is accepted and ignored.
// GroupNormalization-18: G = num_groups (required, dividing C), and scale and bias hold one value per GROUP,
// shape (num_groups), as opset 18 defines them (its function body is an InstanceNormalization over X reshaped
// to (N, G, -1)); opset 21 made them per channel (C), which cnnx's opsets (<= 19) do not reach. With no
// spatial dims (X of shape N x C) each block is its channels alone, or one value for InstanceNormalization
// (Y = B).
#pragma once

#include "engine/op.h"

namespace cnnx {

struct GroupNormParams : OpParams {
  float epsilon = 1e-5f;
  int64_t groups = 0;  // GroupNormalization's num_groups; 0 for InstanceNormalization (one group per channel)
};

// The same arithmetic as LayerNormalization over each block (ops/norm/layer_norm.h has the derivation): a
// float32 engine's mean and variance over n = block size values err by ~g u max|x| / sigma in y (g the longest
// sequential partial sum), plus a few roundings of |z scale| and |B|. The node tests' blocks have n <= 60,
// model blocks up to a few thousand in vectorized loops: the same 2e-5.
constexpr Tolerance kGroupNormTolerance{2e-5, 2e-5};

GroupNormParams parse_instance_norm(const Node& node);
GroupNormParams parse_group_norm(const Node& node);
std::vector<ValueInfo> infer_group_norm(const GroupNormParams& p, const std::vector<ValueInfo>& in);
// Each block in double, two passes, one rounding per output (ops/norm/group_norm_ref.cc).
void group_norm_ref(const GroupNormParams& p, const KernelIO& io);
// oneDNN batch_normalization_forward computing its statistics (forward_training) over X viewed as
// [1, N * G, 1, block]: its channels are the blocks (ops/norm/group_norm_dnnl.cc).
Kernel<GroupNormParams> group_norm_dnnl_kernel();

// G for X with C channels.
inline int64_t group_count(const GroupNormParams& p, int64_t C) { return p.groups ? p.groups : C; }

}  // namespace cnnx
