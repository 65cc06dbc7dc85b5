// oneDNN InstanceNormalization and GroupNormalization-18: batch_normalization_forward in forward_training
// (statistics from the data: the mean, then the population variance of the deviations) over X viewed as
// [1, N * G, 1, block], block = C / G * D1 * ... * Dn. Its channels are then exactly the (sample, group)
// blocks the ONNX ops normalize, and use_scale / use_shift apply one scale and shift per block: scale[g] and
// B[g] repeated for each sample (InstanceNormalization: g is the channel; GroupNormalization-18: the group),
// laid out per run (N * G floats beside the N * G * block of the data). This is one primitive with the affine
// step fused, so there is no extra rounding; the statistics it must also write go to per-run buffers.
//
// (A layer_normalization_forward over [N * G, block] would need its scale per column, which these ops do not
// have: their scale is constant along a block.)
#include <vector>

#include "dnnl/primitive_kernel.h"
#include "ops/norm/group_norm.h"

namespace cnnx {

namespace {

using namespace dnnl;

struct GroupNormDesc {
  memory::desc data_md, block_md;  // [1, N * G, 1, block]; [N * G] for scale, shift, mean and variance
  batch_normalization_forward::primitive_desc pd;
};

GroupNormDesc describe(const GroupNormParams& p, const Shape& x) {
  const int64_t G = group_count(p, x[1]);
  const memory::dim blocks = x[0] * G, block = numel_range(x, 1, x.size()) / G;
  GroupNormDesc d;
  d.data_md = plain_f32_desc({1, blocks, 1, block});
  d.block_md = plain_f32_desc({blocks});
  const auto flags = normalization_flags::use_scale | normalization_flags::use_shift;
  const batch_normalization_forward::desc desc(prop_kind::forward_training, d.data_md, p.epsilon, flags);
  d.pd = batch_normalization_forward::primitive_desc(desc, dnnl_attr(), dnnl_engine());
  return d;
}

// oneDNN normalizes in place: dst may be src's buffer (in_place_input 0).
class GroupNormDnnl : public DnnlPrimitiveKernel {
 public:
  GroupNormDnnl(const GroupNormDesc& d, int64_t groups)
      : DnnlPrimitiveKernel(d.pd, {{DNNL_ARG_SRC, in(0), d.data_md}, {DNNL_ARG_DST, out(0), d.data_md}}, {}, 0),
        block_md_(d.block_md),
        groups_(groups) {}

  void run(const KernelIO& io) const override {
    const int64_t blocks = block_md_.dims()[0];
    // scale, shift, mean, variance of every block, in one per-run buffer.
    Tensor per_block(DType::f32, {4, blocks});
    float* scale = per_block.data<float>();
    float* shift = scale + blocks;
    const float* s = io.in[1]->data<float>();
    const float* b = io.in[2]->data<float>();
    for (int64_t i = 0; i < blocks; ++i) {
      scale[i] = s[i % groups_];
      shift[i] = b[i % groups_];
    }
    auto part = [&](int64_t k) {
      return memory(block_md_, dnnl_engine(), per_block.data<float>() + k * blocks);
    };
    execute(io, {{DNNL_ARG_SCALE, part(0)}, {DNNL_ARG_SHIFT, part(1)}, {DNNL_ARG_MEAN, part(2)},
                 {DNNL_ARG_VARIANCE, part(3)}});
  }

 private:
  memory::desc block_md_;  // [N * G]
  int64_t groups_;
};

}  // namespace

// The kernel's compile step once dnnl_f32_kernel has checked the inputs.
static Compiled compile_f32(const GroupNormParams& p, const KernelArgs& a) {
  const int64_t G = group_count(p, a.in[0].shape[1]);
  return compile_or_refuse([&] { return std::make_unique<GroupNormDnnl>(describe(p, a.in[0].shape), G); });
}

Kernel<GroupNormParams> group_norm_dnnl_kernel() { return dnnl_f32_kernel<GroupNormParams, compile_f32>(); }

}  // namespace cnnx
