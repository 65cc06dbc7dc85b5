// MatMul (ONNX opset 1..13): numpy matmul. A 1-D A [K] is read as [1, K] and a 1-D B [K] as [K, 1], and the
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

NoParams parse_matmul(const Node& node);
MatMulGeometry resolve_matmul_geometry(const std::vector<ValueInfo>& in);
std::vector<ValueInfo> infer_matmul(const NoParams& p, const std::vector<ValueInfo>& in);
// One matrix_product per batch element, summed in double, one rounding per output.
Kernel<NoParams> matmul_ref_kernel();
// oneDNN matmul with batch broadcasting; declines what oneDNN refuses (matmul_dnnl.cc).
Kernel<NoParams> matmul_dnnl_kernel();

}  // namespace cnnx
