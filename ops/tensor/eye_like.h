// EyeLike (opset 9+): a 2-D tensor of input 0's shape with ones on diagonal k (y[i, j] = 1 where j - i == k,
// k > 0 above the main diagonal, k < 0 below) and zeros elsewhere. Input 0 gives only the shape: its values are
// not read. The output element type is attribute `dtype` (an ONNX TensorProto.DataType), input 0's when absent.
// Reference kernel only (oneDNN 2.6 has no primitive that writes by element position); kExact.
#pragma once

#include "engine/op.h"

namespace cnnx {

struct EyeLikeParams : OpParams {
  DType dtype = DType::undefined;  // undefined: input 0's element type
  int64_t k = 0;
};

EyeLikeParams parse_eye_like(const Node& node);
std::vector<ValueInfo> infer_eye_like(const EyeLikeParams& p, const std::vector<ValueInfo>& in);
void eye_like_ref(const EyeLikeParams& p, const KernelIO& io);

}  // namespace cnnx
