// MatMul (ONNX opset 1..13), and FusedMatMul (the same with a bias): numpy matmul. A 1-D A [K] is read as [1, K] and a 1-D B [K] as [K, 1], and the
// added dim is dropped from the output; the batch dims (all but the last two) broadcast numpy-style.
// resolve_matmul_geometry validates shapes (dims may be kUnknownDim at load time); infer and kernels use it.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct MatMulGeometry {
  int64_t M = 0, N = 0, K = 0;  // kUnknownDim while unknown
  bool a_is_vector = false, b_is_vector = false;
  Shape a_batch, b_batch;  // the inputs' batch dims (empty for 1-D and 2-D inputs)
  Shape batch;             // their broadcast
  Shape output_shape() const;  // batch + [M unless A is 1-D] + [N unless B is 1-D]
};

// MatMul has no attributes; FusedMatMul (domain cnnx.internal, made by the fuse-matmul-bias pass from MatMul
// then Add of a constant bias, passes/fuse_matmul_bias.cc) is MatMul with a third input: Y = A B + bias, bias
// of shape [N] added to every row.
struct MatMulParams : OpParams {
  bool bias = false;  // input 2, [N]
};

MatMulParams parse_matmul(const Node& node);
MatMulParams parse_fused_matmul(const Node& node);
MatMulGeometry resolve_matmul_geometry(const std::vector<ValueInfo>& in);
std::vector<ValueInfo> infer_matmul(const MatMulParams& p, const std::vector<ValueInfo>& in);
// OpSpec::flops: 2 * prod(broadcast batch dims) * M * N * K (FusedMatMul's bias not counted).
double matmul_flops(const MatMulParams& p, const std::vector<ValueInfo>& in);
// One matrix_product per batch element, summed in double with the bias, one rounding per output.
Kernel<MatMulParams> matmul_ref_kernel();
// oneDNN matmul with batch broadcasting and the bias as its bias argument; declines what oneDNN refuses
// (matmul_dnnl.cc).
Kernel<MatMulParams> matmul_dnnl_kernel();

}  // namespace cnnx
