// oneDNN Concat: the concat primitive over float32 inputs as they arrive (plain or blocked; a blocked
// input keeps its layout, so the Concat of convolution outputs costs one copy and no reorders). The
// primitive picks dst's layout (format_tag::any), which follows its sources, unless a reader wishes dst in
// one. Empty inputs (0 along the axis, allowed by ONNX) decline: oneDNN refuses zero-sized sources.
#include "dnnl/primitive_kernel.h"
#include "ops/tensor/concat.h"

namespace cnnx {

namespace {

using namespace dnnl;

// The layouts to take: the inputs as they arrive (in float32: the plan converts those stored in bfloat16), dst
// as wished (plain: oneDNN's choice).
KernelLayouts concat_layouts(const std::vector<ValueInfo>& in, const KernelLayouts& offered) {
  KernelLayouts l{{}, {offered.out.empty() ? Layout() : offered.out[0]}};
  for (const Layout& arriving : offered.in) l.in.push_back(float32_layout(arriving));
  l.in.resize(in.size());
  return l;
}

concat::primitive_desc describe(const ConcatParams& p, const std::vector<ValueInfo>& in, const KernelLayouts& l) {
  const int axis = int(normalize_axis(p.axis, in[0].rank(), "axis"));
  std::vector<memory::desc> srcs;
  for (size_t i = 0; i < in.size(); ++i) srcs.push_back(dnnl_desc(l.in[i], in[i].shape));
  if (is_plain(l.out[0])) return concat::primitive_desc(axis, srcs, dnnl_engine(), dnnl_attr());
  return concat::primitive_desc(md_of(l.out[0]), axis, srcs, dnnl_engine(), dnnl_attr());
}

class ConcatDnnl : public CompiledKernel {
 public:
  ConcatDnnl(const concat::primitive_desc& pd, const KernelLayouts& l)
      : concat_(pd), dst_md_(pd.dst_desc()), layouts_{l.in, {layout_of(dst_md_)}} {
    for (size_t i = 0; i < l.in.size(); ++i) src_mds_.push_back(pd.src_desc(int(i)));
  }

  const KernelLayouts* layouts() const override { return &layouts_; }

  void run(const KernelIO& io) const override {
    DnnlArgs args{{DNNL_ARG_DST, dnnl_wrap(dst_md_, *io.out[0])}};
    for (size_t i = 0; i < io.in.size(); ++i)
      args.insert({DNNL_ARG_MULTIPLE_SRC + int(i), dnnl_wrap(src_mds_[i], *io.in[i])});
    concat_.execute(io.context, std::move(args));
  }

 private:
  DnnlPrimitive concat_;
  memory::desc dst_md_;
  std::vector<memory::desc> src_mds_;  // queried once: the arguments point at them while the primitive runs
  KernelLayouts layouts_;
};

Compiled compile_concat(const std::shared_ptr<const ConcatParams>& p, const KernelArgs& a) {
  const std::string why = dnnl_declines_inputs(a.in);
  if (!why.empty()) return Compiled::decline(why);
  const KernelLayouts l = concat_layouts(a.in, a.offered);
  concat::primitive_desc pd;
  const std::string refused = dnnl_refuses([&] { pd = describe(*p, a.in, l); });
  if (!refused.empty()) return Compiled::decline(refused);
  return std::make_unique<ConcatDnnl>(pd, l);
}

}  // namespace

Kernel<ConcatParams> concat_dnnl_kernel() { return {"dnnl", compile_concat}; }

}  // namespace cnnx
