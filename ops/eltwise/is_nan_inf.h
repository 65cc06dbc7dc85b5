// IsNaN (opset 9+) and IsInf (opset 10+): a bool per element of a float32 or float64 input saying whether it is
// NaN, or an infinity of a sign IsInf's `detect_negative` / `detect_positive` (both 1 by default) ask for.
// kExact. Reference kernel only: oneDNN 2.6 has no primitive with a bool output. PyTorch exports
// torch.isnan, torch.isinf and torch.nan_to_num with them.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct IsNanInfParams : OpParams {
  bool nan = false;  // IsNaN; else IsInf with the signs below
  bool negative = true, positive = true;
};

IsNanInfParams parse_is_nan(const Node& node);
IsNanInfParams parse_is_inf(const Node& node);
std::vector<ValueInfo> infer_is_nan_inf(const IsNanInfParams& p, const std::vector<ValueInfo>& in);
void is_nan_inf_ref(const IsNanInfParams& p, const KernelIO& io);

}  // namespace cnnx
