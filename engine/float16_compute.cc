#include "engine/float16_compute.h"

#include <set>
#include <string>

#include "engine/float16.h"
#include "engine/releasable_pages.h"

namespace cnnx {

bool moves_float16_as_is(const Node& node) {
  static const std::set<std::string> kAsIs = {"Cast",    "CastLike", "Reshape", "Flatten", "Squeeze",
                                              "Unsqueeze", "Identity", "Transpose", "Concat", "Slice",
                                              "Gather",  "Split",    "Shape",   "Size"};
  return node.domain.empty() && kAsIs.count(node.op_type) > 0;
}

DType float16_type_of(const std::vector<ValueInfo>& in) {
  for (const ValueInfo& v : in)
    if (is_float16_family(v.dtype)) return v.dtype;
  return DType::undefined;
}

bool computes_float16_in_float32(const Node& node, const std::vector<ValueInfo>& in) {
  return float16_type_of(in) != DType::undefined && !moves_float16_as_is(node);
}

Tensor float16_family_to_float32(const Tensor& t) {
  // A large one (a weight widened for a plan) where the importer puts large initializers, so the plan that
  // prepares it releases its bytes (engine/releasable_pages.h): a plan of a float16 graph then holds its
  // weights once, prepared, beside the model's 16-bit copy.
  const size_t bytes = size_t(t.numel()) * sizeof(float);
  Tensor out = bytes >= kReleasableBytes ? Tensor::adopt(DType::f32, t.shape(), allocate_releasable(bytes))
                                         : Tensor::uninitialized(DType::f32, t.shape());
  float16_family_to_float(t.dtype(), static_cast<const uint16_t*>(t.raw()), out.data<float>(), size_t(t.numel()));
  return out;
}

Tensor float32_to_float16_family(const Tensor& t, DType to) {
  Tensor out(to, t.shape());
  float_to_float16_family(to, t.data<float>(), static_cast<uint16_t*>(out.raw()), size_t(t.numel()));
  return out;
}

ValueInfo float16_family_info_as_float32(const ValueInfo& v) {
  ValueInfo out = v;
  out.dtype = DType::f32;
  if (v.constant) out.constant = std::make_shared<const Tensor>(float16_family_to_float32(*v.constant));
  return out;
}

ValueInfo float32_info_as(const ValueInfo& v, DType to) {
  ValueInfo out = v;
  out.dtype = to;
  if (v.constant) out.constant = std::make_shared<const Tensor>(float32_to_float16_family(*v.constant, to));
  return out;
}

}  // namespace cnnx
