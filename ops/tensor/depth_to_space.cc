// DepthToSpace (opset 1+) and SpaceToDepth (opset 1+).
#include "ops/tensor/depth_to_space.h"

#include "ops/common/data_movement.h"

namespace cnnx {

namespace {

int64_t blocksize_of(const Node& node) {
  const int64_t b = node.attrs.require_int("blocksize");
  require(b >= 1 && b <= 65536, "attribute 'blocksize' must be in [1, 65536], got ", b);
  return b;
}

}  // namespace

DepthToSpaceParams parse_depth_to_space(const Node& node) {
  require_inputs(node, 1, 1);
  require_outputs(node, 1, 1);
  if (node.opset >= 11) node.attrs.allow_only({"blocksize", "mode"});
  else node.attrs.allow_only({"blocksize"});
  DepthToSpaceParams p;
  p.blocksize = blocksize_of(node);
  const std::string mode = node.attrs.get_string("mode", "DCR");
  require(mode == "DCR" || mode == "CRD", "attribute 'mode' = '", mode, "' is not DCR or CRD");
  p.crd = mode == "CRD";
  return p;
}

DepthToSpaceParams parse_space_to_depth(const Node& node) {
  check_node(node, 1, 1, {"blocksize"});
  DepthToSpaceParams p;
  p.blocksize = blocksize_of(node);
  p.to_space = false;
  return p;
}

std::vector<ValueInfo> infer_depth_to_space(const DepthToSpaceParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  require(x.rank() == 4, "input must be 4-D (NCHW), got shape ", to_string(x.shape));
  const int64_t b = p.blocksize, bb = b * b;
  auto mul = [](int64_t d, int64_t f) { return d < 0 ? kUnknownDim : checked_mul(d, f, "output dim"); };
  Shape out = x.shape;
  if (p.to_space) {
    if (x.shape[1] >= 0)
      require(x.shape[1] % bb == 0, "channels ", x.shape[1], " are not a multiple of blocksize^2 = ", bb);
    out[1] = x.shape[1] < 0 ? kUnknownDim : x.shape[1] / bb;
    out[2] = mul(x.shape[2], b);
    out[3] = mul(x.shape[3], b);
  } else {
    for (size_t a = 2; a < 4; ++a)
      if (x.shape[a] >= 0)
        require(x.shape[a] % b == 0, "dim ", a, " (", x.shape[a], ") is not a multiple of blocksize ", b);
    out[1] = mul(x.shape[1], bb);
    out[2] = x.shape[2] < 0 ? kUnknownDim : x.shape[2] / b;
    out[3] = x.shape[3] < 0 ? kUnknownDim : x.shape[3] / b;
  }
  return {ValueInfo::of(x.dtype, out)};
}

}  // namespace cnnx
