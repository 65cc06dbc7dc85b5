// A oneDNN primitive and the kernel that runs one, in the shape of oneDNN's own examples: a primitive made once
// from its primitive descriptor, then executed per run with its arguments as a table of memory (here: the
// node's tensors, each seen through a descriptor chosen at compile time).
//
//   return std::make_unique<DnnlPrimitiveKernel>(pd, DnnlTensorArgs{{DNNL_ARG_SRC, in(0), md}, {DNNL_ARG_DST, out(0), md}},
//                                                follow_layouts(arriving, 1));
//
// A kernel whose run is more than that (a mend after the primitive, arguments it computes per run) derives
// from DnnlPrimitiveKernel and overrides run(), calling execute() for the primitive.
#pragma once

#include <utility>
#include <vector>

#include "dnnl/dnnl_runtime.h"

namespace cnnx {

// One primitive with the scratchpad it asks for, made with dnnl_attr() (scratchpad_mode::user).
class DnnlPrimitive {
 public:
  DnnlPrimitive() = default;
  explicit DnnlPrimitive(const dnnl::primitive_desc_base& pd) : prim_(pd.get()), scratchpad_(pd.scratchpad_desc()) {}
  void execute(RunContext* context, const DnnlArgs& args) const { dnnl_execute(context, prim_, scratchpad_, args); }

 private:
  dnnl::primitive prim_;
  dnnl::memory::desc scratchpad_;
};

// Which of the node's tensors a primitive argument is: input or output `index`.
struct TensorRef {
  bool output = false;
  size_t index = 0;
};
inline TensorRef in(size_t index) { return {false, index}; }
inline TensorRef out(size_t index) { return {true, index}; }

// One argument of the table: DNNL_ARG_*, the tensor, and the descriptor the primitive sees it through.
struct DnnlTensorArg {
  int arg;
  TensorRef tensor;
  dnnl::memory::desc md;
};
using DnnlTensorArgs = std::vector<DnnlTensorArg>;

// A kernel that runs one primitive over the node's tensors. `layouts`: those the kernel reads and writes in
// (empty: plain); `in_place_input`: an input whose buffer output 0 may share (CompiledKernel::in_place_input),
// or -1.
class DnnlPrimitiveKernel : public CompiledKernel {
 public:
  DnnlPrimitiveKernel(const dnnl::primitive_desc_base& pd, DnnlTensorArgs args, KernelLayouts layouts = {},
                      int in_place_input = -1)
      : prim_(pd), args_(std::move(args)), layouts_(std::move(layouts)), in_place_(in_place_input) {}

  void run(const KernelIO& io) const override { execute(io); }
  const KernelLayouts* layouts() const override {
    return layouts_.in.empty() && layouts_.out.empty() ? nullptr : &layouts_;
  }
  int in_place_input() const override { return in_place_; }

 protected:
  // Runs the primitive on the table's tensors of `io`, plus `more` arguments.
  void execute(const KernelIO& io, std::initializer_list<std::pair<int, DnnlMemoryArg>> more = {}) const {
    DnnlArgs args(more);
    args.reserve(more.size() + args_.size());
    for (const DnnlTensorArg& a : args_)
      args.insert({a.arg, dnnl_wrap(a.md, a.tensor.output ? *io.out[a.tensor.index] : *io.in[a.tensor.index])});
    prim_.execute(io.context, args);
  }

 private:
  DnnlPrimitive prim_;
  DnnlTensorArgs args_;
  KernelLayouts layouts_;
  int in_place_;
};

}  // namespace cnnx
