// How ops without float16/bfloat16 kernels take 16-bit float values: they compute in float32.
//
// An op computes float16 in float32 when one of its inputs is float16 or bfloat16 and it is not one of the
// ops that move such values as they are (Cast and CastLike convert them; Reshape, Flatten, Squeeze, Unsqueeze,
// Identity, Transpose, Concat, Slice, Gather, Split, Shape and Size only copy or describe elements, with
// kernels that copy by element size). For such a node:
//   - shape inference (engine/node_eval.cc) reads its 16-bit inputs as float32 and gives each float32 output
//     the 16-bit type of its inputs, which is the type ONNX gives it (T in, T out); a constant input is
//     converted exactly, a folded output rounded to the 16-bit type;
//   - the graph pass float16-compute (passes/float16_compute.cc) makes it so: Cast to float32 before it
//     (constants converted once, when the plan is made), the op in float32, Cast back to the 16-bit type after
//     it. So every value between ops holds the float16 (bfloat16) a 16-bit computation stores, as ONNX
//     Runtime's CPU provider does for ops without float16 kernels.
//   - at load (engine/graph.cc), a 16-bit constant that only such ops read is widened to float32 once and its
//     16-bit copy dropped, as is one read only by a Cast to float32 (float16 weights): a model holds each
//     weight once.
#pragma once

#include <vector>

#include "engine/node.h"
#include "engine/value_info.h"

namespace cnnx {

// True for the ops that take float16/bfloat16 values as they are (listed above).
bool moves_float16_as_is(const Node& node);
// True when `node` reads a float16/bfloat16 input (infos `in`) and does not move such values as they are.
bool computes_float16_in_float32(const Node& node, const std::vector<ValueInfo>& in);
// The 16-bit float type of the first such input (DType::undefined when none).
DType float16_type_of(const std::vector<ValueInfo>& in);

// A float16/bfloat16 tensor as float32 (exact), and a float32 tensor rounded to `to` (f16 or bf16).
Tensor float16_family_to_float32(const Tensor& t);
Tensor float32_to_float16_family(const Tensor& t, DType to);
// The info of a float16/bfloat16 value as float32 (its constant converted), and of a float32 value as `to`
// (its constant rounded).
ValueInfo float16_family_info_as_float32(const ValueInfo& v);
ValueInfo float32_info_as(const ValueInfo& v, DType to);

}  // namespace cnnx
