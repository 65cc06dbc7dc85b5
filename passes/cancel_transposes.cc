// Pass "cancel-transposes": Transposes that undo each other go, and a Transpose read by a Transpose becomes one.
// tf2onnx writes every TensorFlow op in NHWC between a Transpose(0, 2, 3, 1) and a Transpose(0, 3, 1, 2); its
// optimizer pushes most of them away but leaves pairs where the op between them was removed later, and
// identity Transposes (perm 0, 1, 2, 3). Each stayed a step of the plan (a view at best, a copy where its
// input arrived channel-blocked) and broke the Conv -> activation chains fuse-conv takes.
//
// Matched: a default-domain Transpose T2 reading the output of a Transpose T1. T2's output axis i is T1's
// output axis p2[i], which is T1's input axis p1[p2[i]]: when that is i for every axis, T2's readers read
// T1's input; otherwise T2 becomes one Transpose of T1's input with perm p1[p2[i]]. T1 goes when nothing else
// reads it. Also a Transpose whose perm is the identity: its readers read its input. A Transpose whose output
// is a graph output is kept (the output keeps its name), and said so.
#include <numeric>

#include "ops/tensor/transpose.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

std::vector<int64_t> perm_of(const Graph& g, const Node& transpose) {
  const auto& p = params_as<TransposeParams>(*transpose.params, transpose.op_type);
  return resolve_perm(p, g.value(transpose.inputs[0]).info.rank());
}

bool is_identity(const std::vector<int64_t>& perm) {
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != int64_t(i)) return false;
  return true;
}

std::string perm_text(const std::vector<int64_t>& perm) {
  std::string s;
  for (int64_t a : perm) s += (s.empty() ? "" : ",") + std::to_string(a);
  return s;
}

}  // namespace

void cancel_transposes(Graph& g, PassDeclines& declines) {
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (!is_op(g.nodes[n], "Transpose") || g.nodes[n].outputs[0] < 0 || !g.value(g.nodes[n].inputs[0]).info.rank_known)
      continue;
    const Node& t2 = g.nodes[n];
    std::vector<int64_t> perm = perm_of(g, t2);
    int source = t2.inputs[0];
    std::string from = "'" + t2.name + "'";
    // Follow the producer when it is a Transpose too (earlier nodes were already composed: one step suffices).
    if (const Node* t1 = producer_of(g, source); t1 && is_op(*t1, "Transpose")) {
      const std::vector<int64_t> p1 = perm_of(g, *t1);
      std::vector<int64_t> composed(perm.size());
      for (size_t i = 0; i < perm.size(); ++i) composed[i] = p1[size_t(perm[i])];
      perm = composed;
      source = t1->inputs[0];
      from = "'" + t1->name + "' " + from;
    } else if (!is_identity(perm)) {
      continue;
    }
    if (is_graph_output(g, t2.outputs[0]) && is_identity(perm)) {
      declines.add(t2, "its output is a graph output (kept under its name)");
      continue;
    }
    if (is_identity(perm)) {
      replace_uses(g, t2.outputs[0], source);
      continue;
    }
    Attributes attrs;
    attrs.set("perm", ints_attr(perm));
    Node merged = make_node(g, t2.name, "", "Transpose", {source}, t2.outputs, attrs,
                            "Transpose(" + perm_text(perm) + ") from " + from);
    g.nodes[n] = std::move(merged);
  }
}

}  // namespace cnnx
