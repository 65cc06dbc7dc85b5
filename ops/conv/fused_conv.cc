#include "ops/conv/fused_conv.h"

#include <cmath>

namespace cnnx {

std::string ConvFusion::summary() const {
  std::string s = "Conv";
  if (residual) s += "+Add";
  if (activation) s += std::string("+") + activation->name;
  if (to_float16) s += "+RoundToFloat16";
  return s;
}

std::vector<ValueInfo> infer_fused_conv(const FusedConvParams& p, const std::vector<ValueInfo>& in) {
  std::vector<ValueInfo> conv_in(in.begin(), in.begin() + std::min<size_t>(in.size(), 3));
  std::vector<ValueInfo> out = infer_conv(p.conv, conv_in);
  if (p.fusion.residual)
    require(present(in, 3) && in[3].dtype == DType::f32 && in[3].shape == out[0].shape,
            "the residual input must be float32 ", to_string(out[0].shape));
  return out;
}

}  // namespace cnnx
