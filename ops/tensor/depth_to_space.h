// DepthToSpace and SpaceToDepth on 4-D NCHW tensors of any element type, block size b >= 1.
// DepthToSpace [N, C*b*b, H, W] -> [N, C, H*b, W*b]; mode (opset 11+) DCR (default; the only one before 11):
// y[n, c, h*b+i, w*b+j] = x[n, (i*b+j)*C + c, h, w]; CRD: x[n, c*b*b + i*b + j, h, w].
// SpaceToDepth is DCR's inverse: [N, C, H*b, W*b] -> [N, C*b*b, H, W].
// Both are a 6-D transpose: the oneDNN kernel is one reorder between strided views (depth_to_space_dnnl.cc,
// float32, plain layouts); kExact.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct DepthToSpaceParams : OpParams {
  int64_t blocksize = 1;
  bool crd = false;       // DepthToSpace mode CRD
  bool to_space = true;   // false: SpaceToDepth
};

DepthToSpaceParams parse_depth_to_space(const Node& node);
DepthToSpaceParams parse_space_to_depth(const Node& node);
std::vector<ValueInfo> infer_depth_to_space(const DepthToSpaceParams& p, const std::vector<ValueInfo>& in);
void depth_to_space_ref(const DepthToSpaceParams& p, const KernelIO& io);
Kernel<DepthToSpaceParams> depth_to_space_dnnl_kernel();

}  // namespace cnnx
