#include "ops/control/subgraph_io.h"

#include <cstring>

namespace cnnx {

void require_one_element(const ValueInfo& v, DType dtype, const std::string& what) {
  require(v.dtype == dtype, what, " must be ", dtype_name(dtype), ", got ", dtype_name(v.dtype));
  if (v.concrete())
    require(checked_numel(v.shape) == 1, what, " must hold one element, got shape ", to_string(v.shape));
}

bool condition_value(const Tensor& t) {
  require(t.dtype() == DType::boolean && t.numel() == 1, "a condition must be one bool element");
  return *static_cast<const uint8_t*>(t.raw()) != 0;
}

void copy_into(const Tensor& from, Tensor& to, size_t offset) {
  require(from.dtype() == to.dtype() && offset <= to.bytes() && from.bytes() <= to.bytes() - offset,
          "internal error: a subgraph's output does not fit the node's");
  if (from.bytes()) std::memcpy(static_cast<char*>(to.raw()) + offset, from.raw(), from.bytes());
}

}  // namespace cnnx
