// Pass "reduce-before-transpose": a reduction over a Transpose's output reduces the Transpose's input instead,
// and the (smaller) result is permuted. tf2onnx writes a Keras GlobalAveragePooling2D head as
// Transpose(0, 2, 3, 1) -> ReduceMean(axes 1, 2): oneDNN 2.6 reduces the middle axes of that plain NHWC view
// in its reference code (`ref:any`, a scalar loop: 5-10 ms on a [1, 7, 7, 1280] map), where the same
// ReduceMean over axes 2, 3 of the channels-last NCHW tensor is a global average pool (global-average-pool,
// run next, turns it into one).
//
// Matched: a default-domain Transpose read only by a Reduce* (as its data; every kind: the reduction does not
// depend on the order of the other axes), with constant, non-empty axes. Reduced axis a of the Transpose's
// output is its input's axis perm[a]. With keepdims the result is the Transpose (same perm) of the reduction
// of the input; without, the kept axes of the Transpose's output are input axes perm[i] (i not reduced) in
// that order, and the reduction of the input keeps them in increasing order: a Transpose puts them back in
// the Transpose's order, none when that order is increasing already.
#include <algorithm>
#include <string>

#include "ops/reduce/reduce.h"
#include "ops/tensor/transpose.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

bool is_reduce(const Node& n) { return n.domain.empty() && n.op_type.rfind("Reduce", 0) == 0 && dynamic_cast<const ReduceParams*>(n.params.get()); }

}  // namespace

void reduce_before_transpose(Graph& g, PassDeclines& declines) {
  const auto consumers = consumers_of(g);
  const size_t count = g.nodes.size();
  for (size_t t = 0; t < count; ++t) {
    if (!is_op(g.nodes[t], "Transpose") || g.nodes[t].outputs[0] < 0) continue;
    const Node* reader = sole_reader(g, consumers, g.nodes[t].outputs[0]);
    if (!reader || !is_reduce(*reader) || reader->inputs[0] != g.nodes[t].outputs[0]) continue;
    const Node& transpose = g.nodes[t];
    const Node& reduce = *reader;
    const size_t r = size_t(reader - g.nodes.data());
    const auto& p = params_as<ReduceParams>(*reduce.params, reduce.op_type);
    std::vector<int64_t> axes;
    if (!constant_reduce_axes(g, reduce, axes)) {
      declines.add(reduce, "its axes are read at run time");
      continue;
    }
    if (axes.empty()) continue;  // every axis, or none: no order to keep
    const ValueInfo& in = g.value(transpose.inputs[0]).info;
    const int64_t rank = in.rank();
    const std::vector<int64_t> perm = resolve_perm(params_as<TransposeParams>(*transpose.params, transpose.op_type), rank);
    const std::vector<bool> reduced = resolve_reduce_axes(p, axes, rank);  // over the Transpose's output
    std::vector<int64_t> input_axes;
    std::vector<bool> input_reduced(size_t(rank), false);
    for (int64_t a = 0; a < rank; ++a)
      if (reduced[size_t(a)]) {
        input_axes.push_back(perm[size_t(a)]);
        input_reduced[size_t(perm[size_t(a)])] = true;
      }
    std::sort(input_axes.begin(), input_axes.end());
    // The permutation of the reduced input's result into the reduction's output.
    std::vector<int64_t> after;
    if (p.keepdims) {
      after = perm;
    } else {
      std::vector<int64_t> position(size_t(rank), -1);  // input axis -> its place among the kept ones
      int64_t kept = 0;
      for (int64_t a = 0; a < rank; ++a)
        if (!input_reduced[size_t(a)]) position[size_t(a)] = kept++;
      for (int64_t i = 0; i < rank; ++i)
        if (!reduced[size_t(i)]) after.push_back(position[size_t(perm[size_t(i)])]);
    }
    bool identity = true;
    for (size_t i = 0; i < after.size(); ++i) identity = identity && after[i] == int64_t(i);

    const std::string note = reduce.op_type + " then Transpose from '" + transpose.name + "' '" + reduce.name + "'";
    const int source = transpose.inputs[0], out = reduce.outputs[0];
    const Shape reduced_in = reduced_shape(in.shape, input_reduced, p.keepdims);
    const DType dtype = in.dtype;
    const std::string reduce_name = reduce.name, reduce_type = reduce.op_type, transpose_name = transpose.name;
    Attributes attrs = reduce.attrs;
    std::vector<int> inputs{source};
    if (p.axes_from_input) {
      Tensor a(DType::i64, {int64_t(input_axes.size())});
      std::copy(input_axes.begin(), input_axes.end(), a.data<int64_t>());
      inputs.push_back(add_value(g, reduce_name + "_axes_untransposed", ValueInfo::of(a)));
    } else {
      attrs.set("axes", ints_attr(input_axes));
    }
    const int mid = identity ? out : add_value(g, g.value(source).name + "_reduced", ValueInfo::of(dtype, reduced_in));
    Node moved_reduce = make_node(g, reduce_name, "", reduce_type, inputs, {mid}, attrs, note);
    if (identity) {
      g.nodes[r] = std::move(moved_reduce);  // the Transpose is left without readers
      continue;
    }
    Attributes perm_attr;
    perm_attr.set("perm", ints_attr(after));
    Node moved_transpose = make_node(g, transpose_name, "", "Transpose", {mid}, {out}, perm_attr, note);
    g.nodes[t] = std::move(moved_reduce);
    g.nodes[r] = std::move(moved_transpose);
    g.values[size_t(mid)].producer = int(t);
  }
}

}  // namespace cnnx
