// Slice: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/tensor/slice.h"

#include <algorithm>

#include "ops/common/data_movement.h"

namespace cnnx {

void slice_ref(const SliceParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& y = *io.out[0];
  SliceGeometry g;
  if (p.from_inputs) {
    auto arg = [&](size_t i, const char* what) {
      return ints_of(io.optional_in(i), what);
    };
    const std::vector<int64_t> axes = arg(3, "axes"), steps = arg(4, "steps");
    const bool has_axes = io.optional_in(3), has_steps = io.optional_in(4);
    g = resolve_slice(x.shape(), arg(1, "starts"), arg(2, "ends"), has_axes ? &axes : nullptr,
                      has_steps ? &steps : nullptr);
  } else {
    g = resolve_slice(x.shape(), p.starts, p.ends, p.has_axes ? &p.axes : nullptr, nullptr);
  }
  if (g.out != y.shape()) fail("output shape ", to_string(y.shape()), " does not match ", to_string(g.out));
  const std::vector<int64_t> x_strides = strides_of(x.shape());
  int64_t base = 0;
  std::vector<int64_t> strides(x_strides.size());
  for (size_t a = 0; a < strides.size(); ++a) {
    base += g.start[a] * x_strides[a];
    // Only followed when the output has >= 2 elements along a; then |step| < dim, so the product fits.
    strides[a] = g.out[a] >= 2 ? g.step[a] * x_strides[a] : 0;
  }
  strided_copy(x.dtype(), x.raw(), base, strides, y.raw(), g.out);
}

}  // namespace cnnx
