// FusedConv: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/conv/fused_conv.h"

#include <cmath>

#include "engine/float16.h"

namespace cnnx {

namespace {

// The reference Conv into Y, then Y = activation(Y + R) in double, rounded to float32 (then to float16 for
// FusedConvFloat16).
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
      if (p_->fusion.to_float16) y[i] = float16_to_float(float_to_float16(y[i]));
    }
  }

 private:
  std::shared_ptr<const FusedConvParams> p_;
  std::unique_ptr<CompiledKernel> conv_;
};

}  // namespace

Kernel<FusedConvParams> fused_conv_ref_kernel() {
  return {"ref", [](const std::shared_ptr<const FusedConvParams>& p, const KernelArgs& a) -> Compiled {
            return std::make_unique<FusedConvRef>(p, a.in);
          }};
}

}  // namespace cnnx
