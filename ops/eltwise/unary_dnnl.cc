// oneDNN kernels of the unary ops: eltwise_forward on the tensor viewed as 1-D [numel] (an elementwise op
// does not care about the shape, and a 1-D view has no rank limit), or in the blocked layout it arrives in. An op
// is one or more eltwise steps: the first reads the input, the next ones work in place on the output. The plan
// may give the output the input's buffer (in_place_input): oneDNN eltwise runs with src == dst.
//
// Known difference (data-dependent, so it cannot decline): oneDNN's relu and clip turn a NaN input into a
// number (relu 0, clip its lower bound; HardSigmoid 0), where the reference kernels keep NaN (HardSigmoid's
// gives 1).
#include <cmath>
#include <limits>

#include "engine/dnnl_runtime.h"
#include "ops/eltwise/unary.h"

namespace cnnx {

namespace {

using namespace dnnl;

struct EltwiseStep {
  algorithm algo;
  float alpha = 0, beta = 0;  // oneDNN's meaning, per algorithm
};

// The steps that compute the op for these params and inputs, or the reason oneDNN cannot.
using EltwisePlanner =
    std::function<std::string(const OpParams&, const std::vector<ValueInfo>& in, std::vector<EltwiseStep>&)>;

std::vector<eltwise_forward::primitive_desc> describe(const std::vector<EltwiseStep>& steps, const memory::desc& md) {
  std::vector<eltwise_forward::primitive_desc> pds;
  for (const EltwiseStep& s : steps) {
    const eltwise_forward::desc desc(prop_kind::forward_inference, s.algo, md, s.alpha, s.beta);
    pds.emplace_back(desc, dnnl_attr(), dnnl_engine());
  }
  return pds;
}

class EltwiseDnnl : public CompiledKernel {
 public:
  EltwiseDnnl(const std::vector<EltwiseStep>& steps, int64_t numel, const Layout& arriving, size_t inputs)
      : md_(follow(arriving, plain_f32_desc({numel}))), layouts_(follow_layouts(arriving, inputs)) {
    for (const eltwise_forward::primitive_desc& pd : describe(steps, md_))
      steps_.push_back({eltwise_forward(pd), pd.scratchpad_desc()});
  }

  const KernelLayouts* layouts() const override { return &layouts_; }
  // Elementwise: dst may be src's buffer (oneDNN eltwise runs in place).
  int in_place_input() const override { return 0; }

  void run(const KernelIO& io) const override {
    if (io.in[0]->numel() != io.out[0]->numel()) fail("input and output sizes differ");
    const memory src = dnnl_wrap(md_, *io.in[0]);
    const memory dst = dnnl_wrap(md_, *io.out[0]);
    for (size_t i = 0; i < steps_.size(); ++i)
      dnnl_execute(steps_[i].prim, steps_[i].scratchpad, {{DNNL_ARG_SRC, i == 0 ? src : dst}, {DNNL_ARG_DST, dst}});
  }

 private:
  struct Step {
    eltwise_forward prim;
    memory::desc scratchpad;
  };
  memory::desc md_;  // the whole tensor as 1-D when plain, else its blocked layout (padding included)
  KernelLayouts layouts_;
  std::vector<Step> steps_;
};

KernelDef eltwise_kernel(EltwisePlanner plan) {
  KernelDef k;
  k.name = "dnnl";
  k.declines = [plan](const OpParams& p, const std::vector<ValueInfo>& in) {
    std::string why = dnnl_declines_inputs(in, 0, 1);
    std::vector<EltwiseStep> steps;
    if (why.empty()) why = plan(p, in, steps);
    if (why.empty()) why = dnnl_refuses([&] { describe(steps, plain_f32_desc({checked_numel(in[0].shape)})); });
    return why;
  };
  k.compile = [plan](const ParamsPtr& p, const std::vector<ValueInfo>& in, const std::vector<ValueInfo>&,
                     const KernelLayouts& offered) {
    std::vector<EltwiseStep> steps;
    const std::string why = plan(*p, in, steps);
    require(why.empty(), why);
    // A blocked layout whose channels are padded (not a multiple of 16) gets oneDNN 2.6's reference logistic:
    // such an input is taken plain instead.
    Layout arriving = offered.in[0];
    if (!is_plain(arriving) && !runs_without_reference([&] { return describe(steps, arriving); })) arriving = Layout();
    return std::unique_ptr<CompiledKernel>(new EltwiseDnnl(steps, checked_numel(in[0].shape), arriving, in.size()));
  };
  return k;
}

// An op that is always the same steps.
KernelDef fixed_eltwise_kernel(std::vector<EltwiseStep> steps) {
  return eltwise_kernel([steps](const OpParams&, const std::vector<ValueInfo>&, std::vector<EltwiseStep>& out) {
    out = steps;
    return std::string();
  });
}

// Clip's bound i as a float: the attribute (before opset 11), the constant input, or `fallback` when absent.
// False when the bound is an input without constant data.
bool clip_bound(const ClipParams& p, const std::vector<ValueInfo>& in, size_t i, float attribute, float fallback,
                float& bound) {
  if (p.attribute_bounds) {
    bound = attribute;
    return true;
  }
  bound = fallback;
  if (!present(in, i)) return true;
  if (!in[i].constant) return false;
  if (in[i].constant->numel() > 0) bound = in[i].constant->data<float>()[0];
  return true;
}

}  // namespace

// y = x > 0 ? x : alpha * x; alpha 0 is ReLU.
KernelDef relu_dnnl_kernel() { return fixed_eltwise_kernel({{algorithm::eltwise_relu, 0.f, 0.f}}); }

// LeakyRelu is eltwise_relu with its negative slope as alpha (x >= 0 and x > 0 agree: both give 0 at 0).
KernelDef leaky_relu_dnnl_kernel() {
  return eltwise_kernel([](const OpParams& op, const std::vector<ValueInfo>&, std::vector<EltwiseStep>& steps) {
    const auto& p = static_cast<const AlphaBetaParams&>(op);
    steps = {{algorithm::eltwise_relu, p.alpha, 0.f}};
    return std::string();
  });
}

// Sigmoid is oneDNN's logistic.
KernelDef sigmoid_dnnl_kernel() { return fixed_eltwise_kernel({{algorithm::eltwise_logistic, 0.f, 0.f}}); }

KernelDef tanh_dnnl_kernel() { return fixed_eltwise_kernel({{algorithm::eltwise_tanh, 0.f, 0.f}}); }

// oneDNN 2.6 has no hardsigmoid algorithm: alpha * x + beta (eltwise_linear), then clip to [0, 1] in place.
KernelDef hard_sigmoid_dnnl_kernel() {
  return eltwise_kernel([](const OpParams& op, const std::vector<ValueInfo>&, std::vector<EltwiseStep>& steps) {
    const auto& p = static_cast<const AlphaBetaParams&>(op);
    steps = {{algorithm::eltwise_linear, p.alpha, p.beta}, {algorithm::eltwise_clip_v2, 0.f, 1.f}};
    return std::string();
  });
}

// oneDNN 2.6 hardswish is x * min(max(x + 3, 0), 6) / 6, ONNX's x * max(0, min(1, x / 6 + 0.5)); its
// alpha and beta are ignored.
KernelDef hard_swish_dnnl_kernel() { return fixed_eltwise_kernel({{algorithm::eltwise_hardswish, 0.f, 0.f}}); }

// eltwise_clip_v2 with alpha = min, beta = max. oneDNN gives alpha where x <= alpha, ONNX min(max(x, min), max)
// gives max everywhere when min > max: that case declines.
KernelDef clip_dnnl_kernel() {
  return eltwise_kernel([](const OpParams& op, const std::vector<ValueInfo>& in, std::vector<EltwiseStep>& steps) {
    const auto& p = static_cast<const ClipParams&>(op);
    float lo = 0, hi = 0;
    if (!clip_bound(p, in, 1, p.min, std::numeric_limits<float>::lowest(), lo) ||
        !clip_bound(p, in, 2, p.max, std::numeric_limits<float>::max(), hi))
      return std::string("the bounds are runtime tensors (the primitive is made once, with constant bounds)");
    if (std::isnan(lo) || std::isnan(hi)) return std::string("a bound is NaN");
    if (lo > hi) return std::string("min > max (oneDNN clips to min there; ONNX gives max)");
    steps = {{algorithm::eltwise_clip_v2, lo, hi}};
    return std::string();
  });
}

}  // namespace cnnx
