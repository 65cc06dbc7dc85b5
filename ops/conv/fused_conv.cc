#include "ops/conv/fused_conv.h"

#include <cmath>


namespace cnnx {

namespace {

// The reference Conv into Y, then Y = activation(Y + R) in double.
class FusedConvRef : public CompiledKernel {
 public:
  FusedConvRef(std::shared_ptr<const FusedConvParams> p, const std::vector<ValueInfo>& in)
      : p_(std::move(p)), conv_(conv_ref(p_->conv, {in.begin(), in.begin() + std::min<size_t>(in.size(), 3)})) {}

  void run(const KernelIO& io) const override {
    KernelIO conv_io{{io.in.begin(), io.in.begin() + std::min<size_t>(io.in.size(), 3)}, io.out};
    conv_->run(conv_io);
    float* y = io.out[0]->data<float>();
    const float* r = p_->fusion.residual ? io.in[3]->data<float>() : nullptr;
    const ActivationDef* act = p_->fusion.activation;
    for (int64_t i = 0, n = io.out[0]->numel(); i < n; ++i) {
      const double v = r ? double(y[i]) + double(r[i]) : double(y[i]);
      y[i] = float(act ? act->reference(v, p_->fusion.args) : v);
    }
  }

 private:
  std::shared_ptr<const FusedConvParams> p_;
  std::unique_ptr<CompiledKernel> conv_;
};

}  // namespace

std::string ConvFusion::summary() const {
  std::string s = "Conv";
  if (residual) s += "+Add";
  if (activation) s += std::string("+") + activation->name;
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

Kernel<FusedConvParams> fused_conv_ref_kernel() {
  return {"ref", [](const std::shared_ptr<const FusedConvParams>& p, const KernelArgs& a) -> Compiled {
            return std::make_unique<FusedConvRef>(p, a.in);
          }};
}

}  // namespace cnnx
