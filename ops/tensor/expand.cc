// Expand (opset 8+), any element type: a strided copy with stride 0 along broadcast dims.
#include "ops/tensor/expand.h"

#include "ops/common/broadcast.h"
#include "ops/common/data_movement.h"

namespace cnnx {

Shape expand_shape(const Shape& x, const std::vector<int64_t>& shape) {
  for (int64_t d : shape) require(d >= 0, "input 1 (shape) ", list_string(shape), " has a negative dim");
  Shape out = broadcast_shapes({x, shape});
  if (is_concrete(out)) checked_numel(out);  // overflow-checked before anything is allocated
  return out;
}

std::vector<ValueInfo> infer_expand(const NoParams&, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  require_dtype(in, 1, {DType::i64}, "input");
  const ValueInfo& s = in[1];
  require(s.rank() == 1, "input 1 (shape) must be 1-D, got shape ", to_string(s.shape));
  std::vector<int64_t> shape;
  if (!constant_ints(in, 1, shape)) {
    if (s.shape[0] < 0) return {ValueInfo::unknown(x.dtype)};
    return {unknown_dims(x.dtype, std::max<int64_t>(x.rank(), s.shape[0]))};
  }
  return {ValueInfo::of(x.dtype, expand_shape(x.shape, shape))};
}

}  // namespace cnnx
