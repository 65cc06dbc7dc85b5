// oneDNN Split: per output, one reorder from a sub-memory view of the input (in the layout it arrives in) to
// the output, whose dims are ordered like the input's. Float32 only.
#include <cstring>
#include <string>

#include "dnnl/dnnl_runtime.h"
#include "ops/tensor/split.h"

namespace cnnx {

namespace {

class SplitDnnl : public CompiledKernel {
 public:
  SplitDnnl(const dnnl::memory::desc& input, std::vector<dnnl::memory::desc> views, std::vector<dnnl::memory::desc> outs,
            size_t inputs)
      : views_(std::move(views)), outs_(std::move(outs)) {
    layouts_.in.assign(inputs, Layout());
    layouts_.in[0] = layout_of(input);
    for (size_t i = 0; i < outs_.size(); ++i) {
      layouts_.out.push_back(layout_of(outs_[i]));
      reorders_.emplace_back(views_[i], outs_[i]);
    }
  }

  const KernelLayouts* layouts() const override { return &layouts_; }

  void run(const KernelIO& io) const override {
    void* x = const_cast<void*>(io.in[0]->raw());
    for (size_t i = 0; i < outs_.size(); ++i) {
      if (i >= io.out.size() || !io.out[i] || io.out[i]->numel() == 0) continue;
      if (reorders_[i]) reorders_[i].run(io.context, DnnlMemoryArg(views_[i], x), dnnl_wrap(outs_[i], *io.out[i]));
      else std::memcpy(io.out[i]->raw(), x, outs_[i].get_size());  // one part: the whole input, same layout
    }
  }

 private:
  std::vector<dnnl::memory::desc> views_, outs_;
  std::vector<DnnlReorder> reorders_;
  KernelLayouts layouts_;
};

// Views of `input` for parts `sizes` along `axis`, and the outputs' descriptors; throws dnnl::error when a
// view cuts inside a block.
void make_views(const dnnl::memory::desc& input, const Shape& shape, size_t axis, const std::vector<int64_t>& sizes,
                std::vector<dnnl::memory::desc>& views, std::vector<dnnl::memory::desc>& outs) {
  views.clear();
  outs.clear();
  Shape offsets(shape.size(), 0);
  for (int64_t s : sizes) {
    Shape part = shape;
    part[axis] = s;
    if (s > 0) {
      views.push_back(input.submemory_desc(part, offsets));
      outs.push_back(same_order_desc(layout_of(input), part));
    } else {  // nothing to copy
      views.push_back(dnnl::memory::desc());
      outs.push_back(dnnl::memory::desc());
    }
    offsets[axis] += s;
  }
}

Compiled compile_split(const std::shared_ptr<const SplitParams>& p, const KernelArgs& a) {
  std::string why = dnnl_declines_inputs(a.in, 0, 1);
  std::vector<int64_t> sizes;
  if (why.empty() && !constant_split_sizes(*p, a.in, sizes)) why = "the split sizes are known only at run time";
  if (!why.empty()) return Compiled::decline(why);
  const Shape& shape = a.in[0].shape;
  const size_t axis = size_t(normalize_axis(p->axis, int64_t(shape.size()), "axis"));
  return compile_or_refuse([&]() -> Compiled {
    dnnl::memory::desc input = dnnl_desc(a.offered.in[0], shape);
    std::vector<dnnl::memory::desc> views, outs;
    try {
      make_views(input, shape, axis, sizes, views, outs);
    } catch (const dnnl::error&) {  // a part starts inside a block (nChw16c): take the input plain
      input = plain_f32_desc(shape);
      make_views(input, shape, axis, sizes, views, outs);
    }
    return std::make_unique<SplitDnnl>(input, std::move(views), std::move(outs), a.in.size());
  });
}

}  // namespace

Kernel<SplitParams> split_dnnl_kernel() { return {"dnnl", compile_split}; }

}  // namespace cnnx
