// Reference ConvTranspose: scatter loops over NCHW (1-D and 2-D run as 3-D with leading extent-1 axes). For
// each (n, output channel) a double accumulator plane starts at the bias; every (input channel, tap) adds
// w * x at o = i * stride - pad_begin + tap * dilation for the input positions i whose o lands inside the
// output (precomputed per axis and tap). One rounding per output.
#include <algorithm>

#include "ops/conv/conv_transpose.h"
#include "ops/conv/window_3d.h"

namespace cnnx {

namespace {

class ConvTransposeRef : public CompiledKernel {
 public:
  explicit ConvTransposeRef(const ConvTransposeGeometry& g) : g_(g), w_(g, true) {}

  void run(const KernelIO& io) const override {
    const float* x = io.in[0]->data<float>();
    const float* w = io.in[1]->data<float>();
    const Tensor* B = io.optional_in(2);
    const float* b = B ? B->data<float>() : nullptr;
    float* y = io.out[0]->data<float>();
    const auto [ID, IH, IW] = w_.in;
    const auto [KD, KH, KW] = w_.k;
    const auto [SD, SH, SW] = w_.s;
    const auto [DD, DH, DW] = w_.d;
    const auto [PD, PH, PW] = w_.p;
    const auto [OD, OH, OW] = w_.out;
    const int64_t in_plane = ID * IH * IW, out_plane = OD * OH * OW, taps = KD * KH * KW;
    const int64_t Cg = g_.C_per_group, Mg = g_.M_per_group;
    std::vector<double> acc(static_cast<size_t>(out_plane));
    for (int64_t n = 0; n < g_.N; ++n) {
      for (int64_t m = 0; m < g_.M; ++m) {
        const int64_t group = m / Mg, ml = m % Mg;
        std::fill(acc.begin(), acc.end(), b ? double(b[m]) : 0.0);
        for (int64_t c = 0; c < Cg; ++c) {
          const int64_t ci = group * Cg + c;
          const float* xc = x + (n * g_.C + ci) * in_plane;
          const float* wc = w + (ci * Mg + ml) * taps;  // W [C, M/group, K...]
          for (int64_t kd = 0; kd < KD; ++kd) {
            const TapSpan sd = w_.spans[0][size_t(kd)];
            for (int64_t kh = 0; kh < KH; ++kh) {
              const TapSpan sh = w_.spans[1][size_t(kh)];
              for (int64_t kw = 0; kw < KW; ++kw) {
                const TapSpan sw = w_.spans[2][size_t(kw)];
                if (sw.hi <= sw.lo || sh.hi <= sh.lo) continue;
                const double wv = wc[(kd * KH + kh) * KW + kw];
                for (int64_t id = sd.lo; id < sd.hi; ++id) {
                  const int64_t od = id * SD - PD + kd * DD;
                  for (int64_t ih = sh.lo; ih < sh.hi; ++ih) {
                    const int64_t oh = ih * SH - PH + kh * DH;
                    const float* xr = xc + (id * IH + ih) * IW;
                    const int64_t row = (od * OH + oh) * OW - PW + kw * DW;  // + iw * SW is inside the row
                    for (int64_t iw = sw.lo; iw < sw.hi; ++iw) acc[size_t(row + iw * SW)] += wv * xr[iw];
                  }
                }
              }
            }
          }
        }
        std::copy(acc.begin(), acc.end(), y + (n * g_.M + m) * out_plane);  // one rounding per output
      }
    }
  }

 private:
  ConvTransposeGeometry g_;
  Window3D w_;
};

}  // namespace

Kernel<ConvTransposeParams> conv_transpose_ref_kernel() {
  return {"ref", [](const std::shared_ptr<const ConvTransposeParams>& p, const KernelArgs& a) -> Compiled {
            const ConvTransposeGeometry g = resolve_conv_transpose_geometry(*p, a.in);
            require(is_concrete(g.output_shape()) && is_concrete(a.in[0].shape) && is_concrete(a.in[1].shape),
                    "ConvTranspose needs concrete shapes to run, got X ", to_string(a.in[0].shape), " and W ",
                    to_string(a.in[1].shape));
            return std::make_unique<ConvTransposeRef>(g);
          }};
}

}  // namespace cnnx
