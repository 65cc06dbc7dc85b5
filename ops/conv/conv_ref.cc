// Reference Conv: direct loops over NCHW (1-D and 2-D are run as 3-D with leading extent-1 axes).
// For each (n, m) a double accumulator plane is swept once per (input channel, kernel tap); the output
// positions whose tap lands inside the input are precomputed per axis and tap, so the innermost loop is a
// plain multiply-add streaming along an output row.
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
    const Tensor* B = io.in.size() > 2 ? io.in[2] : nullptr;
    require(!B || B->numel() == g_.M, "bias B has ", B ? B->numel() : 0, " values, expected ", g_.M);
    const float* x = X.data<float>();
    const float* w = W.data<float>();
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
    // Rows of a tap with full width, unit W-stride and equal row lengths are contiguous in X and Y: one run.
    const bool rows_contiguous = SW == 1 && SH == 1 && IW == OW;
    std::vector<double> acc(static_cast<size_t>(out_plane));

    for (int64_t n = 0; n < g_.N; ++n) {
      for (int64_t m = 0; m < g_.M; ++m) {
        const int64_t group = m / Mg;
        std::fill(acc.begin(), acc.end(), b ? double(b[m]) : 0.0);
        for (int64_t c = 0; c < Cg; ++c) {
          const float* xc = x + (n * g_.C + group * Cg + c) * in_plane;
          const float* wc = w + (m * Cg + c) * taps;
          for (int64_t kd = 0; kd < KD; ++kd) {
            const TapSpan sd = w_.spans[0][size_t(kd)];
            for (int64_t kh = 0; kh < KH; ++kh) {
              const TapSpan sh = w_.spans[1][size_t(kh)];
              for (int64_t kw = 0; kw < KW; ++kw) {
                const TapSpan sw = w_.spans[2][size_t(kw)];
                const int64_t len = sw.hi - sw.lo;
                if (len <= 0 || sh.hi <= sh.lo) continue;
                const double wv = wc[(kd * KH + kh) * KW + kw];
                const int64_t iw0 = sw.lo * SW - PW + kw * DW;
                for (int64_t od = sd.lo; od < sd.hi; ++od) {
                  const int64_t id = od * SD - PD + kd * DD;
                  if (rows_contiguous && len == OW) {
                    const int64_t ih0 = sh.lo - PH + kh * DH;
                    const float* xr = xc + (id * IH + ih0) * IW + iw0;
                    double* ar = acc.data() + (od * OH + sh.lo) * OW;
                    const int64_t run_len = (sh.hi - sh.lo) * OW;
                    for (int64_t t = 0; t < run_len; ++t) ar[t] += wv * xr[t];
                    continue;
                  }
                  for (int64_t oh = sh.lo; oh < sh.hi; ++oh) {
                    const int64_t ih = oh * SH - PH + kh * DH;
                    const float* xr = xc + (id * IH + ih) * IW + iw0;
                    double* ar = acc.data() + (od * OH + oh) * OW + sw.lo;
                    if (SW == 1) {
                      for (int64_t t = 0; t < len; ++t) ar[t] += wv * xr[t];
                    } else {
                      for (int64_t t = 0; t < len; ++t) ar[t] += wv * xr[t * SW];
                    }
                  }
                }
              }
            }
          }
        }
        float* yp = y + (n * g_.M + m) * out_plane;
        for (int64_t i = 0; i < out_plane; ++i) yp[i] = float(acc[size_t(i)]);
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
