// Pass "einsum-transposes": the Transposes around an Einsum folded into its equation. An input made by a
// Transpose, whose term has no "...", is read before the Transpose with the term's letters permuted (a term
// "bhid" over X transposed by perm (0, 2, 1, 3) is "bihd" over X); a Transpose that is the only reader of the
// Einsum's output (its term without "...") is written directly, the output term permuted. The Einsum's dnnl
// kernel reads and writes through strides (ops/gemm/einsum_dnnl.cc), so a permuted term costs nothing there,
// and the Transposes' copies go: maxvit's attention has four per layer (q, k, v in, the heads out). A
// Mul by a scalar constant between the Transpose and the Einsum (attention's scaled k), read only by the
// Einsum, commutes with the Transpose: it is made to read the Transpose's input, and the Transpose folds.
// A Transpose left without readers is removed.
#include <algorithm>

#include "ops/gemm/einsum.h"
#include "ops/tensor/transpose.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

bool has_ellipsis(const std::vector<int>& term) {
  return std::find(term.begin(), term.end(), kEinsumEllipsis) != term.end();
}

// The Mul reading `value` when it is read only by the Einsum, multiplies it by a scalar constant and reads
// it from a Transpose; the Mul's other input goes to `scalar`.
const Node* scaled_transpose(const Graph& g, const std::vector<std::vector<int>>& consumers, int value, int& scalar) {
  const Node* mul = producer_of(g, value);
  if (!mul || !is_op(*mul, "Mul") || !used_once(g, consumers, value) || mul->inputs.size() != 2) return nullptr;
  double c;
  for (int k = 0; k < 2; ++k) {
    const Node* t = producer_of(g, mul->inputs[size_t(k)]);
    scalar = mul->inputs[size_t(1 - k)];
    if (t && is_op(*t, "Transpose") && scalar_constant(g, scalar, c) &&
        g.value(scalar).info.rank() <= g.value(value).info.rank() && g.value(scalar).info.dtype == g.value(value).info.dtype)
      return mul;
  }
  return nullptr;
}

std::vector<int64_t> perm_of(const Graph& g, const Node& transpose) {
  return resolve_perm(params_as<TransposeParams>(*transpose.params, transpose.op_type),
                      int64_t(g.value(transpose.inputs[0]).info.rank()));
}

}  // namespace

void fold_einsum_transposes(Graph& g, PassDeclines&) {
  const auto consumers = consumers_of(g);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& einsum = g.nodes[n];
    if (!is_op(einsum, "Einsum") || einsum.outputs[0] < 0) continue;
    const auto& p = params_as<EinsumParams>(*einsum.params, einsum.op_type);
    std::vector<std::vector<int>> terms = p.terms;
    std::vector<int> output = p.output, inputs = einsum.inputs;
    std::string folded;
    // Input i read before Transpose `t`, from `value` (t's input, or a value with its layout).
    auto fold_input = [&](size_t i, const Node& t, int value) {
      // Dim j of the Transpose's output is dim perm[j] of its input.
      const std::vector<int64_t> perm = perm_of(g, t);
      std::vector<int> term(terms[i].size());
      for (size_t j = 0; j < perm.size(); ++j) term[size_t(perm[j])] = terms[i][j];
      terms[i] = term;
      inputs[i] = value;
      folded += " '" + t.name + "'";
    };
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (has_ellipsis(terms[i])) continue;
      int scalar = -1;
      if (const Node* mul = scaled_transpose(g, consumers, inputs[i], scalar)) {
        // Mul(Transpose(x), c) -> Transpose(Mul(x, c)): the Mul, in its place, reads x.
        const Node& t = *producer_of(g, mul->inputs[0] == scalar ? mul->inputs[1] : mul->inputs[0]);
        const ValueInfo x = g.value(t.inputs[0]).info;
        const int scaled = add_value(g, g.value(mul->outputs[0]).name + "_untransposed", ValueInfo::of(x.dtype, x.shape));
        g.nodes[size_t(mul - g.nodes.data())] = make_node(g, mul->name, "", "Mul", {t.inputs[0], scalar}, {scaled}, {},
                                                          "Mul '" + mul->name + "' moved before Transpose '" + t.name + "'");
        fold_input(i, t, scaled);
        continue;
      }
      const Node* t = producer_of(g, inputs[i]);
      if (t && is_op(*t, "Transpose")) fold_input(i, *t, t->inputs[0]);
    }
    size_t place = n;  // the new Einsum replaces the old one, or the Transpose after it
    int out = einsum.outputs[0];
    const Node* after = sole_reader(g, consumers, out);
    if (after && is_op(*after, "Transpose") && after->outputs[0] >= 0 && !has_ellipsis(output)) {
      const std::vector<int64_t> perm = perm_of(g, *after);
      std::vector<int> permuted(output.size());
      for (size_t j = 0; j < perm.size(); ++j) permuted[j] = output[size_t(perm[j])];
      output = permuted;
      out = after->outputs[0];
      place = size_t(after - g.nodes.data());
      folded += " '" + after->name + "'";
    }
    if (folded.empty()) continue;
    const std::string equation = einsum_equation(terms, output);
    Attributes attrs;
    attrs.set("equation", string_attr(equation));
    g.nodes[place] = make_node(g, einsum.name, "", "Einsum", inputs, {out}, attrs,
                               "'" + equation + "' from Einsum '" + einsum.name + "' ('" + p.equation +
                                   "') and Transposes" + folded);
  }
}

}  // namespace cnnx
