// The bfloat16 plan (Options::precision = bf16): which nodes compute on bfloat16 values, and the roundings
// that make the plan's float32 values the ones a bfloat16 computation stores. Run on the plan's graph after
// the graph passes (so a Conv's weights are rounded after BatchNormalization is folded into them, and a Conv
// fused with its activation stores one rounded output, as oneDNN's bf16 post-ops do).
//
// Per node, in order (Node::precision and Node::precision_why say which and why):
//   - bf16, with weights: Conv, FusedConv, ConvTranspose, Gemm, MatMul, FusedMatMul. Their constant weights
//     (Conv's W, a matrix product's A and B) are rounded to bfloat16 once, here; biases stay float32 (oneDNN's
//     bf16 convolution and inner product take f32 bias).
//   - bf16: MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool (float32 accumulation).
//   - bf16 when it reads a value a bf16 node wrote: the elementwise ops with oneDNN kernels (unary rows of the
//     activation table, Clip, PRelu, Add, Sub, Mul, Div, Max, Min, and BatchNormalization in inference: a
//     per-channel affine map). Constant operands stay float32.
//   - bf16 when every value it reads is bfloat16: the ops that move values as they are (Reshape, Flatten,
//     Transpose, Concat, ChannelShuffle, ...). Nothing is rounded for them.
//   - float32 otherwise: Softmax, normalization that computes statistics, reductions, and every op without a
//     bfloat16 kernel, each with its reason.
// Rounding: a value a bf16 node wrote is stored in bfloat16 (one RoundToFloat16 to bf16 after its producer,
// read by all its readers) when a bf16 node reads it and it is no graph output; graph outputs stay float32
// (a bf16 node reading one reads a rounded copy). A float32 value a bf16 node reads (a graph input, a
// Softmax's output) is rounded once for all its bf16 readers: the reorder to bf16 of a native plan.
//
// The numbers are those of a bfloat16 computation with float32 accumulation (each stored value and weight
// rounded once, to nearest even), whatever the kernels: float32 kernels on rounded values are the emulation
// the ref backend and CNNX_BFLOAT16=emulate run, and what native bfloat16 kernels must match.
//
// `native` (a plan whose bf16 nodes get oneDNN's bf16 kernels: CompileContext::precision) leaves out the
// roundings of constant weights those kernels do themselves (bfloat16_kernel_converts: prepared in bf16
// once, to nearest even as here). The numbers stay the same. Where such a kernel cannot run bf16 after
// all (oneDNN refuses the case, or --disable-kernel), that node computes float32 on its unrounded X and W.
#pragma once

#include "passes/pass.h"

namespace cnnx {

// Marks every node's precision and inserts the roundings (above); the report counts the RoundToFloat16 nodes
// made and the nodes marked bf16.
PassReport plan_bfloat16(Graph& graph, bool native);

// The inputs of a bf16 node (`in`: their infos) that its native kernel converts to bfloat16 itself, rounding
// to nearest even: a Conv's or FusedConv's X and W; a MatMul's or FusedMatMul's A and constant 2-D B; a Gemm
// layer's A and constant B (no transA, alpha 1, C absent or a constant row). Empty for other nodes. `--verify`
// rounds the same inputs for the reference kernel (idempotent where the plan rounded them already).
std::vector<size_t> bfloat16_kernel_converts(const Node& node, const std::vector<ValueInfo>& in);

// In a native plan, values are stored in bfloat16 between the kernels that can read them so (dnnl/layouts.h):
// a RoundToFloat16 to bf16 converts into a bfloat16 layout (or views its input when the producer stored it
// so already), and the plan offers bfloat16 layouts only to the nodes for which this is true: bf16 nodes whose
// every kernel but the reference reads them (reporting the layout it reads; the reference reads float32), and
// LayerNormalization, a float32 node (its statistics) whose oneDNN kernel computes in float32 from bfloat16
// values as exactly as from their float32 copies.
// Every other kernel is offered the float32 layout of the same arrangement, and the plan reorders to it.
bool reads_bfloat16_storage(const Node& node);
// True for a node that reads bfloat16 storage whose output 0 is read only by its rounding to bfloat16: its
// kernel may store it in bfloat16 itself (CompileContext::store_bfloat16), the rounding that one would make.
// `consumers`: consumers_of(graph).
bool output_read_rounded(const Graph& graph, const std::vector<std::vector<int>>& consumers, const Node& node);

}  // namespace cnnx
