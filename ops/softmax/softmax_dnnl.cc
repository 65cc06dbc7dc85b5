// oneDNN Softmax and LogSoftmax: softmax_v2_forward (softmax_accurate / softmax_log) over one axis of a plain view of X. Opset 13+ normalizes dim `axis`: the view
// is [outer, len, inner] (or [outer, len] when nothing follows the axis). Before opset 13 the input is the 2-D
// [outer, len] of dims before and from `axis`, normalized along its rows. Either view has no rank limit.
//
// A row holding +inf is all NaN in ONNX (its sum is NaN); oneDNN 2.6 gives NaN only where the inf is and 0
// elsewhere: rows that are all NaN in ONNX are filled after the primitive (ops/common/special_values.h).
#include "dnnl/dnnl_runtime.h"
#include "ops/common/special_values.h"
#include "ops/softmax/softmax.h"

namespace cnnx {

namespace {

using namespace dnnl;

struct SoftmaxDesc {
  memory::desc data_md;
  softmax_v2_forward::primitive_desc pd;
  memory::dim outer, len, inner;  // the rows: outer x inner of len elements, inner apart
};

SoftmaxDesc describe(const SoftmaxParams& p, const Shape& x) {
  const size_t rank = x.size();
  const size_t axis = size_t(normalize_axis(p.axis, int64_t(rank), "axis"));
  const memory::dim OUTER = numel_range(x, 0, axis);
  const memory::dim LEN = numel_range(x, axis, p.coerce_2d ? rank : axis + 1);
  const memory::dim INNER = p.coerce_2d ? 1 : numel_range(x, axis + 1, rank);
  SoftmaxDesc d{{}, {}, OUTER, LEN, INNER};
  d.data_md = INNER == 1 ? plain_f32_desc({OUTER, LEN}) : plain_f32_desc({OUTER, LEN, INNER});
  const algorithm alg = p.kind == SoftmaxKind::log_softmax ? algorithm::softmax_log : algorithm::softmax_accurate;
  const softmax_v2_forward::desc desc(prop_kind::forward_inference, alg, d.data_md, d.data_md, 1);  // axis 1 of the view
  d.pd = softmax_v2_forward::primitive_desc(desc, dnnl_attr(), dnnl_engine());
  return d;
}

class SoftmaxDnnl : public CompiledKernel {
 public:
  explicit SoftmaxDnnl(SoftmaxDesc d) : d_(std::move(d)) {
    softmax_ = softmax_v2_forward(d_.pd);
    scratchpad_md_ = d_.pd.scratchpad_desc();
  }

  void run(const KernelIO& io) const override {
    dnnl_execute(io.context, softmax_, scratchpad_md_,
                 {{DNNL_ARG_SRC, dnnl_wrap(d_.data_md, *io.in[0])}, {DNNL_ARG_DST, dnnl_wrap(d_.data_md, *io.out[0])}});
    nan_softmax_rows(io.in[0]->data<float>(), io.out[0]->data<float>(), d_.outer, d_.len, d_.inner);
  }

 private:
  SoftmaxDesc d_;
  softmax_v2_forward softmax_;
  memory::desc scratchpad_md_;
};

}  // namespace

Kernel<SoftmaxParams> softmax_dnnl_kernel() {
  return {"dnnl", [](const std::shared_ptr<const SoftmaxParams>& params, const KernelArgs& a) -> Compiled {
            require(params->kind != SoftmaxKind::hardmax, "internal error: Hardmax has no oneDNN kernel");
            std::string why = dnnl_declines_inputs(a.in);
            if (!why.empty()) return Compiled::decline(why);
            return compile_or_refuse([&] { return std::make_unique<SoftmaxDnnl>(describe(*params, a.in[0].shape)); });
          }};
}

}  // namespace cnnx
