// MatMulInteger: parse and shape inference.
#include "ops/quant/matmul_integer.h"

#include "ops/common/node_checks.h"
#include "ops/gemm/matmul.h"
#include "ops/quant/quantization.h"

namespace cnnx {

std::vector<int64_t> zero_points_of(const Tensor* zp, int64_t count, const char* name) {
  if (!zp) return {0};
  require(zp->rank() <= 1, name, " must be a scalar or 1-D, got shape ", to_string(zp->shape()));
  require(zp->numel() == 1 || zp->numel() == count, name, " has ", zp->numel(), " values; expected 1 or ", count);
  std::vector<int64_t> v(size_t(zp->numel()));
  for (int64_t i = 0; i < zp->numel(); ++i) v[size_t(i)] = zp->int_at(i);
  return v;
}

std::vector<ValueInfo> infer_matmul_integer(const NoParams&, const std::vector<ValueInfo>& in) {
  require_quantized(in, 0, "A");
  require_quantized(in, 1, "B");
  if (!in[0].rank_known || !in[1].rank_known) return {ValueInfo::unknown(DType::i32)};
  const MatMulGeometry g = resolve_matmul_geometry({in[0], in[1]});
  const int64_t counts[] = {g.M, g.N};
  for (size_t i : {size_t(2), size_t(3)}) {
    if (!present(in, i)) continue;
    const char* name = i == 2 ? "a_zero_point" : "b_zero_point";
    require(in[i].dtype == in[i - 2].dtype, name, " (input ", i, ") has element type ", dtype_name(in[i].dtype),
            "; expected ", dtype_name(in[i - 2].dtype), ", the type of the tensor it quantizes");
    const ValueInfo& z = in[i];
    const int64_t count = counts[i - 2];
    require(!z.rank_known || z.rank() == 0 ||
                (z.rank() == 1 && (z.shape[0] == 1 || z.shape[0] < 0 || count < 0 || z.shape[0] == count)),
            name, " must be a scalar or 1-D with ", count, i == 2 ? " values (one per row of A)" : " values (one per column of B)",
            ", got shape ", to_string(z.shape));
  }
  return {ValueInfo::of(DType::i32, g.output_shape())};
}

}  // namespace cnnx
