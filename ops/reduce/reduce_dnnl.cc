// oneDNN reduction for the Reduce* ops on float32 data over constant axes (the attribute, or a constant input
// 1): src is X's plain shape, dst the same with reduced dims 1 (the output's bytes, whatever keepdims says).
//   ReduceSum reduction_sum, ReduceMean reduction_mean, ReduceProd reduction_mul,
//   ReduceL1 norm_lp_sum p=1, ReduceL2 norm_lp_sum p=2, ReduceSumSquare norm_lp_power_p_sum p=2 (eps 0).
// Not here: ReduceLogSum and ReduceLogSumExp (no primitive computes a log of a sum), ReduceMax and ReduceMin
// (oneDNN's max/min do not promise ONNX's NaN propagation, which is data-dependent and cannot decline), axes
// known only at run time, and empty reductions (no axis reduced: a copy; zero-size data).
#include "dnnl/primitive_kernel.h"
#include "ops/reduce/reduce.h"

namespace cnnx {

namespace {

using namespace dnnl;

// The algorithm and its p for a kind; false when no primitive computes it.
bool algorithm_of(ReduceKind kind, algorithm& alg, float& p, std::string& why) {
  p = 0;
  switch (kind) {
    case ReduceKind::sum: alg = algorithm::reduction_sum; return true;
    case ReduceKind::mean: alg = algorithm::reduction_mean; return true;
    case ReduceKind::prod: alg = algorithm::reduction_mul; return true;
    case ReduceKind::l1: alg = algorithm::reduction_norm_lp_sum, p = 1; return true;
    case ReduceKind::l2: alg = algorithm::reduction_norm_lp_sum, p = 2; return true;
    case ReduceKind::sum_square: alg = algorithm::reduction_norm_lp_power_p_sum, p = 2; return true;
    case ReduceKind::max:
    case ReduceKind::min: why = "oneDNN's max/min reduction does not promise ONNX's NaN propagation"; return false;
    case ReduceKind::log_sum:
    case ReduceKind::log_sum_exp: why = "no oneDNN primitive takes the log of a sum"; return false;
  }
  why = "unknown reduction";
  return false;
}

}  // namespace

Kernel<ReduceParams> reduce_dnnl_kernel() {
  return {"dnnl", [](const std::shared_ptr<const ReduceParams>& params, const KernelArgs& a) -> Compiled {
            const ReduceParams& p = *params;
            algorithm alg{};
            float lp = 0;
            std::string why;
            if (!algorithm_of(p.kind, alg, lp, why)) return Compiled::decline(why);
            why = dnnl_declines_inputs(a.in, 0, 1);
            if (!why.empty()) return Compiled::decline(why);
            std::vector<int64_t> axes = p.axes;
            if (p.axes_from_input && present(a.in, 1) && !constant_ints(a.in, 1, axes))
              return Compiled::decline("axes are known only at run time");
            const Shape& x = a.in[0].shape;
            const std::vector<bool> reduced = resolve_reduce_axes(p, axes, int64_t(x.size()));
            bool any = false;
            Shape kept = x;
            for (size_t d = 0; d < x.size(); ++d)
              if (reduced[d]) any = true, kept[d] = 1;
            if (!any) return Compiled::decline("no axis is reduced: the output is a copy of the input");
            return compile_or_refuse([&] {
              const memory::desc src_md = plain_f32_desc(x), dst_md = plain_f32_desc(kept);
              const reduction::primitive_desc pd(reduction::desc(alg, src_md, dst_md, lp, 0.f), dnnl_attr(), dnnl_engine());
              return std::make_unique<DnnlPrimitiveKernel>(
                  pd, DnnlTensorArgs{{DNNL_ARG_SRC, in(0), src_md}, {DNNL_ARG_DST, out(0), dst_md}});
            });
          }};
}

}  // namespace cnnx
