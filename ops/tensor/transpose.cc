// Transpose (opset 1+), any element type.
#include "ops/tensor/transpose.h"

#include "ops/common/data_movement.h"

namespace cnnx {

TransposeParams parse_transpose(const Node& node) {
  check_node(node, 1, 1, {"perm"});
  TransposeParams p;
  p.has_perm = node.attrs.has("perm");
  p.perm = node.attrs.get_ints("perm");
  return p;
}

std::vector<int64_t> resolve_perm(const TransposeParams& p, int64_t rank) {
  if (!p.has_perm) {
    std::vector<int64_t> perm;
    for (int64_t a = rank; a-- > 0;) perm.push_back(a);
    return perm;
  }
  require(int64_t(p.perm.size()) == rank, "attribute 'perm' ", list_string(p.perm), " has ", p.perm.size(),
          " entries for an input of rank ", rank);
  std::vector<bool> seen(size_t(rank), false);
  for (int64_t a : p.perm) {
    if (a < 0 || a >= rank || seen[size_t(a)]) fail("attribute 'perm' ", list_string(p.perm),
            " is not a permutation of 0..", rank - 1);
    seen[size_t(a)] = true;
  }
  return p.perm;
}

std::vector<ValueInfo> infer_transpose(const TransposeParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& x = input(in, 0);
  Shape out;
  for (int64_t a : resolve_perm(p, x.rank())) out.push_back(x.shape[size_t(a)]);
  return {ValueInfo::of(x.dtype, out)};
}

}  // namespace cnnx
