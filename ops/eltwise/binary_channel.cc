// The per-channel kernel of Add, Sub, Mul and Div over channel-blocked layouts (see binary.h): a [N, C, H, W]
// tensor arriving in nChw8c / nChw16c (and kin) against a [1 or N, 1 or C, 1, ...] one, as a
// squeeze-and-excitation block's Mul does. oneDNN 2.6 runs that broadcast over blocked layouts only in its
// reference implementation, so the dnnl kernel takes it plain and the plan reorders the big operand out of the
// convolution's layout and back (efficientnet_b0 on AVX2: 2 reorders + the Mul per block, 5.5 of 62 ms). Here
// it is one pass over the blocked bytes, in place when the plan allows.
//
// Each element is one float32 operation, as the reference computes it: the same bits (kExact).
#include <algorithm>
#include <cstring>

#include "ops/common/broadcast.h"
#include "ops/eltwise/binary.h"
#include "ops/pool/global_mean.h"

namespace cnnx {

namespace {

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define CNNX_CHANNEL_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CNNX_CHANNEL_CLONES
#endif

// Below this many elements one thread runs it (a fork-join costs more than it saves).
constexpr int64_t kParallelElements = int64_t(1) << 14;
// Rows (spatial positions) per work item: threads split the list of (n, channel block, row chunk) items.
constexpr int64_t kRowsPerItem = 512;

// y = x op s (s_first: s op x) over `rows` rows of L lanes, s one value per lane.
template <BinaryKind K, bool s_first>
inline float apply(float x, float s) {
  const float a = s_first ? s : x, b = s_first ? x : s;
  if constexpr (K == BinaryKind::add) return a + b;
  else if constexpr (K == BinaryKind::sub) return a - b;
  else if constexpr (K == BinaryKind::mul) return a * b;
  else return a / b;
}

template <BinaryKind K, bool s_first, int L>
CNNX_CHANNEL_CLONES void rows_fixed(const float* x, const float* s, float* y, int64_t rows) {
  float sv[L];
  std::memcpy(sv, s, sizeof sv);
  for (int64_t r = 0; r < rows; ++r)
    for (int j = 0; j < L; ++j) y[r * L + j] = apply<K, s_first>(x[r * L + j], sv[j]);
}

template <BinaryKind K, bool s_first>
void rows_any(const float* x, const float* s, float* y, int64_t rows, int64_t lanes) {
  if (lanes == 8) return rows_fixed<K, s_first, 8>(x, s, y, rows);
  if (lanes == 16) return rows_fixed<K, s_first, 16>(x, s, y, rows);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < lanes; ++j) y[r * lanes + j] = apply<K, s_first>(x[r * lanes + j], s[j]);
}

using RowsFn = void (*)(const float*, const float*, float*, int64_t, int64_t);

template <BinaryKind K>
RowsFn rows_for(bool s_first) {
  return s_first ? rows_any<K, true> : rows_any<K, false>;
}

RowsFn rows_for(BinaryKind k, bool s_first) {
  switch (k) {
    case BinaryKind::add: return rows_for<BinaryKind::add>(s_first);
    case BinaryKind::sub: return rows_for<BinaryKind::sub>(s_first);
    case BinaryKind::mul: return rows_for<BinaryKind::mul>(s_first);
    default: return rows_for<BinaryKind::div>(s_first);
  }
}

constexpr int kMaxLanes = 16;

class BinaryChannel : public CompiledKernel {
 public:
  // `big` (0 or 1) is the operand of the output's shape, arriving as `x` (rows of lanes); the other, of shape
  // `small` (dst's rank), arrives as `s`.
  BinaryChannel(BinaryKind kind, int big, const MeanLayout& x, const MeanLayout& s, const Shape& small,
                const Layout& x_layout, const Layout& s_layout)
      : big_(big), x_(x), s_(s), per_batch_(small[0] != 1), per_channel_(small[1] != 1),
        rows_(rows_for(kind, big == 1)) {
    layouts_.in.resize(2);
    layouts_.in[size_t(big)] = x_layout;
    layouts_.in[size_t(1 - big)] = s_layout;
    layouts_.out = {x_layout};
  }

  const KernelLayouts* layouts() const override { return &layouts_; }
  int in_place_input() const override { return big_; }

  void run(const KernelIO& io) const override {
    const float* x = io.in[size_t(big_)]->data<float>() + x_.offset;
    const float* s = io.in[size_t(1 - big_)]->data<float>();
    float* y = io.out[0]->data<float>() + x_.offset;
    const int64_t L = x_.lanes, groups = ceil_div(x_.C, L), chunks = ceil_div(x_.plane, kRowsPerItem);
    const int64_t items = x_.N * groups * chunks;
    [[maybe_unused]] const bool parallel = x_.N * groups * L * x_.plane >= kParallelElements;
#pragma omp parallel for schedule(static) if (parallel)
    for (int64_t i = 0; i < items; ++i) {
      const int64_t k = i % chunks, g = (i / chunks) % groups, n = i / (chunks * groups);
      float sv[kMaxLanes];
      const int64_t valid = std::min(L, x_.C - g * L);  // lanes past C are the block's padding
      for (int64_t j = 0; j < L; ++j) sv[j] = j < valid ? value(s, n, g * L + j) : 0.f;
      const int64_t first = k * kRowsPerItem, rows = std::min(kRowsPerItem, x_.plane - first);
      const int64_t at = n * x_.n_stride + g * x_.c_stride + first * L;
      rows_(x + at, sv, y + at, rows, L);
      if (valid < L)  // the padding of the last block stays zero
        for (int64_t r = 0; r < rows; ++r) std::fill(y + at + r * L + valid, y + at + (r + 1) * L, 0.f);
    }
  }

 private:
  // The small operand's value for (n, c): its element (n or 0, c or 0, 0, ...).
  float value(const float* s, int64_t n, int64_t c) const {
    const int64_t sn = per_batch_ ? n : 0, sc = per_channel_ ? c : 0;
    if (s_.kind == MeanLayout::planes) return s[s_.offset + sn * s_.n_stride + sc * s_.c_stride];
    return s[s_.offset + sn * s_.n_stride + (sc / s_.lanes) * s_.c_stride + sc % s_.lanes];
  }

  int big_;
  MeanLayout x_, s_;
  bool per_batch_, per_channel_;
  RowsFn rows_;
  KernelLayouts layouts_;
};

Layout offered(const KernelArgs& a, int i) { return a.offered.in.size() > size_t(i) ? a.offered.in[size_t(i)] : Layout(); }

// Why `b` (of the output's rank) is not one value per channel, per batch and channel, per batch or in all, or "".
std::string declines_small(const Shape& b) {
  for (size_t d = 2; d < b.size(); ++d)
    if (b[d] != 1) return "the broadcast operand " + to_string(b) + " varies along spatial dim " + std::to_string(d);
  return "";
}

}  // namespace

Kernel<BinaryParams> binary_channel_kernel() {
  return {"channel", [](const std::shared_ptr<const BinaryParams>& p, const KernelArgs& a) -> Compiled {
            const BinaryKind k = p->kind;
            if (k != BinaryKind::add && k != BinaryKind::sub && k != BinaryKind::mul && k != BinaryKind::div)
              return Compiled::decline(std::string(binary_kind_name(k)) + " is not Add, Sub, Mul or Div");
            for (size_t i = 0; i < 2; ++i)
              if (a.in[i].dtype != DType::f32 || !a.in[i].concrete())
                return Compiled::decline("input " + std::to_string(i) + " is not a float32 tensor of known shape");
            if (is_plain(offered(a, 0)) && is_plain(offered(a, 1)))
              return Compiled::decline("no input arrives channel-blocked (oneDNN's binary broadcasts over plain "
                                       "tensors in its JIT code)");
            const Shape b = binary_b_shape(*p, a.in[0].shape, a.in[1].shape);
            const Shape dst = broadcast_shapes({a.in[0].shape, b});
            if (dst.size() < 3) return Compiled::decline("the output has rank " + std::to_string(dst.size()) + " < 3");
            Shape shapes[2] = {Shape(dst.size() - a.in[0].shape.size(), 1), Shape(dst.size() - b.size(), 1)};
            shapes[0].insert(shapes[0].end(), a.in[0].shape.begin(), a.in[0].shape.end());
            shapes[1].insert(shapes[1].end(), b.begin(), b.end());
            if (shapes[0] == shapes[1])
              return Compiled::decline("nothing is broadcast (oneDNN's binary runs equal shapes in their layout)");
            const int big = shapes[0] == dst ? 0 : shapes[1] == dst ? 1 : -1;
            if (big < 0) return Compiled::decline("neither input has the output's shape " + to_string(dst));
            if (p->legacy && big == 1) return Compiled::decline("legacy broadcast onto input B");
            std::string why = declines_small(shapes[1 - big]);
            if (!why.empty()) return Compiled::decline(why);
            const Layout x_layout = offered(a, big);
            MeanLayout x;
            if (is_plain(x_layout) || !mean_layout_of(x_layout, dst, x) || x.kind != MeanLayout::channel_rows ||
                x.c_stride == 0 || x.lanes > kMaxLanes)
              return Compiled::decline("input " + std::to_string(big) + " arrives " + x_layout.name() +
                                       ", not channel-blocked (oneDNN's binary broadcasts over channels-last in "
                                       "its JIT code)");
            // The small operand where it arrives when the kernel can read it there (a [1, C, 1, 1] value
            // in nChw8c is C floats in order), plain otherwise (the plan reorders it: C floats).
            Layout s_layout = offered(a, 1 - big);
            MeanLayout s;
            if (!mean_layout_of(s_layout, shapes[1 - big], s)) {
              s_layout = Layout();
              s = plain_mean_layout(shapes[1 - big]);
            }
            return std::make_unique<BinaryChannel>(k, big, x, s, shapes[1 - big], x_layout, s_layout);
          }};
}

}  // namespace cnnx
