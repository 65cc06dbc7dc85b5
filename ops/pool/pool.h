// AveragePool (opsets 1, 7, 10, 11, 19), MaxPool (opsets 1, 8, 10, 11, 12), GlobalAveragePool and
// GlobalMaxPool (opset 1): X [N, C, D1..Dk] -> Y [N, C, O1..Ok] (MaxPool also Indices, int64, same shape).
//
// parse_pool reads the window (ops/pool/pool_geometry.h) plus count_include_pad / storage_order and refuses
// attributes the node's opset does not have (dilations on AveragePool before 19, ceil_mode before 10,
// count_include_pad before 7, storage_order and the Indices output before 8) by name. infer_pool and the
// kernels resolve the geometry with resolve_pool_geometry; the kernels get the geometry resolved once at
// compile time, from the concrete input shape.
//
// MaxPool semantics: padding is never a candidate (the max is over input cells only); NaN wins (the first NaN
// of the window, like numpy's max); ties pick the first cell in row-major window order. Indices are flat
// indices into X: (n * C + c) * D1*..*Dk + spatial index, the spatial index row-major (storage_order 0) or
// column-major (storage_order 1, the first spatial axis fastest), as in the onnx node tests
// test_maxpool_with_argmax_* and onnxruntime.
//
// The ops are registered in ops/pool/register.cc; this header gives their parse, infer and kernels.
#pragma once

#include "engine/op.h"
#include "ops/pool/pool_geometry.h"

namespace cnnx {

enum class PoolKind { average, max };

struct PoolParams : OpParams {
  PoolKind kind = PoolKind::average;
  PoolWindow window;
  bool count_include_pad = false;     // AveragePool, opset 7+
  bool column_major_indices = false;  // MaxPool storage_order = 1, opset 8+
  bool wants_indices = false;         // MaxPool's optional Indices output is present
};

PoolParams parse_average_pool(const Node& node);
PoolParams parse_max_pool(const Node& node);
// Input 0's [N, C] and the output spatial dims of the resolved geometry; MaxPool also the int64 Indices.
std::vector<ValueInfo> infer_pool(const PoolParams& p, const std::vector<ValueInfo>& in);

// GlobalAveragePool / GlobalMaxPool: no attributes; [N, C, 1, ..., 1], every spatial dim non-empty (the max or
// mean of nothing is undefined). Average: float32 and float64; max also int8 and uint8.
std::vector<ValueInfo> infer_global_average_pool(const NoParams&, const std::vector<ValueInfo>& in);
std::vector<ValueInfo> infer_global_max_pool(const NoParams&, const std::vector<ValueInfo>& in);

// Reference kernels (ops/pool/pool_ref.cc): plain loops over NCHW, any number of spatial dims. AveragePool sums
// in double and rounds once; MaxPool and GlobalMaxPool select. float32 and float64; MaxPool also int8 and uint8
// (opset 12).
Kernel<PoolParams> pool_ref_kernel();
void global_average_pool_ref(const NoParams&, const KernelIO& io);
void global_max_pool_ref(const NoParams&, const KernelIO& io);

// MaxPool's native kernel (ops/pool/max_pool_native.cc): float32, 2 spatial dims, no dilation, no Indices; a
// separable max over the input where it arrives: plain on every CPU (oneDNN pools plain tensors in scalar
// code), channel-blocked or channels-last where oneDNN runs avx2 code (measured faster there; oneDNN's
// avx512_core pooling measured faster than it, so it declines those layouts on other ISAs, saying which).
// Exact, NaN included.
Kernel<PoolParams> max_pool_native_kernel();
// oneDNN kernels (ops/pool/pool_dnnl.cc): float32, 1 to 3 spatial dims; they decline MaxPool's Indices
// output and an AveragePool whose count_include_pad divisor oneDNN cannot reproduce (the file says when).
Kernel<PoolParams> pool_dnnl_kernel();
Kernel<NoParams> global_pool_dnnl_kernel(bool is_max);

// "" or a warning naming the AveragePool settings other engines compute differently (ceil_mode windows
// dropped or overhanging with count_include_pad, SAME padding with dilations); OpHints::caution of AveragePool
// (ops/pool/pool_caution.cc).
std::string average_pool_caution(const PoolParams& p, const std::vector<ValueInfo>& in);

// MaxPool / GlobalMaxPool select an input value: any engine gets the same bits (kExact, engine/op.h).
// AveragePool / GlobalAveragePool: a mean of K float32 values. The reference sums in double and rounds once
// (<= 0.5 ulp). An engine summing in float32 is off by at most ~K * eps * mean|x| and typically by
// ~sqrt(K) * eps * mean|x| (rounding errors random-walk). Windows reach K ~ 3136 (a 56x56 global pool):
// sqrt(K) * 2^-24 ~ 3.3e-6, so rel 1e-5 leaves a 3x margin; the absolute term covers means that cancel to ~0
// (error ~ sqrt(K) * eps * |x| for activations of O(1)).
constexpr Tolerance kPoolAverageTolerance{1e-5, 1e-5};

}  // namespace cnnx
