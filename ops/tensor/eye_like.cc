// EyeLike (opset 9+).
#include "ops/tensor/eye_like.h"

#include <limits>

#include "ops/common/data_movement.h"

namespace cnnx {

EyeLikeParams parse_eye_like(const Node& node) {
  check_node(node, 1, 1, {"dtype", "k"});
  EyeLikeParams p;
  if (node.attrs.has("dtype")) {
    const int64_t code = node.attrs.require_int("dtype");
    p.dtype = code > 0 && code <= std::numeric_limits<int32_t>::max() ? dtype_from_onnx(int32_t(code))
                                                                       : DType::undefined;
    // float16/bfloat16 are storage types without arithmetic kernels (engine/float16.h); an EyeLike of a
    // float16 input (no dtype attribute) is made in float32 and rounded (engine/float16_compute.h).
    if (is_float16_family(p.dtype)) p.dtype = DType::undefined;
    require(p.dtype != DType::undefined, "attribute 'dtype' = ", code,
            " is not an element type EyeLike makes (float32, float64, int64, int32, int8, uint8, bool)");
  }
  p.k = node.attrs.get_int("k", 0);
  return p;
}

std::vector<ValueInfo> infer_eye_like(const EyeLikeParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  require(!x.rank_known || x.rank() == 2, "input 0 must be 2-D, got shape ", to_string(x.shape));
  const DType out = p.dtype == DType::undefined ? x.dtype : p.dtype;
  if (!x.rank_known) return {unknown_dims(out, 2)};
  return {ValueInfo::of(out, x.shape)};
}

}  // namespace cnnx
