// oneDNN LayerNormalization: layer_normalization_forward over X viewed as [rows, cols] (every normalized axis
// flattened into oneDNN's last dim, so any axis runs), with use_scale and, when B is given, use_shift. oneDNN
// computes the mean, then the variance from the deviations, and y = scale * (x - mean) / sqrt(var + eps) +
// shift like ONNX. Its scale and shift hold one value per column: a Scale or B that broadcasts within the
// normalized axes (shape [1], or [1, D] over [C, D]) or varies across rows declines. With the Mean or InvStdDev
// outputs it runs forward_training, writing the mean and the variance, and InvStdDev = 1 / sqrt(var + eps) is
// computed from the variance in place (one rounding more than the reference, well inside the tolerance).
// In a native bfloat16 plan, X arriving stored in bfloat16 in its plain arrangement is read so and Y written so
// (oneDNN 2.6's layer normalization takes one data type for both), where only Y's rounding to bfloat16 reads
// Y (CompileContext::store_bfloat16): the statistics and the arithmetic stay float32, and Y is rounded once,
// as the rounding would; otherwise X is taken in float32 (the plan converts it).
#include <cmath>

#include "dnnl/primitive_kernel.h"
#include "ops/norm/layer_norm.h"

namespace cnnx {

namespace {

using namespace dnnl;

struct LayerNormDesc {
  memory::desc data_md, stat_md, column_md;  // [rows, cols]; [rows]; [cols] for scale and shift
  layer_normalization_forward::primitive_desc pd;
};

LayerNormDesc describe(const LayerNormParams& p, const Shape& x, bool shift, bool stats, bool bf16) {
  const size_t a = layer_norm_axis(p.axis, x.size());
  const memory::dim rows = numel_range(x, 0, a), cols = numel_range(x, a, x.size());
  LayerNormDesc d;
  d.data_md = bf16 ? memory::desc({rows, cols}, dt::bf16, tag::ab) : plain_f32_desc({rows, cols});
  d.stat_md = plain_f32_desc({rows});
  d.column_md = plain_f32_desc({cols});
  auto flags = normalization_flags::use_scale;
  if (shift) flags |= normalization_flags::use_shift;
  const layer_normalization_forward::desc desc(stats ? prop_kind::forward_training : prop_kind::forward_inference,
                                               d.data_md, d.stat_md, p.epsilon, flags);
  d.pd = layer_normalization_forward::primitive_desc(desc, dnnl_attr(), dnnl_engine());
  return d;
}

// X, Scale and Y, and B when `shift`.
DnnlTensorArgs layer_norm_args(const LayerNormDesc& d, bool shift) {
  DnnlTensorArgs args{{DNNL_ARG_SRC, in(0), d.data_md},
                      {DNNL_ARG_SCALE, in(1), d.column_md},
                      {DNNL_ARG_DST, out(0), d.data_md}};
  if (shift) args.push_back({DNNL_ARG_SHIFT, in(2), d.column_md});
  return args;
}

// oneDNN normalizes in place: dst may be src's buffer (in_place_input 0). With `stats` the primitive also
// writes each row's mean and variance: into Mean and InvStdDev when the node has them, else into per-run
// buffers.
class LayerNormDnnl : public DnnlPrimitiveKernel {
 public:
  LayerNormDnnl(const LayerNormDesc& d, float epsilon, bool shift, bool stats, KernelLayouts layouts)
      : DnnlPrimitiveKernel(d.pd, layer_norm_args(d, shift), std::move(layouts), 0),
        stat_md_(d.stat_md),
        epsilon_(epsilon),
        stats_(stats) {}

  void run(const KernelIO& io) const override {
    if (!stats_) {
      execute(io);
      return;
    }
    const int64_t rows = stat_md_.dims()[0];
    Tensor mean_tmp, var_tmp;
    Tensor* mean = io.out.size() > 1 && io.out[1] ? io.out[1] : &(mean_tmp = Tensor(DType::f32, {rows}));
    Tensor* var = io.out.size() > 2 && io.out[2] ? io.out[2] : &(var_tmp = Tensor(DType::f32, {rows}));
    execute(io, {{DNNL_ARG_MEAN, dnnl_wrap(stat_md_, *mean)}, {DNNL_ARG_VARIANCE, dnnl_wrap(stat_md_, *var)}});
    if (io.out.size() > 2 && io.out[2]) {
      float* v = io.out[2]->data<float>();  // the variance, turned into InvStdDev
      for (int64_t r = 0; r < rows; ++r) v[r] = float(1 / std::sqrt(double(v[r]) + double(epsilon_)));
    }
  }

 private:
  memory::desc stat_md_;  // [rows]
  float epsilon_;
  bool stats_;
};

}  // namespace

// The kernel's compile step once dnnl_f32_kernel has checked the inputs.
static Compiled compile_f32(const LayerNormParams& p, const KernelArgs& a) {
  const Shape& x = a.in[0].shape;
  const size_t axis = layer_norm_axis(p.axis, x.size());
  const bool shift = present(a.in, 2);
  for (size_t i = 1; i < (shift ? 3 : 2); ++i)
    if (!is_per_normalized_element(a.in[i].shape, x, axis))
      return Compiled::decline(std::string(i == 1 ? "Scale" : "B") + " of shape " +
                               to_string(a.in[i].shape) + " is not one value per normalized element (" +
                               to_string(Shape(x.begin() + long(axis), x.end())) +
                               "); oneDNN takes its scale and shift per column");
  const bool stats = a.out.size() > 1;
  const Layout& arriving = a.offered.in[0];
  const bool bf16 = !stats && a.context.store_bfloat16 && stores_bfloat16(arriving) && is_plain(float32_layout(arriving));
  return compile_or_refuse([&] {
    return std::make_unique<LayerNormDnnl>(describe(p, x, shift, stats, bf16), p.epsilon, shift, stats,
                                           bf16 ? follow_layouts(arriving, a.in.size()) : KernelLayouts{});
  });
}

Kernel<LayerNormParams> layer_norm_dnnl_kernel() { return dnnl_f32_kernel<LayerNormParams, compile_f32>(); }

}  // namespace cnnx
