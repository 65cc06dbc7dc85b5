// Reference kernels of the pooling ops: plain loops over [N, C, spatial...], any number of spatial dims.
#include <cmath>
#include <type_traits>

#include "ops/pool/pool.h"

namespace cnnx {

namespace {

// Visits the input cells of one window (taps outside the input are skipped, never read), giving each cell's
// row-major and column-major offset within its spatial plane. Scratch space is reused across windows.
class TapWalker {
 public:
  explicit TapWalker(const PoolGeometry& g) : g_(g), D_(g.axes.size()) {
    row_stride_ = strides_of(g.input_spatial());
    col_stride_.assign(D_, 1);
    for (size_t d = 1; d < D_; ++d) col_stride_[d] = col_stride_[d - 1] * g.axes[d - 1].in;
    count_.resize(D_), step_row_.resize(D_), step_col_.resize(D_), i_.resize(D_);
  }

  // f(row_offset, col_offset) for every input cell of the window at output position `o`, row-major order.
  template <class F>
  void walk(const std::vector<int64_t>& o, F f) {
    int64_t row = 0, col = 0;
    for (size_t d = 0; d < D_; ++d) {
      const PoolAxis& a = g_.axes[d];
      const int64_t first = a.tap_begin(o[d]);
      count_[d] = a.tap_end(o[d]) - first;  // >= 1: resolve_pool_geometry refuses windows of padding only
      const int64_t pos = a.start(o[d]) + first * a.dilation;
      row += pos * row_stride_[d];
      col += pos * col_stride_[d];
      step_row_[d] = a.dilation * row_stride_[d];
      step_col_[d] = a.dilation * col_stride_[d];
      i_[d] = 0;
    }
    for (;;) {
      f(row, col);
      size_t d = D_;
      for (; d > 0; --d) {
        const size_t a = d - 1;
        if (++i_[a] < count_[a]) {
          row += step_row_[a];
          col += step_col_[a];
          break;
        }
        row -= (count_[a] - 1) * step_row_[a];
        col -= (count_[a] - 1) * step_col_[a];
        i_[a] = 0;
      }
      if (d == 0) return;
    }
  }

 private:
  const PoolGeometry& g_;
  size_t D_;
  std::vector<int64_t> row_stride_, col_stride_, count_, step_row_, step_col_, i_;
};

// f(output offset in the plane, output position per axis) for every output cell, row-major.
template <class F>
void for_each_output(const PoolGeometry& g, F f) {
  const size_t D = g.axes.size();
  const int64_t total = checked_numel(g.output_spatial());
  std::vector<int64_t> o(D, 0);
  for (int64_t flat = 0; flat < total; ++flat) {
    f(flat, o);
    for (size_t d = D; d-- > 0;) {
      if (++o[d] < g.axes[d].out) break;
      o[d] = 0;
    }
  }
}

template <class T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  else return false;
}

// True when v replaces best as a window's max: larger, or the window's first NaN.
template <class T>
bool beats(T v, T best) {
  return v > best || (is_nan(v) && !is_nan(best));
}

// Calls fn(nc, src, dst, flat, o) for every output position o (flat: its index in the plane) of every
// (n, c) plane nc, src and dst pointing at that plane of x and y.
template <class T, class Fn>
void for_each_plane_output(const PoolGeometry& g, const Tensor& x, Tensor& y, Fn fn) {
  const int64_t planes = x.dim(0) * x.dim(1);
  const int64_t in_plane = checked_numel(g.input_spatial()), out_plane = checked_numel(g.output_spatial());
  for (int64_t nc = 0; nc < planes; ++nc) {
    const T* src = x.data<T>() + nc * in_plane;
    T* dst = y.data<T>() + nc * out_plane;
    for_each_output(g, [&](int64_t flat, const std::vector<int64_t>& o) { fn(nc, src, dst, flat, o); });
  }
}

template <class T>
void average_pool(const PoolParams& p, const PoolGeometry& g, const Tensor& x, Tensor& y) {
  TapWalker walker(g);
  for_each_plane_output<T>(g, x, y, [&](int64_t, const T* src, T* dst, int64_t flat, const std::vector<int64_t>& o) {
    double sum = 0;
    walker.walk(o, [&](int64_t row, int64_t) { sum += double(src[row]); });
    dst[flat] = T(sum / double(g.divisor(o, p.count_include_pad)));
  });
}

template <class T>
void max_pool(const PoolParams& p, const PoolGeometry& g, const Tensor& x, Tensor& y, Tensor* indices) {
  const int64_t in_plane = checked_numel(g.input_spatial()), out_plane = checked_numel(g.output_spatial());
  TapWalker walker(g);
  for_each_plane_output<T>(g, x, y, [&](int64_t nc, const T* src, T* dst, int64_t flat, const std::vector<int64_t>& o) {
    T best{};
    int64_t best_at = -1;
    walker.walk(o, [&](int64_t row, int64_t col) {
      if (best_at < 0 || beats(src[row], best)) {
        best = src[row];
        best_at = p.column_major_indices ? col : row;
      }
    });
    dst[flat] = best;
    if (indices) indices->data<int64_t>()[nc * out_plane + flat] = nc * in_plane + best_at;
  });
}

struct CompiledPool : CompiledKernel {
  std::shared_ptr<const PoolParams> params;
  PoolGeometry geometry;

  CompiledPool(std::shared_ptr<const PoolParams> p, PoolGeometry g) : params(std::move(p)), geometry(std::move(g)) {}

  void run(const KernelIO& io) const override {
    const Tensor& x = *io.in[0];
    Tensor& y = *io.out[0];
    Tensor* indices = io.out.size() > 1 ? io.out[1] : nullptr;
    visit_dtype(x.dtype(), [&](auto zero) {
      using T = decltype(zero);
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        if (params->kind == PoolKind::average) return average_pool<T>(*params, geometry, x, y);
      }
      if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>) {
        if (params->kind == PoolKind::max) return max_pool<T>(*params, geometry, x, y, indices);
      }
      fail("element type ", dtype_name(x.dtype()), " is not supported");
    });
  }
};

template <class T, class Combine>
void global_pool(const KernelIO& io, Combine combine) {
  const Tensor& x = *io.in[0];
  const int64_t planes = x.dim(0) * x.dim(1), plane = numel_range(x.shape(), 2, x.shape().size());
  require(plane >= 1, "input 0 has an empty spatial dim: shape ", to_string(x.shape()));
  for (int64_t nc = 0; nc < planes; ++nc) io.out[0]->data<T>()[nc] = combine(x.data<T>() + nc * plane, plane);
}

}  // namespace

Kernel<PoolParams> pool_ref_kernel() {
  return {"ref", [](const std::shared_ptr<const PoolParams>& p, const KernelArgs& a) -> Compiled {
            const ValueInfo& x = input(a.in, 0);
            require(x.concrete(), "input 0 shape ", to_string(x.shape), " is not known");
            const Shape spatial(x.shape.begin() + 2, x.shape.end());
            return std::make_unique<CompiledPool>(p, resolve_pool_geometry(p->window, spatial));
          }};
}

void global_average_pool_ref(const NoParams&, const KernelIO& io) {
  visit_dtype(io.in[0]->dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_floating_point_v<T>) {
      global_pool<T>(io, [](const T* src, int64_t n) {
        double sum = 0;
        for (int64_t i = 0; i < n; ++i) sum += double(src[i]);
        return T(sum / double(n));
      });
    } else {
      fail("element type ", dtype_name(io.in[0]->dtype()), " is not supported");
    }
  });
}

void global_max_pool_ref(const NoParams&, const KernelIO& io) {
  visit_dtype(io.in[0]->dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>) {
      global_pool<T>(io, [](const T* src, int64_t n) {
        T best = src[0];  // n >= 1: infer refuses empty spatial dims
        for (int64_t i = 1; i < n; ++i)
          if (beats(src[i], best)) best = src[i];
        return best;
      });
    } else {
      fail("element type ", dtype_name(io.in[0]->dtype()), " is not supported");
    }
  });
}

}  // namespace cnnx
