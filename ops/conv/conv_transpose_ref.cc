// Reference ConvTranspose: scatter loops over NCHW (1-D and 2-D run as 3-D with leading extent-1 axes). For
// each (n, output channel) a double accumulator plane starts at the bias; every (input channel, tap) adds
// w * x at o = i * stride - pad_begin + tap * dilation for the input positions i whose o lands inside the
// output (precomputed per axis and tap). One rounding per output.
#include <algorithm>
#include <array>

#include "ops/conv/conv_transpose.h"

namespace cnnx {

namespace {

struct Span {
  int64_t lo = 0, hi = 0;  // input positions [lo, hi) whose tap lands inside the output
};

class ConvTransposeRef : public CompiledKernel {
 public:
  explicit ConvTransposeRef(const ConvTransposeGeometry& g) : g_(g) {
    const size_t lift = 3 - g.spatial_rank();
    for (size_t a = 0; a < 3; ++a) {
      const bool real = a >= lift;
      const size_t i = a - lift;
      in_[a] = real ? g.in[i] : 1;
      k_[a] = real ? g.kernel[i] : 1;
      s_[a] = real ? g.stride[i] : 1;
      d_[a] = real ? g.dilation[i] : 1;
      p_[a] = real ? g.pad_begin[i] : 0;
      out_[a] = real ? g.out[i] : 1;
      for (int64_t j = 0; j < k_[a]; ++j) {
        const int64_t shift = p_[a] - j * d_[a];  // o = i * s - shift
        Span sp;
        sp.lo = std::max<int64_t>(0, ceil_div(shift, s_[a]));
        sp.hi = std::min<int64_t>(in_[a], floor_div(out_[a] - 1 + shift, s_[a]) + 1);
        sp.hi = std::max(sp.hi, sp.lo);
        spans_[a].push_back(sp);
      }
    }
  }

  void run(const KernelIO& io) const override {
    const float* x = io.in[0]->data<float>();
    const float* w = io.in[1]->data<float>();
    const Tensor* B = io.in.size() > 2 ? io.in[2] : nullptr;
    const float* b = B ? B->data<float>() : nullptr;
    float* y = io.out[0]->data<float>();
    const auto [ID, IH, IW] = in_;
    const auto [KD, KH, KW] = k_;
    const auto [SD, SH, SW] = s_;
    const auto [DD, DH, DW] = d_;
    const auto [PD, PH, PW] = p_;
    const auto [OD, OH, OW] = out_;
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
            const Span sd = spans_[0][size_t(kd)];
            for (int64_t kh = 0; kh < KH; ++kh) {
              const Span sh = spans_[1][size_t(kh)];
              for (int64_t kw = 0; kw < KW; ++kw) {
                const Span sw = spans_[2][size_t(kw)];
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
        float* yp = y + (n * g_.M + m) * out_plane;
        for (int64_t i = 0; i < out_plane; ++i) yp[i] = float(acc[size_t(i)]);
      }
    }
  }

 private:
  ConvTransposeGeometry g_;
  std::array<int64_t, 3> in_{}, k_{}, s_{}, d_{}, p_{}, out_{};
  std::array<std::vector<Span>, 3> spans_;
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
