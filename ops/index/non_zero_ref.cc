// NonZero: the reference kernel.
#include "ops/index/non_zero.h"

namespace cnnx {

void non_zero_ref(const NoParams&, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& y = *io.out[0];
  const int64_t count = count_non_zero(x);
  require(y.shape() == Shape{x.rank(), count}, "X has ", count, " nonzero elements; the output was planned as ",
          to_string(y.shape()));
  const std::vector<int64_t> strides = strides_of(x.shape());
  int64_t* out = y.data<int64_t>();
  for (int64_t i = 0, k = 0; i < x.numel(); ++i) {
    if (x.double_at(i) == 0) continue;
    int64_t rest = i;
    for (size_t d = 0; d < strides.size(); ++d) {
      out[int64_t(d) * count + k] = rest / strides[d];
      rest %= strides[d];
    }
    ++k;
  }
}

}  // namespace cnnx
