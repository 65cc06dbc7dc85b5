// MatMul (ONNX opset 1..13), and FusedMatMul (the same with a bias): numpy matmul. A 1-D A [K] is read as [1, K] and a 1-D B [K] as [K, 1], and the
// added dim is dropped from the output; the batch dims (all but the last two) broadcast numpy-style.
// resolve_matmul_geometry validates shapes (dims may be kUnknownDim at load time); infer and kernels use it.
#pragma once

#include <string>

#include "engine/op.h"
#include "ops/common/activation.h"

namespace cnnx {

struct MatMulGeometry {
  int64_t M = 0, N = 0, K = 0;  // kUnknownDim while unknown
  bool a_is_vector = false, b_is_vector = false;
  Shape a_batch, b_batch;  // the inputs' batch dims (empty for 1-D and 2-D inputs)
  Shape batch;             // their broadcast
  Shape output_shape() const;  // batch + [M unless A is 1-D] + [N unless B is 1-D]
};

// What FusedMatMul applies after the product: Y = activation(A B + bias + R).
struct MatMulFusion {
  bool residual = false;                      // input 3, R of Y's shape, is added before the activation
  const ActivationDef* activation = nullptr;  // a fusable row of the activation table, or none
  ActivationArgs args;
  std::string summary() const;                // "MatMul+bias", "MatMul+bias+Add+Gelu"
};

// MatMul has no attributes; FusedMatMul (domain cnnx.internal, made by the fuse-matmul-bias pass from MatMul
// then Add of a constant bias, passes/fuse_matmul_bias.cc) is MatMul with a third input: Y = A B + bias, bias
// of shape [N] added to every row, then optionally a residual input 3 added and an activation applied (set
// by the pass in `fusion`; parse takes the residual from input 3 alone).
struct MatMulParams : OpParams {
  bool bias = false;  // input 2, [N]
  MatMulFusion fusion;
};

MatMulParams parse_matmul(const Node& node);
MatMulParams parse_fused_matmul(const Node& node);
MatMulGeometry resolve_matmul_geometry(const std::vector<ValueInfo>& in);
std::vector<ValueInfo> infer_matmul(const MatMulParams& p, const std::vector<ValueInfo>& in);
// OpHints::flops: 2 * prod(broadcast batch dims) * M * N * K (FusedMatMul's bias not counted).
double matmul_flops(const MatMulParams& p, const std::vector<ValueInfo>& in);
// One matrix_product per batch element, summed in double with the bias and the residual, the activation
// applied in double, one rounding per output.
Kernel<MatMulParams> matmul_ref_kernel();
// oneDNN matmul with batch broadcasting and the bias as its bias argument, the residual as a sum post-op and
// the activation as eltwise post-ops; batched operands in the dense permuted layouts they arrive in and dst
// in the one its reader wishes, where oneDNN has a JIT kernel. Declines what oneDNN refuses (matmul_dnnl.cc).
Kernel<MatMulParams> matmul_dnnl_kernel();

}  // namespace cnnx
