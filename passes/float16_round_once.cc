// float16-round-once: in a float16 graph, a Conv and what fuse-conv fuses after it (the residual Add, an
// activation, Swish spelled x * Sigmoid(x)) round once, at the end of the group, instead of after each op:
//
//   Conv -> R -> Add(residual) -> R            becomes   Conv -> Add(residual) -> R
//   Conv -> R -> {Sigmoid -> R, Mul} -> R      becomes   Conv -> {Sigmoid, Mul} -> R
//   Conv -> R -> activation -> R               becomes   Conv -> activation -> R
//
// (R: RoundToFloat16, made by the float16-compute lowering, passes/float16_compute.cc), so that fuse-conv
// makes the float32 model's FusedConv (sum post-op, Swish) and one rounding follows it.
//
// Not exact, bounded. With u the unit roundoff of the 16-bit type (2^-11 for float16's 11-bit significand,
// 2^-8 for bfloat16's 8), r(v) = v(1 + d), |d| <= u, for v in the type's normal range. Dropping the rounding
// of a value v changes what the rest of the group computes from it by at most s * u * |v|, s the rest's slope
// in v: 1 through an Add; through an activation its sup |f'| (ActivationDef::fused_slope: 1 for Relu and Clip,
// 1/4 for Sigmoid, 1.1 for Swish); through the Mul of Swish's x * r(sigmoid(x)), the rounding of sigmoid(x)
// changes the product by at most u * |x * sigmoid(x)|. The group's last rounding then maps two float32 values
// that differ by D to 16-bit values that differ by at most D + u(|y| + |y'|): so per element
//
//   |y' - y| <= u * (sum over dropped roundings of s * |v|) + u * (|y| + |y'|)
//
// y the op-by-op result, y' this one (tests/python/test_float16.py checks this on each pattern). Every path
// through the graph loses roundings, none gains one, so the whole graph's error bound against a float32
// computation of the same values (L roundings on the longest path, u each) holds as before. What float16
// semantics give is kept: values between groups, graph outputs and every value a later op reads are 16-bit
// values. One difference beyond the bound: a value outside the 16-bit range inside a group (|v| > 65504 for
// float16) is not turned into an infinity there; the group's result still is when it is outside the range.
// `--disable-pass float16-round-once` gives the op-by-op semantics exactly.
#include <string>
#include <utility>
#include <vector>

#include "ops/cast/round_to_float16.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

class RoundOnce {
 public:
  explicit RoundOnce(Graph& g) : g_(g), consumers_(consumers_of(g)) {}

  // The RoundToFloat16 node that is the only reader of `value`, or -1.
  int rounding_of(int value) const {
    const Node* r = sole_reader(g_, consumers_, value);
    return r && is_round_to_float16(*r) && !is_graph_output(g_, r->outputs[0]) ? int(r - g_.nodes.data()) : -1;
  }

  // The node reading the rounded value as its only reader, or nullptr.
  const Node* reader_after(int round) const { return sole_reader(g_, consumers_, g_.nodes[size_t(round)].outputs[0]); }

  // Conv -> R -> Add of a float32 operand of the Conv's shape: the Add (fuse-conv's residual), else nullptr.
  const Node* residual_add(int conv_out, int round) const {
    const Node* add = reader_after(round);
    if (!add || !is_op(*add, "Add") || add->inputs[0] == add->inputs[1]) return nullptr;
    const int rounded = g_.nodes[size_t(round)].outputs[0];
    const ValueInfo& other = g_.value(add->inputs[0] == rounded ? add->inputs[1] : add->inputs[0]).info;
    const ValueInfo& conv = g_.value(conv_out).info;
    return other.dtype == DType::f32 && other.shape == conv.shape && !other.constant ? add : nullptr;
  }

  // x -> R -> {Sigmoid -> R2, Mul(R, R2)}: R2's index (the Sigmoid's rounding), else -1.
  int swish_rounding(int round) const {
    const int rounded = g_.nodes[size_t(round)].outputs[0];
    const std::vector<int>& readers = consumers_[size_t(rounded)];
    if (readers.size() != 2) return -1;
    const Node* sigmoid = &g_.nodes[size_t(readers[0])];
    const Node* mul = &g_.nodes[size_t(readers[1])];
    if (is_op(*mul, "Sigmoid")) std::swap(sigmoid, mul);
    if (!is_op(*sigmoid, "Sigmoid") || !is_op(*mul, "Mul") || sigmoid->inputs[0] != rounded) return -1;
    const int r2 = rounding_of(sigmoid->outputs[0]);
    if (r2 < 0 || reader_after(r2) != mul) return -1;
    const int s = g_.nodes[size_t(r2)].outputs[0];
    const bool pair = (mul->inputs[0] == rounded && mul->inputs[1] == s) || (mul->inputs[1] == rounded && mul->inputs[0] == s);
    return pair ? r2 : -1;
  }

  // What is dropped before the activation the group has reached, if any: "" or its name.
  std::string drop_before_activation(int round) {
    if (round < 0) return "";
    ActivationArgs args;
    const Node* act = reader_after(round);
    if (act && act->inputs[0] == g_.nodes[size_t(round)].outputs[0] && act->outputs.size() == 1 &&
        fusable_activation(g_, *act, args)) {
      dropped_.push_back(round);
      return act->op_type;
    }
    const int r2 = swish_rounding(round);
    if (r2 < 0) return "";
    dropped_.insert(dropped_.end(), {round, r2});
    return "Swish";
  }

  void drop(int round) { dropped_.push_back(round); }

  // Each dropped rounding's readers read its input, the unrounded value.
  void apply() {
    for (int round : dropped_) replace_uses(g_, g_.nodes[size_t(round)].outputs[0], g_.nodes[size_t(round)].inputs[0]);
  }

 private:
  Graph& g_;
  std::vector<std::vector<int>> consumers_;
  std::vector<int> dropped_;
};

}  // namespace

void round_fused_groups_once(Graph& g, PassDeclines&) {
  RoundOnce groups(g);
  for (Node& conv : g.nodes) {
    if (!is_op(conv, "Conv") || g.value(conv.outputs[0]).info.dtype != DType::f32) continue;
    int round = groups.rounding_of(conv.outputs[0]);
    if (round < 0) continue;
    std::string group;
    if (const Node* add = groups.residual_add(conv.outputs[0], round)) {
      groups.drop(round);
      group = "+Add";
      round = groups.rounding_of(add->outputs[0]);
    }
    const std::string act = groups.drop_before_activation(round);
    if (!act.empty()) group += "+" + act;
    if (!group.empty())
      conv.note += (conv.note.empty() ? "" : "; ") + std::string("float16-round-once: Conv") + group +
                   " rounded once, at the end";
  }
  groups.apply();
}

}  // namespace cnnx
