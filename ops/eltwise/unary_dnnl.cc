// oneDNN kernels of the unary ops: eltwise_forward on the tensor viewed as 1-D [numel] (an elementwise op
// does not care about the shape, and a 1-D view has no rank limit), or in the blocked layout it arrives in. An op
// is one or more eltwise steps: the first reads the input, the next ones work in place on the output. The plan
// may give the output the input's buffer (in_place_input): oneDNN eltwise runs with src == dst.
//
// oneDNN's relu and clip turn a NaN input into a number (relu 0, clip its lower bound; HardSigmoid 0), its exp
// into +inf, and its log reads a denormal as the smallest normal (on an AVX2 EPYC; other instruction sets may
// differ): steps that do on this CPU, found by running them once on NaN, infinities and denormals
// (mishandles_special_inputs), run out of place, and those elements are computed again from the input
// afterwards (ops/common/special_values.h).
// Relu alone is one vectorized pass that keeps NaN instead (relu_keeping_nan): in place, as oneDNN's was, and
// as fast (0.11-0.19 ms for [1, 64, 112, 112] at 2 threads either way on an AVX2 EPYC).
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <tuple>

#include "dnnl/primitive_kernel.h"
#include "engine/compare.h"
#include "ops/common/activation_dnnl.h"
#include "ops/common/special_values.h"
#include "ops/eltwise/unary.h"

namespace cnnx {

namespace {

using namespace dnnl;

std::vector<eltwise_forward::primitive_desc> describe(const std::vector<EltwiseStep>& steps, const memory::desc& md) {
  std::vector<eltwise_forward::primitive_desc> pds;
  for (const EltwiseStep& s : steps) {
    const eltwise_forward::desc desc(prop_kind::forward_inference, dnnl_algorithm(s.algorithm), md, s.alpha, s.beta);
    pds.emplace_back(desc, dnnl_attr(), dnnl_engine());
  }
  return pds;
}

class EltwiseDnnl : public CompiledKernel {
 public:
  EltwiseDnnl(const std::vector<eltwise_forward::primitive_desc>& pds, const memory::desc& md, const Layout& arriving,
              size_t inputs, const ActivationDef& row, const ActivationArgs& args, bool mends, bool relu)
      : md_(md), layouts_(follow_layouts(arriving, inputs)), row_(row), args_(args), mends_(mends), relu_(relu) {
    for (const eltwise_forward::primitive_desc& pd : pds) steps_.emplace_back(pd);
  }

  const KernelLayouts* layouts() const override { return &layouts_; }
  // Elementwise: dst may be src's buffer (oneDNN eltwise runs in place), unless special inputs are mended.
  int in_place_input() const override { return mends_ ? -1 : 0; }

  void run(const KernelIO& io) const override {
    if (io.in[0]->numel() != io.out[0]->numel()) fail("input and output sizes differ");
    if (relu_) {  // padding is 0, and stays 0
      relu_keeping_nan(io.in[0]->data<float>(), io.out[0]->data<float>(), int64_t(md_.get_size() / sizeof(float)));
      return;
    }
    const DnnlMemoryArg src = dnnl_wrap(md_, *io.in[0]), dst = dnnl_wrap(md_, *io.out[0]);
    for (size_t i = 0; i < steps_.size(); ++i)
      steps_[i].execute(io.context, {{DNNL_ARG_SRC, i == 0 ? src : dst}, {DNNL_ARG_DST, dst}});
    if (mends_)
      recompute_special_inputs(row_, args_, io.in[0]->data<float>(), io.out[0]->data<float>(),
                               int64_t(md_.get_size() / sizeof(float)));
  }

 private:
  memory::desc md_;  // the whole tensor as 1-D when plain, else its blocked layout (padding included)
  KernelLayouts layouts_;
  const ActivationDef& row_;
  ActivationArgs args_;
  bool mends_;  // oneDNN mishandles NaN, infinite or denormal inputs of the steps: computed again from them
  bool relu_;   // the steps are one relu: relu_keeping_nan instead
  std::vector<DnnlPrimitive> steps_;
};

// Whether the steps give another result than the row's reference for NaN, an infinity or a denormal on this
// CPU: run once per row and attributes on a few such values (and some ordinary ones), and remembered.
bool mishandles_special_inputs(const ActivationDef& row, const ActivationArgs& args, const std::vector<EltwiseStep>& steps) {
  static std::mutex mutex;
  static std::map<std::tuple<const ActivationDef*, uint32_t, uint32_t>, bool> known;
  uint32_t alpha_bits, beta_bits;  // the bits: a NaN attribute is a key like any other
  std::memcpy(&alpha_bits, &args.alpha, 4);
  std::memcpy(&beta_bits, &args.beta, 4);
  const auto key = std::make_tuple(&row, alpha_bits, beta_bits);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = known.find(key); it != known.end()) return it->second;
  }
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const std::vector<float> values = {std::numeric_limits<float>::quiet_NaN(), kInf, -kInf, 1e-40f, -1e-40f, 1e-45f,
                                     -1e-45f, 0.f, -0.f, 0.5f, -0.5f, 3.f, -3.f, 90.f, -90.f, 1e30f};
  const int64_t n = int64_t(values.size());
  Tensor x(DType::f32, {n}), y(DType::f32, {n}), want(DType::f32, {n});
  for (int64_t i = 0; i < n; ++i) {
    x.data<float>()[i] = values[size_t(i)];
    want.data<float>()[i] = float(row.reference(double(values[size_t(i)]), args));
  }
  const memory::desc md = plain_f32_desc({n});
  const DnnlMemoryArg src = dnnl_wrap(md, x), dst = dnnl_wrap(md, y);
  const std::vector<eltwise_forward::primitive_desc> pds = describe(steps, md);
  for (size_t i = 0; i < pds.size(); ++i)  // a one-off run: no run context
    DnnlPrimitive(pds[i]).execute(nullptr, {{DNNL_ARG_SRC, i == 0 ? src : dst}, {DNNL_ARG_DST, dst}});
  const bool differs = !compare(y, want, row.tolerance).within;  // the rule every check uses (engine/compare.h)
  std::lock_guard<std::mutex> lock(mutex);
  known[key] = differs;
  return differs;
}

// The row's steps over input 0, in the layout it arrives in when oneDNN has a JIT kernel for that, or why not.
Compiled compile_steps(const ActivationDef& row, const ActivationArgs& args, const KernelArgs& a) {
  std::string why = dnnl_declines_inputs(a.in, 0, 1);
  std::vector<EltwiseStep> steps;
  if (why.empty()) why = row.dnnl(args, steps);
  if (!why.empty()) return Compiled::decline(why);
  const memory::desc plain = plain_f32_desc({checked_numel(a.in[0].shape)});
  // A blocked layout whose channels are padded (not a multiple of 16) gets oneDNN 2.6's reference logistic:
  // such an input is taken plain instead.
  Layout arriving = a.offered.in[0];
  if (!is_plain(arriving) && !runs_without_reference([&] { return describe(steps, md_of(arriving)); }))
    arriving = Layout();
  const memory::desc md = follow(arriving, plain);
  return compile_or_refuse(
      [&] {
        const bool relu = std::string(row.name) == "Relu";  // not LeakyRelu with alpha 0: 0 * -inf is NaN
        return std::make_unique<EltwiseDnnl>(describe(steps, md), md, arriving, a.in.size(), row, args,
                                             !relu && mishandles_special_inputs(row, args, steps), relu);
      });
}

}  // namespace

Kernel<ActivationParams> activation_dnnl_kernel() {
  return {"dnnl", [](const std::shared_ptr<const ActivationParams>& p, const KernelArgs& a) {
            return compile_steps(*p->activation, p->args, a);
          }};
}

// Clip's bounds must be known when the primitive is made.
Kernel<ClipParams> clip_dnnl_kernel() {
  return {"dnnl", [](const std::shared_ptr<const ClipParams>& p, const KernelArgs& a) {
            const std::string why = dnnl_declines_inputs(a.in, 0, 1);
            if (!why.empty()) return Compiled::decline(why);
            ActivationArgs bounds;
            if (!clip_bounds(*p, a.in, bounds))
              return Compiled::decline("the bounds are runtime tensors (the primitive is made once, with constant bounds)");
            return compile_steps(*find_activation("Clip"), bounds, a);
          }};
}

}  // namespace cnnx
