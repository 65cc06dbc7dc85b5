// com.microsoft QLinearAveragePool: the reference kernel (per output cell, the exact int64 sum of its window's
// input cells, then one multiplication by x_scale / y_scale / divisor).
#include "ops/quant/qlinear_average_pool.h"
#include "ops/quant/quantization.h"

namespace cnnx {

namespace {

// Advances `index` over `dims` row-major; false after the last.
bool next_index(std::vector<int64_t>& index, const Shape& dims) {
  for (size_t d = dims.size(); d-- > 0;) {
    if (++index[d] < dims[d]) return true;
    index[d] = 0;
  }
  return false;
}

}  // namespace

void qlinear_average_pool_ref(const QLinearAveragePoolParams& p, const KernelIO& io) {
  const QuantizedUnaryIO qio = read_quantized_unary(io, "x_scale", "y_scale");
  const Tensor& X = qio.X;
  Tensor& Y = qio.Y;
  const Shape in_sp = qlinear_pool_spatial(p, X.shape());
  const PoolGeometry g = resolve_pool_geometry(p.window, in_sp);
  const Shape out_sp = g.output_spatial();
  const size_t k = in_sp.size();
  const int64_t N = X.dim(0), C = p.channels_last ? X.shape().back() : X.dim(1);
  const int64_t in_cells = numel_range(in_sp, 0, k), out_cells = numel_range(out_sp, 0, k);
  if (out_cells == 0 || N * C == 0) return;
  const std::vector<int64_t> in_strides = strides_of(in_sp);
  const double ratio = qio.x_scale / qio.y_scale;
  const int64_t zx = qio.x_zero_point;
  // The element of (n, c, spatial cell s) in X's or Y's order.
  auto at = [&](int64_t n, int64_t c, int64_t s, int64_t cells) {
    return p.channels_last ? (n * cells + s) * C + c : (n * C + c) * cells + s;
  };
  std::vector<int64_t> o(k, 0);
  int64_t out_cell = 0;
  do {
    // The window's taps inside the input, per axis: positions start(o) + j * dilation.
    std::vector<int64_t> first(k), count(k), step(k), j(k, 0);
    for (size_t d = 0; d < k; ++d) {
      const PoolAxis& a = g.axes[d];
      first[d] = a.start(o[d]) + a.tap_begin(o[d]) * a.dilation;
      count[d] = a.taps_in_input(o[d]);
      step[d] = a.dilation;
    }
    const double multiplier = ratio / double(g.divisor(o, p.count_include_pad));
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c) {
        int64_t sum = 0;
        std::fill(j.begin(), j.end(), 0);
        do {
          int64_t cell = 0;
          for (size_t d = 0; d < k; ++d) cell += (first[d] + j[d] * step[d]) * in_strides[d];
          sum += X.int_at(at(n, c, cell, in_cells)) - zx;
        } while (next_index(j, count));
        store_quantized(Y, at(n, c, out_cell, out_cells), double(sum) * multiplier, qio.y_zero_point, qio.range);
      }
    ++out_cell;
  } while (next_index(o, out_sp));
}

}  // namespace cnnx
