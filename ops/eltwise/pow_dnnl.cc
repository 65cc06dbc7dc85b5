// oneDNN kernel of Pow with one constant exponent: eltwise_forward's pow (alpha * x^beta, alpha = 1) on X
// viewed as 1-D. oneDNN 2.6 has no binary pow, so an exponent tensor of more than one element, or one known
// only at run time, runs the reference.
#include <cmath>

#include "ops/eltwise/binary.h"
#include "dnnl/primitive_kernel.h"

namespace cnnx {

namespace {

using namespace dnnl;

class PowDnnl : public CompiledKernel {
 public:
  PowDnnl(const memory::desc& md, float exponent) : md_(md) {
    const eltwise_forward::desc desc(prop_kind::forward_inference, algorithm::eltwise_pow, md, 1.f, exponent);
    const eltwise_forward::primitive_desc pd(desc, dnnl_attr(), dnnl_engine());
    prim_ = DnnlPrimitive(pd);
  }
  // Elementwise over X's elements: dst may be X's buffer.
  int in_place_input() const override { return 0; }
  void run(const KernelIO& io) const override {
    prim_.execute(io.context, {{DNNL_ARG_SRC, dnnl_wrap(md_, *io.in[0])}, {DNNL_ARG_DST, dnnl_wrap(md_, *io.out[0])}});
  }

 private:
  memory::desc md_;
  DnnlPrimitive prim_;
};

}  // namespace

Kernel<BinaryParams> pow_dnnl_kernel() {
  return {"dnnl", [](const std::shared_ptr<const BinaryParams>&, const KernelArgs& a) -> Compiled {
            std::string why = dnnl_declines_inputs(a.in, 0, 1);
            if (!why.empty()) return Compiled::decline(why);
            const ValueInfo& e = a.in[1];
            if (!e.constant)
              return Compiled::decline("the exponent is a runtime tensor (oneDNN's eltwise pow takes one constant)");
            if (e.constant->numel() != 1)
              return Compiled::decline("the exponent has " + std::to_string(e.constant->numel()) +
                                       " elements (oneDNN's eltwise pow takes one)");
            const int64_t n = checked_numel(a.in[0].shape);
            if (checked_numel(a.out[0].shape) != n) return Compiled::decline("the exponent's shape grows X's");
            const double exponent = e.constant->double_at(0);
            if (!std::isfinite(exponent) || double(float(exponent)) != exponent)
              return Compiled::decline("the exponent " + std::to_string(exponent) + " is not a finite float32");
            // oneDNN 2.6 computes x^0.5 as sqrt(x): NaN for -inf, where pow gives +inf (C, numpy).
            if (exponent == 0.5) return Compiled::decline("exponent 0.5: oneDNN takes sqrt, NaN for -inf (pow: +inf)");
            return compile_or_refuse([&] { return std::make_unique<PowDnnl>(plain_f32_desc({n}), float(exponent)); });
          }};
}

}  // namespace cnnx
