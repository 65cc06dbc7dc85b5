// Gemm (ONNX opset 1..13): Y [M, N] = alpha * A' B' + beta * C, with A' = transA ? A^T : A ([M, K]) and
// B' = transB ? B^T : B ([K, N]).
//
// Opset differences: before 7, C is required and is [M, N] unless the `broadcast` attribute is 1; from 7 on
// C broadcasts unidirectionally to [M, N] (scalar, [N], [1, N], [M, 1], ...); from 11 on C is optional.
// resolve_gemm_geometry validates shapes (dims may be kUnknownDim at load time); infer and kernels use it.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct GemmParams : OpParams {
  float alpha = 1, beta = 1;
  bool trans_a = false, trans_b = false;
  bool c_broadcasts = true;  // false only before opset 7 with broadcast = 0: C must be exactly [M, N]
};

struct GemmGeometry {
  int64_t M = 0, N = 0, K = 0;  // kUnknownDim while unknown
  bool has_c = false;
  Shape c_shape;
};

GemmParams parse_gemm(const Node& node);
GemmGeometry resolve_gemm_geometry(const GemmParams& p, const std::vector<ValueInfo>& in);
std::vector<ValueInfo> infer_gemm(const GemmParams& p, const std::vector<ValueInfo>& in);
// OpHints::flops: 2 * M * N * K (alpha, beta * C not counted).
double gemm_flops(const GemmParams& p, const std::vector<ValueInfo>& in);
// Sums A' B' in double, then alpha * sum + beta * C in double, one rounding per output.
Kernel<GemmParams> gemm_ref_kernel();
// oneDNN matmul: transposes as strides, alpha as the output scale, beta * C as a sum post-op (gemm_dnnl.cc).
Kernel<GemmParams> gemm_dnnl_kernel();

}  // namespace cnnx
