// Pass "einsum-transposes": the Transposes around an Einsum folded into its equation. An input made by a
// Transpose, whose term has no "...", is read before the Transpose with the term's letters permuted (a term
// "bhid" over X transposed by perm (0, 2, 1, 3) is "bihd" over X); a Transpose that is the only reader of the
// Einsum's output (its term without "...") is written directly, the output term permuted. The Einsum's dnnl
// kernel reads and writes through strides (ops/gemm/einsum_dnnl.cc), so a permuted term costs nothing there,
// and the Transposes' copies go: maxvit's attention has four per layer (q, k, v in, the heads out). A
// Transpose left without readers is removed.
#include <algorithm>

#include "ops/gemm/einsum.h"
#include "ops/shape/transpose.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

bool has_ellipsis(const std::vector<int>& term) {
  return std::find(term.begin(), term.end(), kEinsumEllipsis) != term.end();
}

std::vector<int64_t> perm_of(const Graph& g, const Node& transpose) {
  return resolve_perm(params_as<TransposeParams>(*transpose.params, transpose.op_type),
                      int64_t(g.value(transpose.inputs[0]).info.rank()));
}

}  // namespace

void fold_einsum_transposes(Graph& g, Backend) {
  const auto consumers = consumers_of(g);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& einsum = g.nodes[n];
    if (!is_op(einsum, "Einsum") || einsum.outputs[0] < 0) continue;
    const auto& p = params_as<EinsumParams>(*einsum.params, einsum.op_type);
    std::vector<std::vector<int>> terms = p.terms;
    std::vector<int> output = p.output, inputs = einsum.inputs;
    std::string folded;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Node* t = producer_of(g, inputs[i]);
      if (!t || !is_op(*t, "Transpose") || has_ellipsis(terms[i])) continue;
      // Dim j of the Transpose's output is dim perm[j] of its input.
      const std::vector<int64_t> perm = perm_of(g, *t);
      std::vector<int> term(terms[i].size());
      for (size_t j = 0; j < perm.size(); ++j) term[size_t(perm[j])] = terms[i][j];
      terms[i] = term;
      inputs[i] = t->inputs[0];
      folded += " '" + t->name + "'";
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
