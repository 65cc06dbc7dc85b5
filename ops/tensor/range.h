// Range (opset 11+): [start, start + delta, ...) up to (excluding) limit, from three scalar inputs of one type
// (float32, float64, int32, int64). Length max(ceil((limit - start) / delta), 0); delta 0, a non-finite
// argument or a length beyond kMaxSize is an error. The output is sized from data: infer computes the length
// (in 128-bit integers or doubles, never overflowing) and the tensor limit applies before it is allocated
// (engine/node_eval.cc). Element i is start + i * delta, computed exactly for integers and in double then
// rounded once for floats (numpy's arange; the ONNX loop's repeated float additions drift).
// Reference kernel only: oneDNN 2.6 has no primitive that generates a sequence. kExact: there is no other
// kernel to compare, and the integer elements are exact.
#pragma once

#include "engine/op.h"

namespace cnnx {

std::vector<ValueInfo> infer_range(const NoParams& p, const std::vector<ValueInfo>& in);
void range_ref(const NoParams& p, const KernelIO& io);
// The output length for scalar tensors start, limit, delta.
int64_t range_length(const Tensor& start, const Tensor& limit, const Tensor& delta);

}  // namespace cnnx
