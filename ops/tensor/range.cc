// Range (opset 11+).
#include "ops/tensor/range.h"

#include <cmath>

#include "ops/common/data_movement.h"

namespace cnnx {

// The output length for scalar tensors start, limit, delta.
int64_t range_length(const Tensor& start, const Tensor& limit, const Tensor& delta) {
  require(start.numel() == 1 && limit.numel() == 1 && delta.numel() == 1, "start, limit and delta must be scalars");
  if (start.dtype() == DType::f32 || start.dtype() == DType::f64) {
    const double s = start.double_at(0), l = limit.double_at(0), d = delta.double_at(0);
    require(std::isfinite(s) && std::isfinite(l) && std::isfinite(d), "start ", s, ", limit ", l, ", delta ", d,
            ": every one must be finite");
    require(d != 0, "delta must not be 0");
    const double n = std::ceil((l - s) / d);
    require(n <= double(kMaxSize), "Range from ", s, " to ", l, " by ", d, " would have ", n,
            " elements, beyond the limit of ", kMaxSize);
    return n > 0 ? int64_t(n) : 0;
  }
  const __int128 s = start.int_at(0), l = limit.int_at(0), d = delta.int_at(0);
  require(d != 0, "delta must not be 0");
  const __int128 span = l - s;
  // ceil(span / d) with truncating division.
  __int128 n = span / d;
  if (span % d != 0 && ((span < 0) == (d < 0))) ++n;
  require(n <= __int128(kMaxSize), "Range from ", int64_t(s), " to ", int64_t(l), " by ", int64_t(d),
          " would have more than ", kMaxSize, " elements");
  return n > 0 ? int64_t(n) : 0;
}

std::vector<ValueInfo> infer_range(const NoParams&, const std::vector<ValueInfo>& in) {
  require_dtype(in, 0, {DType::f32, DType::f64, DType::i32, DType::i64}, "input");
  for (size_t i = 0; i < 3; ++i) {
    const ValueInfo& v = input(in, i);
    require(v.dtype == in[0].dtype, "input ", i, " has element type ", dtype_name(v.dtype), "; input 0 has ",
            dtype_name(in[0].dtype));
    require(v.rank() == 0 || (v.rank() == 1 && v.shape[0] <= 1), "input ", i, " must be a scalar, got shape ",
            to_string(v.shape));
  }
  if (!(in[0].constant && in[1].constant && in[2].constant)) return {unknown_dims(in[0].dtype, 1)};
  return {ValueInfo::of(in[0].dtype, {range_length(*in[0].constant, *in[1].constant, *in[2].constant)})};
}

}  // namespace cnnx
