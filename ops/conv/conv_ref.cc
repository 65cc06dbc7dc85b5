// Reference Conv: direct loops over NCHW (1-D and 2-D are run as 3-D with leading extent-1 axes).
// For each (n, m) a double accumulator plane is swept once per (input channel, kernel tap)
// (Window3D::accumulate_plane), one rounding per output.
#include <algorithm>

#include "ops/conv/conv.h"
#include "ops/conv/window_3d.h"

namespace cnnx {

namespace {

class ConvRef : public CompiledKernel {
 public:
  explicit ConvRef(const ConvGeometry& g) : g_(g), w_(g, false) {}

  void run(const KernelIO& io) const override {
    const Tensor& X = *io.in[0];
    const Tensor& W = *io.in[1];
    const Tensor* B = io.optional_in(2);
    require(!B || B->numel() == g_.M, "bias B has ", B ? B->numel() : 0, " values, expected ", g_.M);
    const float* x = X.data<float>();
    const float* w = W.data<float>();
    const float* b = B ? B->data<float>() : nullptr;
    float* y = io.out[0]->data<float>();

    const int64_t in_plane = w_.in_plane(), out_plane = w_.out_plane(), taps = w_.taps();
    const int64_t Cg = g_.C_per_group, Mg = g_.M_per_group;
    std::vector<double> acc(static_cast<size_t>(out_plane));
    for (int64_t n = 0; n < g_.N; ++n) {
      for (int64_t m = 0; m < g_.M; ++m) {
        std::fill(acc.begin(), acc.end(), b ? double(b[m]) : 0.0);
        w_.accumulate_plane(x + (n * g_.C + m / Mg * Cg) * in_plane, w + m * Cg * taps, Cg, acc.data());
        std::copy(acc.begin(), acc.end(), y + (n * g_.M + m) * out_plane);  // one rounding per output
      }
    }
  }

 private:
  ConvGeometry g_;
  Window3D w_;
};

}  // namespace

std::unique_ptr<CompiledKernel> conv_ref(const ConvParams& p, const std::vector<ValueInfo>& in) {
  const ConvGeometry g = resolve_conv_geometry(p, in);
  require(is_concrete(g.output_shape()) && is_concrete(in[0].shape) && is_concrete(in[1].shape),
          "Conv needs concrete shapes to run, got X ", to_string(in[0].shape), " and W ", to_string(in[1].shape));
  return std::make_unique<ConvRef>(g);
}

Kernel<ConvParams> conv_ref_kernel() {
  return {"ref", [](const std::shared_ptr<const ConvParams>& p, const KernelArgs& a) -> Compiled {
            return conv_ref(*p, a.in);
          }};
}

}  // namespace cnnx
