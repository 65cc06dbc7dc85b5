// cnnx.internal QLinearLookup: parse, shape inference, the reference kernel and the native one.
#include "ops/quant/qlinear_lookup.h"

#include <algorithm>
#include <cstring>

#include "ops/quant/quantization.h"

namespace cnnx {

NoParams parse_qlinear_lookup(const Node& node) {
  require_inputs(node, 2, 2);
  require_outputs(node, 1, 1);
  node.attrs.allow_only({});
  return {};
}

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

void look_up(const uint8_t* x, const uint8_t* table, uint8_t* y, int64_t n, bool parallel) {
  constexpr int64_t kChunk = 16384;
#pragma omp parallel for schedule(static) if (parallel)
  for (int64_t c0 = 0; c0 < n; c0 += kChunk) {
    const int64_t c1 = std::min(n, c0 + kChunk);
    for (int64_t i = c0; i < c1; ++i) y[i] = table[x[i]];
  }
}

// x and y are bytes whatever their signedness: the table is indexed by x's byte and holds y's bytes.
void run_lookup(const KernelIO& io, bool parallel) {
  const Tensor& table = *io.in[1];
  require(table.numel() == 256, "table (input 1) must hold 256 values; got ", table.numel());
  look_up(static_cast<const uint8_t*>(io.in[0]->raw()), static_cast<const uint8_t*>(table.raw()),
          static_cast<uint8_t*>(io.out[0]->raw()), io.out[0]->numel(), parallel);
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
