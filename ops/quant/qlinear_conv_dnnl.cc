// oneDNN int8 convolution for QLinearConv, FusedQLinearConv and ConvInteger: u8 src, s8 weights, s32 bias,
// per-output-channel output scales x_scale * w_scale[m] / y_scale, src and dst zero points and the
// FusedQLinearConv clamp as an eltwise clip post-op, dst u8/s8 (or s32 for ConvInteger). Scales, zero points,
// weights and bias must be constants (a quantized model's are), but for ConvInteger's x_zero_point, which
// dynamic quantization computes (DynamicQuantizeLinear -> ConvInteger): oneDNN reads it at run time. W -
// w_zero_point must fit int8 (oneDNN 2.6 has no weights zero point), and is what the kernel keeps as its s8
// weights.
//
// Exactness of the integer sums. oneDNN's int8 kernels on CPUs without VNNI (AVX2; AVX-512 before Cascade
// Lake) multiply u8 by s8 with vpmaddubsw, which adds each pair of products into a saturating 16-bit sum:
// exact only while |x1 * w1 + x2 * w2| <= 32767, i.e. for u8 x in [0, 255] while |w| <= 64 (2 * 255 * 64 =
// 32640). An s8 src is made u8 by oneDNN adding 128 (then the same bound), and on such CPUs oneDNN also
// halves s8-src weights ("scale_adjust" 0.5), rounding odd ones. So this kernel always hands oneDNN u8 src
// (s8 x + 128 with x_zero_point + 128: the differences x - x_zero_point are the same), and when the
// implementation oneDNN picked pairs products in 16 bits (dnnl/int8_sums.h: from its name, so a non-VNNI
// fallback on a VNNI CPU counts too) and some |W - w_zero_point| > 64 it splits every weight w into a =
// floor(w / 2) and b = w - a (both in [-64, 64], same sign) over a doubled copy of each group's input channels:
// conv(x, w) = conv([x, x], [a, b]),
// every pair of products within 16 bits whatever pairs oneDNN forms. That costs twice the multiply-adds;
// weights within 7 bits (`cnnx quantize --reduce-range`) run at full speed, and so do depthwise convolutions,
// whose pairs (along the input channels of a group) hold one product.
//
// After the sums oneDNN works in float32: acc + bias converted (exact below 2^24), times the float32 scale,
// rounded half to even (cvtps2dq), plus the dst zero point, saturated. Against QLinearConv's reference (one
// double multiplication of the exact sum) that can differ by one step only where the value lies within
// float32's rounding of a half step: the op's tolerance (kOneQuantStep). ConvInteger (kExact, s32 dst) is
// taken only when every sum, and every partial sum oneDNN converts, is below 2^24 in magnitude: 255 *
// sum_k |W - w_zero_point| < 2^24 for every output channel; larger ones run the reference kernel.
//
// Layouts: oneDNN's int8 kernels want channels-last, so the kernel takes x channels-last (int8 or uint8; the
// plan reorders a plain x once, and an int8 convolution's y arrives so already) and writes an int8 y
// channels-last, so chains of int8 convolutions run without copies between them. Only s8 x (made u8) and
// split weights (channels doubled) copy src, and ConvInteger's int32 y is transposed to plain for its float
// readers.
#include "ops/quant/conv_integer.h"
#include "ops/quant/qlinear_conv.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "dnnl/int8_sums.h"
#include "dnnl/primitive_kernel.h"
#include "ops/quant/quantization.h"

namespace cnnx {

namespace {

using namespace dnnl;

// What the ops hand the kernel, all read from constants at compile time.
struct Int8Conv {
  ConvGeometry g;
  bool x_signed = false;
  int32_t x_zp = 0;                // in x's own type
  bool x_zp_at_run = false;        // ConvInteger after DynamicQuantizeLinear: x_zero_point (input 2) computed
  std::vector<int32_t> w;          // W - w_zero_point[m], ONNX's [M, C/G, K...] order
  std::vector<float> scales;       // per output channel; empty: none (ConvInteger)
  std::vector<int32_t> bias;       // empty: none
  dt y_type = dt::s32;
  int32_t y_zp = 0;
  int64_t y_min = 0, y_max = 0;    // the clamp, within y's range
};

tag channels_last(size_t rank) { return rank == 3 ? tag::nwc : rank == 4 ? tag::nhwc : tag::ndhwc; }
tag plain_weights(size_t rank, bool grouped) {
  if (grouped) return rank == 3 ? tag::goiw : rank == 4 ? tag::goihw : tag::goidhw;
  return rank == 3 ? tag::oiw : rank == 4 ? tag::oihw : tag::oidhw;
}

// Tiles of this many cells along the spatial axes: the transposes below read and write whole cache lines.
constexpr int64_t kTile = 64;

// x [N * S, C] channels-last (uint8 bytes; `flip` 0x80 turns s8 into u8 + 128) -> src [N * S, C * copies],
// each group of Cg channels written `copies` times side by side, split over the team.
void copy_channels_last(const uint8_t* x, uint8_t* src, int64_t NS, int64_t C, int64_t Cg, uint8_t flip,
                        int64_t copies) {
  const int64_t IC = C * copies;
#pragma omp parallel for schedule(static)
  for (int64_t p = 0; p < NS; ++p) {
    const uint8_t* from = x + p * C;
    uint8_t* to = src + p * IC;
    for (int64_t c0 = 0; c0 < C; c0 += Cg)
      for (int64_t k = 0; k < copies; ++k, to += Cg)
        for (int64_t c = 0; c < Cg; ++c) to[c] = uint8_t(from[c0 + c] ^ flip);
  }
}

// dst [N, S, M] -> y [N, M, S], split over the team.
template <class T>
void from_channels_last(const T* dst, T* y, int64_t N, int64_t M, int64_t S) {
  const int64_t tiles = (S + kTile - 1) / kTile;
#pragma omp parallel for schedule(static)
  for (int64_t nt = 0; nt < N * tiles; ++nt) {
    const int64_t n = nt / tiles, s0 = nt % tiles * kTile, s1 = std::min(S, s0 + kTile);
    for (int64_t m = 0; m < M; ++m) {
      const T* from = dst + n * S * M + m;
      T* to = y + (n * M + m) * S;
      for (int64_t s = s0; s < s1; ++s) to[s] = from[s * M];
    }
  }
}

class Int8ConvDnnl : public CompiledKernel {
 public:
  // may_split: the weights leave 7 bits and the convolution pairs products of several input channels; they are
  // split when the implementation oneDNN picks would add those pairs in 16 bits.
  Int8ConvDnnl(Int8Conv c, bool may_split, size_t inputs, const CompileContext& context)
      : c_(std::move(c)), copies_(1) {
    pd_ = make_pd();
    if (may_split && int8_implementation_pairs_in_16_bits(pd_.impl_info_str(), dnnl_cpu_has_int8_vnni())) {
      copies_ = 2;
      pd_ = make_pd();
    }
    const size_t rank = c_.g.input_shape().size();
    // x arrives channels-last in its own type (the plan reorders it there); y leaves channels-last when int8
    // (the next int8 convolution reads it as it is), plain when int32 (ConvInteger's readers are float ops).
    x_md_ = memory::desc(c_.g.input_shape(), c_.x_signed ? dt::s8 : dt::u8, channels_last(rank));
    layouts_.in.resize(inputs);
    layouts_.in[0] = layout_of(x_md_);
    layouts_.out = {c_.y_type == dt::s32 ? Layout() : layout_of(dst_md_)};
    conv_ = DnnlPrimitive(pd_);
    weights_ = prepare_constant(context, memory::desc(weights_dims_, dt::s8, plain_weights(rank, c_.g.group > 1)),
                                split_weights(), pd_.weights_desc());
    c_.w = std::vector<int32_t>();  // 4 bytes a weight, read only above (resnet50: 100 MB held for nothing)
    if (!c_.bias.empty()) {
      bias_ = Tensor(DType::i32, {c_.g.M});
      std::memcpy(bias_.raw(), c_.bias.data(), c_.bias.size() * sizeof(int32_t));
      bias_md_ = memory::desc({c_.g.M}, dt::s32, tag::x);
    }
  }

  bool reads_input_at_run(size_t input) const override { return input == 0 || (input == 2 && c_.x_zp_at_run); }
  const KernelLayouts* layouts() const override { return &layouts_; }

  void run(const KernelIO& io) const override {
    const ConvGeometry& g = c_.g;
    const int64_t N = g.N, M = g.M;
    int64_t S = 1, OS = 1;  // spatial cells of src, of dst
    for (int64_t d : g.in) S *= d;
    for (int64_t d : g.out) OS *= d;
    // u8 x without split weights is oneDNN's src as it arrives; otherwise a copy: s8 x + 128, each group's
    // channels `copies_` times over. An int32 y is written channels-last to scratch, then transposed.
    const bool copy_src = c_.x_signed || copies_ > 1, copy_dst = c_.y_type == dt::s32;
    const size_t src_bytes = copy_src ? (src_md_.get_size() + 63) / 64 * 64 : 0;
    const DnnlWorkspace space(io.context, src_bytes + (copy_dst ? dst_md_.get_size() : 0));
    void* src = const_cast<void*>(io.in[0]->raw());
    if (copy_src) {
      src = space.data();
      copy_channels_last(static_cast<const uint8_t*>(io.in[0]->raw()), static_cast<uint8_t*>(src), N * S, g.C,
                         g.C_per_group, c_.x_signed ? 0x80 : 0, copies_);
    }
    void* dst = copy_dst ? space.data() + src_bytes : io.out[0]->raw();
    DnnlArgs args{{DNNL_ARG_SRC, DnnlMemoryArg(src_md_, src)},
                  {DNNL_ARG_WEIGHTS, weights_.memory},
                  {DNNL_ARG_DST, DnnlMemoryArg(dst_md_, dst)}};
    if (bias_.defined()) args.insert({DNNL_ARG_BIAS, dnnl_wrap(bias_md_, bias_)});
    int32_t src_zp = 0;
    if (c_.x_zp_at_run) {
      src_zp = int32_t(io.in[2]->int_at(0)) + (c_.x_signed ? 128 : 0);
      args.insert({DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, DnnlMemoryArg(zp_md_, &src_zp)});
    }
    conv_.execute(io.context, args);
    if (copy_dst) from_channels_last(static_cast<const int32_t*>(dst), io.out[0]->data<int32_t>(), N, M, OS);
  }

 private:
  // The primitive for copies_ copies of the input channels; sets src_md_, dst_md_ and weights_dims_.
  convolution_forward::primitive_desc make_pd() {
    const ConvGeometry& g = c_.g;
    const memory::dim G = g.group, OC = g.M, IC = g.C * copies_, ICg = g.C_per_group * copies_, OCg = g.M_per_group;
    const memory::dims K = g.kernel, S = g.stride, P_L = g.pad_begin, P_R = g.pad_end;
    memory::dims DIL;  // oneDNN dilation = ONNX dilation - 1
    for (int64_t d : g.dilation) DIL.push_back(d - 1);
    memory::dims src_dims = g.input_shape(), dst_dims = g.output_shape();
    src_dims[1] = IC;
    weights_dims_ = G == 1 ? memory::dims{OC, IC} : memory::dims{G, OCg, ICg};
    weights_dims_.insert(weights_dims_.end(), K.begin(), K.end());
    const size_t rank = src_dims.size();
    src_md_ = memory::desc(src_dims, dt::u8, channels_last(rank));
    dst_md_ = memory::desc(dst_dims, c_.y_type, channels_last(rank));
    const memory::desc weights_any(weights_dims_, dt::s8, tag::any);
    const memory::desc bias_md = c_.bias.empty() ? memory::desc() : memory::desc({OC}, dt::s32, tag::x);
    const convolution_forward::desc desc(prop_kind::forward_inference, algorithm::convolution_direct, src_md_,
                                         weights_any, bias_md, dst_md_, S, DIL, P_L, P_R);
    primitive_attr attr = dnnl_attr();
    if (!c_.scales.empty()) {
      const bool common = std::all_of(c_.scales.begin(), c_.scales.end(), [&](float s) { return s == c_.scales[0]; });
      // mask 1 << 1: one scale per index of dst's dim 1, the output channels.
      attr.set_output_scales(common ? 0 : 1 << 1, common ? std::vector<float>{c_.scales[0]} : c_.scales);
    }
    // src is handed over as u8: an s8 x and its zero point shifted by 128.
    const int32_t src_zp = c_.x_zp + (c_.x_signed ? 128 : 0);
    if (c_.x_zp_at_run) attr.set_zero_points(DNNL_ARG_SRC, 0, {DNNL_RUNTIME_S32_VAL});
    else if (src_zp != 0) attr.set_zero_points(DNNL_ARG_SRC, 0, {src_zp});
    if (c_.y_zp != 0) attr.set_zero_points(DNNL_ARG_DST, 0, {c_.y_zp});
    const QuantRange range = quant_range(c_.y_type == dt::u8 ? DType::u8 : c_.y_type == dt::s8 ? DType::i8 : DType::i32);
    if (c_.y_min > range.lo || c_.y_max < range.hi) {
      // Post-ops act before the dst zero point is added: clip to the bounds minus it (integers, so clipping
      // before rounding is clamping after).
      post_ops ops;
      ops.append_eltwise(1.f, algorithm::eltwise_clip, float(c_.y_min - c_.y_zp), float(c_.y_max - c_.y_zp));
      attr.set_post_ops(ops);
    }
    return convolution_forward::primitive_desc(desc, attr, dnnl_engine());
  }

  // The s8 weights in oneDNN's plain order: W - w_zero_point, or split (a = floor(w / 2) over each group's
  // first copy of the channels, b = w - a over the second).
  Tensor split_weights() const {
    const ConvGeometry& g = c_.g;
    const int64_t Cg = g.C_per_group, taps = int64_t(c_.w.size()) / (g.M * Cg);
    Tensor t(DType::i8, {int64_t(c_.w.size()) * copies_});
    int8_t* out = t.data<int8_t>();
    for (int64_t m = 0; m < g.M; ++m)
      for (int64_t c = 0; c < Cg; ++c)
        for (int64_t k = 0; k < taps; ++k) {
          const int32_t w = c_.w[size_t((m * Cg + c) * taps + k)];
          if (copies_ == 1) {
            out[(m * Cg + c) * taps + k] = int8_t(w);
            continue;
          }
          const int32_t a = w >= 0 ? w / 2 : -((-w + 1) / 2);  // floor(w / 2)
          out[(m * 2 * Cg + c) * taps + k] = int8_t(a);
          out[(m * 2 * Cg + Cg + c) * taps + k] = int8_t(w - a);
        }
    return t;
  }

  Int8Conv c_;
  int64_t copies_;
  convolution_forward::primitive_desc pd_;
  DnnlPrimitive conv_;
  memory::desc x_md_, src_md_, dst_md_, bias_md_;
  memory::dims weights_dims_;
  KernelLayouts layouts_;
  const memory::desc zp_md_{{1}, dt::s32, tag::x};
  OwnedMemory weights_;
  Tensor bias_;
};

// The constant input i, or nullptr.
const Tensor* constant_in(const KernelArgs& a, size_t i) {
  return i < a.in.size() && a.in[i].dtype != DType::undefined ? a.in[i].constant.get() : nullptr;
}

// W - w_zero_point (one value or one per output channel) into c.w; "" or why it does not fit int8.
std::string read_weights(const Tensor& W, const Tensor* w_zp, Int8Conv& c) {
  const int64_t M = W.shape()[0], per_m = W.numel() / std::max<int64_t>(1, M);
  c.w.resize(size_t(W.numel()));
  const bool u8 = W.dtype() == DType::u8;
  if (!u8 && W.dtype() != DType::i8) return "W is not int8 or uint8";
  const uint8_t* bytes = static_cast<const uint8_t*>(W.raw());
  for (int64_t m = 0; m < M; ++m) {
    const int64_t zp = w_zp ? w_zp->int_at(w_zp->numel() > 1 ? m : 0) : 0;
    for (int64_t i = m * per_m; i < (m + 1) * per_m; ++i) {
      const int64_t v = (u8 ? int64_t(bytes[i]) : int64_t(int8_t(bytes[i]))) - zp;
      if (v < -128 || v > 127) return "W - w_zero_point leaves int8's range (oneDNN 2.6 has no weights zero point)";
      c.w[size_t(i)] = int32_t(v);
    }
  }
  return "";
}

int64_t max_abs(const std::vector<int32_t>& v) {
  int64_t m = 0;
  for (int32_t x : v) m = std::max<int64_t>(m, std::abs(int64_t(x)));
  return m;
}

Compiled compile_int8(Int8Conv c, const KernelArgs& a) {
  // One input channel per group (depthwise): oneDNN pairs products along the input channels (its int8
  // weights are blocked by 4 of them), so each pair is one product and a zero of the padding.
  const bool may_split = max_abs(c.w) > 64 && c.g.C_per_group > 1;
  return compile_or_refuse([&]() -> Compiled { return std::make_unique<Int8ConvDnnl>(std::move(c), may_split, a.in.size(), a.context); });
}

constexpr const char* kNeedsConstants = "needs constant weights, scales, zero points and bias";

Compiled compile_qlinear_conv(const QLinearConvParams& p, const KernelArgs& a) {
  for (size_t i = 1; i < a.in.size(); ++i)
    if (a.in[i].dtype != DType::undefined && !a.in[i].constant) return Compiled::decline(kNeedsConstants);
  if (a.in[0].rank() < 3 || a.in[0].rank() > 5) return Compiled::decline("oneDNN convolves 1 to 3 spatial axes");
  Int8Conv c;
  c.g = resolve_conv_geometry(p.conv, {a.in[0], a.in[3]});
  const QuantParams xq = read_quant_params(*a.in[1].constant, constant_in(a, 2), "x_scale");
  const QuantParams wq = read_quant_params(*a.in[4].constant, constant_in(a, 5), "w_scale");
  const QuantParams yq = read_quant_params(*a.in[6].constant, constant_in(a, 7), "y_scale");
  c.x_signed = a.in[0].dtype == DType::i8;
  c.x_zp = int32_t(xq.zero_point_at(0));
  const std::string why = read_weights(*a.in[3].constant, constant_in(a, 5), c);
  if (!why.empty()) return Compiled::decline(why);
  for (int64_t m = 0; m < c.g.M; ++m) c.scales.push_back(float(xq.scale_at(0) * wq.scale_at(m) / yq.scale_at(0)));
  if (const Tensor* B = constant_in(a, 8)) c.bias.assign(B->data<int32_t>(), B->data<int32_t>() + B->numel());
  const DType y = a.out[0].dtype;
  c.y_type = y == DType::u8 ? dt::u8 : dt::s8;
  c.y_zp = int32_t(yq.zero_point_at(0));
  const QuantRange r = quant_range(y);
  c.y_min = std::max(r.lo, p.y_min);
  c.y_max = std::min(r.hi, p.y_max);
  return compile_int8(std::move(c), a);
}

Compiled compile_conv_integer(const ConvIntegerParams& p, const KernelArgs& a) {
  // x_zero_point may be computed (DynamicQuantizeLinear's): oneDNN then reads it at run time.
  for (size_t i = 1; i < a.in.size(); ++i)
    if (i != 2 && a.in[i].dtype != DType::undefined && !a.in[i].constant)
      return Compiled::decline("needs constant weights and weight zero points");
  if (a.in[0].rank() < 3 || a.in[0].rank() > 5) return Compiled::decline("oneDNN convolves 1 to 3 spatial axes");
  Int8Conv c;
  c.g = resolve_conv_geometry(p.conv, {a.in[0], a.in[1]});
  c.x_signed = a.in[0].dtype == DType::i8;
  if (const Tensor* z = constant_in(a, 2)) c.x_zp = int32_t(z->int_at(0));
  else c.x_zp_at_run = a.in.size() > 2 && a.in[2].dtype != DType::undefined;
  const std::string why = read_weights(*a.in[1].constant, constant_in(a, 3), c);
  if (!why.empty()) return Compiled::decline(why);
  // oneDNN converts the s32 sums to float32 before storing them: exact only below 2^24.
  const int64_t per_m = int64_t(c.w.size()) / std::max<int64_t>(1, c.g.M);
  for (int64_t m = 0; m < c.g.M; ++m) {
    int64_t sum = 0;
    for (int64_t k = 0; k < per_m; ++k) sum += std::abs(int64_t(c.w[size_t(m * per_m + k)]));
    if (255 * sum >= (int64_t(1) << 24))
      return Compiled::decline("sums may reach 2^24, beyond what oneDNN's float32 epilogue keeps exact");
  }
  const QuantRange r = quant_range(DType::i32);
  c.y_min = r.lo;
  c.y_max = r.hi;
  return compile_int8(std::move(c), a);
}

}  // namespace

Kernel<QLinearConvParams> qlinear_conv_dnnl_kernel() {
  return {"dnnl", [](const std::shared_ptr<const QLinearConvParams>& p, const KernelArgs& a) {
            return compile_qlinear_conv(*p, a);
          }};
}

Kernel<ConvIntegerParams> conv_integer_dnnl_kernel() {
  return {"dnnl", [](const std::shared_ptr<const ConvIntegerParams>& p, const KernelArgs& a) {
            return compile_conv_integer(*p, a);
          }};
}

}  // namespace cnnx
