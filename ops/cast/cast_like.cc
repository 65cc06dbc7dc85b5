// CastLike: parse, shape inference and the reference kernel (the conversions are Cast's).
#include "ops/cast/cast_like.h"

#include "ops/cast/cast.h"

namespace cnnx {

NoParams parse_cast_like(const Node& node) {
  require_inputs(node, 2, 2);
  require_outputs(node, 1, 1);
  if (node.opset >= 19) node.attrs.allow_only({"saturate"});
  else node.attrs.allow_only({});
  return {};
}

std::vector<ValueInfo> infer_cast_like(const NoParams&, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  const ValueInfo& like = input(in, 1);
  return {ValueInfo::of(like.dtype, x.shape)};
}

void cast_like_ref(const NoParams&, const KernelIO& io) {
  Tensor& y = *io.out[0];
  require(y.dtype() == io.in[1]->dtype(), "output ", dtype_name(y.dtype()), " is not the target's ",
          dtype_name(io.in[1]->dtype()));
  cast_elements(*io.in[0], y);
}

}  // namespace cnnx
