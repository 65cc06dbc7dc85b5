// Einsum (opset 12): a sum of products over an Einstein-summation equation, float32 or float64.
//
//   equation  "ab,bc->ac" (explicit output) or "ab,bc" (implicit output: the ellipsis dims, then the labels
//             that occur exactly once over all terms, in ASCII order, as numpy orders them). Labels are the
//             letters a-z, A-Z; spaces are ignored. A label repeated within one term takes the diagonal
//             ("ii->i"); a label missing from the output is summed over. "..." (at most once per term)
//             stands for the dims not named by letters; the ellipsis dims of all terms broadcast against
//             each other, right-aligned (numpy rules). An explicit output without "..." sums them.
//
// The equation is parsed once, in parse_einsum, into an EinsumParams; a malformed equation or a term count
// that differs from the node's input count is an error there. Ranks and dims are checked against the terms
// in infer (every term's rank, one size per label, broadcastable ellipsis dims).
//
// Kernels: "dnnl" (ops/gemm/einsum_dnnl.cc) for the equations of two operands that are a batched matrix
// product once the operands' axes are permuted (einsum_as_matmul, ops/gemm/einsum_matmul.h), such as
// maxvit's attention "BGHID,BGHJD->BGHIJ"; it declines the rest (diagonals, a label summed in one operand
// only, one operand or more than two) with the reason. "ref" runs every equation.
#pragma once

#include <string>
#include <vector>

#include "engine/op.h"
#include "ops/common/sum_of_products.h"

namespace cnnx {

constexpr int kEinsumEllipsis = -1;  // the "..." of a term; labels are 0..51

struct EinsumParams : OpParams {
  std::string equation;
  std::vector<std::vector<int>> terms;  // per input: label ids and at most one kEinsumEllipsis
  std::vector<int> output;              // label ids and at most one kEinsumEllipsis
  bool explicit_output = false;
};

// Parses `equation` for `operands` inputs (throws a cnnx::Error saying what is wrong).
EinsumParams parse_einsum_equation(const std::string& equation, size_t operands);
EinsumParams parse_einsum(const Node& node);
// The explicit equation of `terms` and `output` (label ids, kEinsumEllipsis), as parse_einsum_equation reads it.
std::string einsum_equation(const std::vector<std::vector<int>>& terms, const std::vector<int>& output);
std::vector<ValueInfo> infer_einsum(const EinsumParams& p, const std::vector<ValueInfo>& in);
// OpHints::flops: inputs - 1 multiply-adds (2 FLOP each) per point of the loop nest the equation spells, whose
// size is the product of every label's size and the broadcast "..." dims (0 for one input: a sum or a transpose).
double einsum_flops(const EinsumParams& p, const std::vector<ValueInfo>& in);
void einsum_ref(const EinsumParams& p, const KernelIO& io);
// oneDNN matmul for the equations that are a matrix product (einsum_dnnl.cc); declines the others.
Kernel<EinsumParams> einsum_dnnl_kernel();

// The loop nest of an equation on concrete input shapes: one axis per label that occurs and one per dim of
// the broadcast "..." (the "..." dims first, then the labels in id order).
struct EinsumAxes {
  std::vector<int64_t> size;               // per axis
  std::vector<std::string> name;           // per axis, for messages: "j", "...[0]" (the first "..." dim)
  std::vector<std::vector<int>> of_input;  // per input and dim: its axis; -1 for a "..." dim of 1 broadcast
                                           // against a larger one. A label repeated in a term repeats its axis.
  std::vector<int> of_output;              // per output dim: its axis
};
// Validates the shapes against the terms as infer_einsum does (throws what does not match).
EinsumAxes einsum_axes(const EinsumParams& p, const std::vector<Shape>& shapes);

// A sum of products: the reference sums in double, each product of two float32 terms exact in double, and
// rounds once. Another engine summing in float32 is off like a matrix product (ops/gemm/matrix_product.h), by
// an amount that scales with sum |products| (the reference on |inputs|; ops/common/sum_of_products.h).
constexpr Tolerance kEinsumTolerance{1e-5, 4e-5, kSumOfProductsTermsRel};

}  // namespace cnnx
