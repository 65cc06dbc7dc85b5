// An ONNX AveragePool geometry seen from PyTorch: the F.avg_pool{1,2,3}d call that writes it, or why there is
// none, and where PyTorch's output size or divisors would differ from ONNX's. Part of `cnnx pool avg`
// (lab/avg_pool_explain.h).
//
// PyTorch's rules (ATen's pooling_output_shape and its average pooling kernels): one pad per axis applied to
// both sides, pad <= kernel / 2, no dilation, no SAME padding;
//   out = floor((in + 2p - k + (ceil ? s - 1 : 0)) / s) + 1, then with ceil_mode one less if the last window
//         would start at or past in + p (in the right padding);
//   window o spans [o*s - p, min(o*s - p + k, in + p)); divisor: its length with count_include_pad, else the
//         cells inside [0, in).
#pragma once

#include <string>
#include <vector>

#include "api/tools_facade.h"  // the pooling geometry (ops/pool/pool_geometry.h)

namespace cnnx::lab {

struct TorchAvgPool {
  bool expressible = true;               // one F.avg_pool*d call computes this geometry
  std::string call;                      // that call, e.g. "F.avg_pool2d(x, kernel_size=[3,3], ...)"
  std::vector<std::string> reasons;      // why it is not expressible (or, for SAME_*, what the call stands for)
  std::vector<std::string> differences;  // output sizes or window divisors that differ from ONNX's; when
                                         // expressible only
};

// An AveragePool's window attributes `w` and count_include_pad, and its geometry `g` resolved against a known
// input (resolve_pool_geometry). SAME_* padding alone stays expressible: the call then uses the pads ONNX
// resolved (when they are symmetric).
TorchAvgPool torch_avg_pool(const PoolWindow& w, bool count_include_pad, const PoolGeometry& g);

}  // namespace cnnx::lab
