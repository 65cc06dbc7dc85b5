// com.microsoft QGemm (ONNX Runtime's contrib op, written by its quantizer for Gemm):
//
//   inputs  A, a_scale, a_zero_point, B, b_scale, b_zero_point, C, y_scale, y_zero_point   (C and y_* optional)
//   attrs   alpha (1.0), transA (0), transB (0)
//   acc[m, n] = sum_k (A'[m, k] - a_zp) * (B'[k, n] - b_zp[n]) + C[m, n]        exact, int64
//   r = alpha * a_scale * b_scale[n] * acc
//   Y = saturate(round_half_even(r / y_scale) + y_zp) with y_scale, else Y = r as float32
//
// A' = A or A^T (2-D, int8 or uint8), B' likewise (its own type); a_scale and a_zero_point one value; b_scale
// and b_zero_point one value or one per column [N]; C int32, broadcast to [M, N] (quantized with scale alpha *
// a_scale * b_scale, zero point 0). r is computed in double (multiplier, then one multiplication): a quantized
// Y is within one step of a float32 engine's (kOneQuantStep); a float Y within a few float32 roundings, where
// one quantization step of the inputs is far larger, so the op declares one step (abs 1) for both: loose for
// float outputs, which tests check against their own formula.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct QGemmParams : OpParams {
  double alpha = 1;
  bool trans_a = false, trans_b = false;
};

QGemmParams parse_qgemm(const Node& node);
std::vector<ValueInfo> infer_qgemm(const QGemmParams& p, const std::vector<ValueInfo>& in);
void qgemm_ref(const QGemmParams& p, const KernelIO& io);

}  // namespace cnnx
