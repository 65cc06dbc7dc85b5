#include "ops/index/non_zero.h"

#include "ops/common/node_checks.h"

namespace cnnx {

int64_t count_non_zero(const Tensor& x) {
  int64_t count = 0;
  for (int64_t i = 0; i < x.numel(); ++i) count += x.double_at(i) != 0;
  return count;
}

std::vector<ValueInfo> infer_non_zero(const NoParams&, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  require(x.rank() >= 1, "X is a scalar; NonZero takes a tensor of rank 1 or more");
  return {ValueInfo::of(DType::i64, {x.rank(), x.constant ? count_non_zero(*x.constant) : kUnknownDim})};
}

}  // namespace cnnx
