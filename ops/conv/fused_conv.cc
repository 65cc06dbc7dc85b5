#include "ops/conv/fused_conv.h"

#include <cmath>

#include "engine/op_registry.h"

namespace cnnx {

namespace {

const char* activation_name(Activation a) {
  switch (a) {
    case Activation::none: return "";
    case Activation::relu: return "Relu";
    case Activation::leaky_relu: return "LeakyRelu";
    case Activation::clip: return "Clip";
    case Activation::sigmoid: return "Sigmoid";
    case Activation::tanh: return "Tanh";
    case Activation::hard_sigmoid: return "HardSigmoid";
    case Activation::hard_swish: return "HardSwish";
    case Activation::swish: return "Swish";
  }
  return "";
}

std::vector<ValueInfo> infer_fused_conv(const FusedConvParams& p, const std::vector<ValueInfo>& in) {
  std::vector<ValueInfo> conv_in(in.begin(), in.begin() + std::min<size_t>(in.size(), 3));
  std::vector<ValueInfo> out = infer_conv(p.conv, conv_in);
  if (p.fusion.residual)
    require(present(in, 3) && in[3].dtype == DType::f32 && in[3].shape == out[0].shape,
            "the residual input must be float32 ", to_string(out[0].shape));
  return out;
}

// The reference Conv into Y, then Y = activation(Y + R) in double.
class FusedConvRef : public CompiledKernel {
 public:
  FusedConvRef(std::shared_ptr<const FusedConvParams> p, const std::vector<ValueInfo>& in,
               const std::vector<ValueInfo>& out)
      : p_(std::move(p)) {
    std::vector<ValueInfo> conv_in(in.begin(), in.begin() + std::min<size_t>(in.size(), 3));
    conv_ = conv_ref_kernel().compile(std::make_shared<ConvParams>(p_->conv), conv_in, out, {});
  }

  void run(const KernelIO& io) const override {
    KernelIO conv_io{{io.in.begin(), io.in.begin() + std::min<size_t>(io.in.size(), 3)}, io.out};
    conv_->run(conv_io);
    float* y = io.out[0]->data<float>();
    const float* r = p_->fusion.residual ? io.in[3]->data<float>() : nullptr;
    for (int64_t i = 0, n = io.out[0]->numel(); i < n; ++i)
      y[i] = float(apply_activation(p_->fusion, r ? double(y[i]) + double(r[i]) : double(y[i])));
  }

 private:
  std::shared_ptr<const FusedConvParams> p_;
  std::unique_ptr<CompiledKernel> conv_;
};

KernelDef fused_conv_ref_kernel() {
  KernelDef k;
  k.name = "ref";
  k.declines = [](const OpParams&, const std::vector<ValueInfo>&) { return std::string(); };
  k.compile = [](const ParamsPtr& p, const std::vector<ValueInfo>& in, const std::vector<ValueInfo>& out,
                 const KernelLayouts&) {
    return std::unique_ptr<CompiledKernel>(
        new FusedConvRef(std::static_pointer_cast<const FusedConvParams>(p), in, out));
  };
  return k;
}

}  // namespace

std::string ConvFusion::summary() const {
  std::string s = "Conv";
  if (residual) s += "+Add";
  if (activation != Activation::none) s += std::string("+") + activation_name(activation);
  return s;
}

double apply_activation(const ConvFusion& f, double x) {
  auto sigmoid = [](double v) { return 1 / (1 + std::exp(-v)); };
  auto clamp = [](double v, double lo, double hi) { return v < lo ? lo : (v > hi ? hi : v); };  // keeps NaN
  switch (f.activation) {
    case Activation::none: return x;
    case Activation::relu: return x < 0 ? 0 : x;
    case Activation::leaky_relu: return x < 0 ? f.alpha * x : x;
    case Activation::clip: return clamp(x, f.alpha, f.beta);
    case Activation::sigmoid: return sigmoid(x);
    case Activation::tanh: return std::tanh(x);
    case Activation::hard_sigmoid: return clamp(double(f.alpha) * x + f.beta, 0, 1);
    case Activation::hard_swish: return x * clamp(x / 6 + 0.5, 0, 1);
    case Activation::swish: return x * sigmoid(x);
  }
  return x;
}

void register_fused_conv(OpRegistry& r) {
  OpDef d;
  d.domain = kInternalDomain;
  d.type = "FusedConv";
  d.parse = [](const Node&) -> ParamsPtr { fail("FusedConv is made by cnnx's fuse-conv pass, not read from models"); };
  d.infer = inferer<FusedConvParams>(infer_fused_conv);
  // The convolution's tolerance: the add and the activation are one or two more roundings on top.
  d.tolerance = kConvTolerance;
  d.kernels = {fused_conv_dnnl_kernel(), fused_conv_ref_kernel()};
  r.add(std::move(d));
}

}  // namespace cnnx
