// oneDNN DepthToSpace / SpaceToDepth: one reorder between 6-D strided views of the plain input and output
// ([N, C, H, b, W, b] with C the space side's channels), float32 only.
#include <string>

#include "dnnl/dnnl_runtime.h"
#include "ops/tensor/depth_to_space.h"

namespace cnnx {

namespace {

class DepthToSpaceDnnl : public CompiledKernel {
 public:
  DepthToSpaceDnnl(const DepthToSpaceParams& p, const Shape& x_shape, const Shape& y_shape) {
    using dnnl::memory;
    const int64_t b = p.blocksize;
    const Shape& space = p.to_space ? y_shape : x_shape;  // [N, C, H*b, W*b]
    const int64_t C = space[1], H = space[2] / b, W = space[3] / b, Hb = space[2], Wb = space[3];
    const memory::dims dims{space[0], C, H, b, W, b};  // n, c, h, i, w, j
    const memory::dims space_strides{C * Hb * Wb, Hb * Wb, b * Wb, Wb, b, 1};
    const int64_t hw = H * W;
    const memory::dims depth_strides =
        p.crd ? memory::dims{C * b * b * hw, b * b * hw, W, b * hw, 1, hw}
              : memory::dims{C * b * b * hw, hw, W, b * C * hw, 1, C * hw};
    const memory::desc space_md(dims, memory::data_type::f32, space_strides);
    const memory::desc depth_md(dims, memory::data_type::f32, depth_strides);
    from_ = p.to_space ? depth_md : space_md;
    to_ = p.to_space ? space_md : depth_md;
    reorder_ = DnnlReorder(from_, to_);
  }

  void run(const KernelIO& io) const override {
    reorder_.run(io.context, DnnlMemoryArg(from_, const_cast<void*>(io.in[0]->raw())),
                 DnnlMemoryArg(to_, io.out[0]->raw()));
  }

 private:
  dnnl::memory::desc from_, to_;
  DnnlReorder reorder_;
};

Compiled compile_depth_to_space(const std::shared_ptr<const DepthToSpaceParams>& p, const KernelArgs& a) {
  const std::string why = dnnl_declines_inputs(a.in);
  if (!why.empty()) return Compiled::decline(why);
  return compile_or_refuse([&] { return std::make_unique<DepthToSpaceDnnl>(*p, a.in[0].shape, a.out[0].shape); });
}

}  // namespace

Kernel<DepthToSpaceParams> depth_to_space_dnnl_kernel() { return {"dnnl", compile_depth_to_space}; }

}  // namespace cnnx
