// Cast: the reference kernel (plain loops; the oracle the op's other kernels are checked against).
#include "ops/tensor/cast.h"

#include <cctype>
#include <string>

namespace cnnx {

namespace {

template <class To, class From>
void convert(const Tensor& x, Tensor& y) {
  const int64_t n = x.numel();
  To* d = static_cast<To*>(y.raw());
  if constexpr (std::is_same_v<From, bool>) {
    // Stored bool bytes are read as bytes: any nonzero byte is true.
    const uint8_t* s = static_cast<const uint8_t*>(x.raw());
    for (int64_t i = 0; i < n; ++i) d[i] = cast_value<To>(uint8_t(s[i] != 0));
  } else {
    const From* s = static_cast<const From*>(x.raw());
    for (int64_t i = 0; i < n; ++i) d[i] = cast_value<To>(s[i]);
  }
}

}  // namespace

void cast_ref(const CastParams& p, const KernelIO& io) {
  const Tensor& x = *io.in[0];
  Tensor& y = *io.out[0];
  if (!(y.dtype() == p.to && y.numel() == x.numel()))
    fail("output ", dtype_name(y.dtype()), to_string(y.shape()), " does not match the input");
  visit_dtype(x.dtype(), [&](auto from) {
    visit_dtype(y.dtype(), [&](auto to) { convert<decltype(to), decltype(from)>(x, y); });
  });
}

}  // namespace cnnx
