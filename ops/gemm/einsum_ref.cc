// Einsum: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/gemm/einsum.h"

#include <algorithm>
#include <array>

namespace cnnx {

void einsum_ref(const EinsumParams& p, const KernelIO& io) {
  const size_t n = io.in.size();
  std::vector<Shape> shapes;
  for (const Tensor* t : io.in) shapes.push_back(t->shape());
  const EinsumAxes ax = einsum_axes(p, shapes);
  const std::vector<int64_t>& size = ax.size;
  Tensor& y = *io.out[0];
  Shape out_shape;
  for (int a : ax.of_output) out_shape.push_back(size[size_t(a)]);
  require(y.shape() == out_shape, "the output shape ", to_string(y.shape()), " is not ", to_string(out_shape));
  const size_t axes = size.size();
  // Per operand and loop axis: the element stride (repeated labels add up: the diagonal; broadcast: 0).
  std::vector<std::vector<int64_t>> stride(n, std::vector<int64_t>(axes, 0));
  for (size_t t = 0; t < n; ++t) {
    const Shape& s = shapes[t];
    int64_t st = 1;
    for (size_t k = s.size(); k-- > 0; st *= s[k])
      if (ax.of_input[t][k] >= 0) stride[t][size_t(ax.of_input[t][k])] += st;
  }
  // Output axes in output order, then the summed axes.
  std::vector<size_t> order(ax.of_output.begin(), ax.of_output.end());
  std::vector<bool> in_out(axes, false);
  for (size_t a : order) in_out[a] = true;
  const size_t n_out = order.size();
  for (size_t a = 0; a < axes; ++a)
    if (!in_out[a]) order.push_back(a);
  int64_t out_count = 1, sum_count = 1;
  for (size_t i = 0; i < order.size(); ++i) (i < n_out ? out_count : sum_count) *= size[order[i]];
  visit_dtype(y.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (!std::is_floating_point_v<T>) {
      fail("element type ", dtype_name(y.dtype()), " is not supported");
    } else {
      std::vector<const T*> src(n);
      for (size_t t = 0; t < n; ++t) src[t] = io.in[t]->template data<T>();
      T* dst = y.template data<T>();
      std::vector<int64_t> base(n), off(n), idx(order.size());
      for (int64_t o = 0; o < out_count; ++o) {
        // Decompose o over the output axes (last fastest).
        std::fill(base.begin(), base.end(), 0);
        int64_t rest = o;
        for (size_t i = n_out; i-- > 0;) {
          const int64_t v = rest % size[order[i]];
          rest /= size[order[i]];
          for (size_t t = 0; t < n; ++t) base[t] += v * stride[t][order[i]];
        }
        double acc = 0;
        off = base;
        std::fill(idx.begin(), idx.end(), 0);
        for (int64_t s = 0; s < sum_count; ++s) {
          double prod = 1;
          for (size_t t = 0; t < n; ++t) prod *= double(src[t][off[t]]);
          acc += prod;
          // Odometer over the summed axes, last fastest.
          for (size_t i = order.size(); i-- > n_out;) {
            const size_t a = order[i];
            if (++idx[i] < size[a]) {
              for (size_t t = 0; t < n; ++t) off[t] += stride[t][a];
              break;
            }
            idx[i] = 0;
            for (size_t t = 0; t < n; ++t) off[t] -= stride[t][a] * (size[a] - 1);
          }
        }
        dst[o] = T(acc);
      }
    }
  });
}

}  // namespace cnnx
