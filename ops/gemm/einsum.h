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
// Reference kernel only: oneDNN 2.6's matmul primitive computes only the equations that are a batched matrix
// product after transposes ("bij,bjk->bik" and its permutations); diagonals, sums over a label present in one
// term only, outer products of three terms and ellipsis broadcasting need other primitives or copies first.
// A dnnl kernel for the matmul-shaped equations (maxvit's attention "b...ij,b...jk") is a possible later
// addition, declining every other equation.
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
std::vector<ValueInfo> infer_einsum(const EinsumParams& p, const std::vector<ValueInfo>& in);
// OpSpec::flops: inputs - 1 multiply-adds (2 FLOP each) per point of the loop nest the equation spells, whose
// size is the product of every label's size and the broadcast "..." dims (0 for one input: a sum or a transpose).
double einsum_flops(const EinsumParams& p, const std::vector<ValueInfo>& in);
void einsum_ref(const EinsumParams& p, const KernelIO& io);

// A sum of products: the reference sums in double, each product of two float32 terms exact in double, and
// rounds once. Another engine summing in float32 is off like a matrix product (ops/gemm/matrix_product.h), by
// an amount that scales with sum |products| (the reference on |inputs|; ops/common/sum_of_products.h).
constexpr Tolerance kEinsumTolerance{1e-5, 4e-5, kSumOfProductsTermsRel};

}  // namespace cnnx
