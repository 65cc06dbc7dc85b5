// Which Einsum equations are a matrix product, and how: the operands' axes sorted into the dims of
// Y [batch..., M, N] = A [batch..., M, K] x B [batch..., K, N], each dim a group of axes read in place through
// strides. No oneDNN here: the dnnl kernel (einsum_dnnl.cc) turns the groups into memory descriptors.
//
// An equation of two operands is one when, after dropping every axis 1 long (it only moves the strides):
//   - no label repeats within an operand (a diagonal, "ii"),
//   - no label (or "..." dim) is summed in one operand only ("ij,jk->k": i is summed in A alone).
// Then each axis is batch (in A, B and Y), M (A and Y), N (B and Y) or K (A and B, summed). M and N are the
// longest runs of their axes, in output order, that are each one run of memory in A (or B) and in Y; any M
// or N axis before that run becomes a batch axis that the other operand broadcasts (oneDNN's matmul takes a
// batch dim of 1 in src or weights). K follows the memory order of the input `k_order_from`; in the other
// operand its axes may not be one run of memory (is_contiguous false), which a kernel fixes with a copy.
// Batch axes next to each other in Y, A and B merge into one group.
#pragma once

#include <string>
#include <vector>

#include "ops/gemm/einsum.h"

namespace cnnx {

// One axis of a tensor as the product reads it; stride in elements.
struct StridedAxis {
  int64_t size = 1, stride = 1;
};

// Axes read as one dim of their sizes' product, outermost first. Empty: a dim of 1 (an operand without
// this batch dim broadcasts; a product without M, N or K axes has M, N or K = 1).
using AxisGroup = std::vector<StridedAxis>;

// True when the group is one run of memory: each axis's stride is the next one's size times its stride.
bool is_contiguous(const AxisGroup& g);

struct EinsumMatmul {
  std::string why_not;  // "" when the equation is a matrix product; otherwise why not
  std::vector<AxisGroup> a, b, y;  // A: batch..., M, K; B: batch..., K, N; Y: batch..., M, N
};

// The matrix product computing `p` on inputs of `shapes`, or why there is none. Throws on shapes that do
// not match the equation (as infer_einsum does).
EinsumMatmul einsum_as_matmul(const EinsumParams& p, const std::vector<Shape>& shapes, size_t k_order_from = 0);

}  // namespace cnnx
