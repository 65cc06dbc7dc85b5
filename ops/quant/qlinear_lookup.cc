// cnnx.internal QLinearLookup: parse, shape inference, the reference kernel and the native one.
#include "ops/quant/qlinear_lookup.h"

#include <algorithm>
#include <cstring>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "ops/common/chunks.h"
#include "ops/quant/quantization.h"

namespace cnnx {

std::vector<ValueInfo> infer_qlinear_lookup(const NoParams&, const std::vector<ValueInfo>& in) {
  require_quantized(in, 0, "x");
  require_quantized(in, 1, "table");
  const ValueInfo& table = input(in, 1);
  require(table.rank_known && table.rank() == 1 && table.shape[0] == 256, "table (input 1) must hold 256 values; got ",
          table.rank_known ? to_string(table.shape) : std::string("an unknown shape"));
  const ValueInfo& x = input(in, 0);
  return {x.rank_known ? ValueInfo::of(table.dtype, x.shape) : ValueInfo::unknown(table.dtype)};
}

namespace {

#if defined(__x86_64__)
// AVX2, 32 bytes a step, the elements [0, returned) of n: x's low nibble picks within each 16-entry row of the
// table (vpshufb), its high nibble the row (a compare per row), 16 rows x 4 instructions, where the scalar loop
// spends a dependent load per byte (efficientnet_b0's 23 tables: 11 ms at 1 thread).
__attribute__((target("avx2"))) int64_t look_up_avx2(const uint8_t* x, const uint8_t* table, uint8_t* y, int64_t n) {
  __m256i rows[16];
  for (int t = 0; t < 16; ++t)
    rows[t] = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(table + 16 * t)));
  const __m256i nibble = _mm256_set1_epi8(0x0f);
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i));
    const __m256i lo = _mm256_and_si256(v, nibble), hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble);
    __m256i r = _mm256_setzero_si256();
    for (int t = 0; t < 16; ++t) {
      const __m256i row = _mm256_cmpeq_epi8(hi, _mm256_set1_epi8(char(t)));
      r = _mm256_or_si256(r, _mm256_and_si256(row, _mm256_shuffle_epi8(rows[t], lo)));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), r);
  }
  return i;
}
#endif

// `fast`: the native kernel, which takes AVX2 where the CPU has it; the reference walks byte by byte.
void look_up(const uint8_t* x, const uint8_t* table, uint8_t* y, int64_t n, bool fast) {
#if defined(__x86_64__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
#else
  constexpr bool avx2 = false;
#endif
  for_each_chunk(n, [&](int64_t c0, int64_t count) {
    int64_t i = c0;
#if defined(__x86_64__)
    if (fast && avx2) i += look_up_avx2(x + c0, table, y + c0, count);
#endif
    for (; i < c0 + count; ++i) y[i] = table[x[i]];
  }, fast);
}

// x and y are bytes whatever their signedness: the table is indexed by x's byte and holds y's bytes.
void run_lookup(const KernelIO& io, bool fast) {
  const Tensor& table = *io.in[1];
  require(table.numel() == 256, "table (input 1) must hold 256 values; got ", table.numel());
  look_up(static_cast<const uint8_t*>(io.in[0]->raw()), static_cast<const uint8_t*>(table.raw()),
          static_cast<uint8_t*>(io.out[0]->raw()), io.out[0]->numel(), fast);
}

class QLinearLookupNative final : public CompiledKernel {
 public:
  QLinearLookupNative(const Layout& layout, size_t inputs) {
    layouts_.in.resize(inputs);
    layouts_.in[0] = layout;
    layouts_.out = {layout};
  }
  const KernelLayouts* layouts() const override { return &layouts_; }
  void run(const KernelIO& io) const override { run_lookup(io, true); }

 private:
  KernelLayouts layouts_;
};

}  // namespace

void qlinear_lookup_ref(const NoParams&, const KernelIO& io) { run_lookup(io, false); }

Kernel<NoParams> qlinear_lookup_native_kernel() {
  return {"native", [](const std::shared_ptr<const NoParams>&, const KernelArgs& a) -> Compiled {
            if (!a.in[0].concrete()) return Compiled::decline("x has no concrete shape");
            // Elementwise: the dense layout (every byte an element) x arrives in, kept for y; else plain.
            const Layout& l = a.offered.in.empty() ? Layout() : a.offered.in[0];
            const bool dense = !is_plain(l) && l.desc()->bytes() == size_t(checked_numel(a.in[0].shape));
            return std::make_unique<QLinearLookupNative>(dense ? l : Layout(), a.in.size());
          }};
}

}  // namespace cnnx
