// oneDNN Softmax and LogSoftmax: softmax_v2_forward (softmax_accurate / softmax_log) over one axis of a plain view of X. Opset 13+ normalizes dim `axis`: the view
// is [outer, len, inner] (or [outer, len] when nothing follows the axis). Before opset 13 the input is the 2-D
// [outer, len] of dims before and from `axis`, normalized along its rows. Either view has no rank limit.
//
// A row holding +inf is all NaN in ONNX (its sum is NaN); oneDNN 2.6 gives NaN only where the inf is and 0
// elsewhere: rows that are all NaN in ONNX are filled after the primitive (ops/common/special_values.h).
#include "dnnl/primitive_kernel.h"
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

// The primitive, then the rows ONNX makes all NaN (see above).
class SoftmaxDnnl : public DnnlPrimitiveKernel {
 public:
  explicit SoftmaxDnnl(const SoftmaxDesc& d)
      : DnnlPrimitiveKernel(d.pd, {{DNNL_ARG_SRC, in(0), d.data_md}, {DNNL_ARG_DST, out(0), d.data_md}}),
        outer_(d.outer), len_(d.len), inner_(d.inner) {}

  void run(const KernelIO& io) const override {
    execute(io);
    nan_softmax_rows(io.in[0]->data<float>(), io.out[0]->data<float>(), outer_, len_, inner_);
  }

 private:
  memory::dim outer_, len_, inner_;
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
