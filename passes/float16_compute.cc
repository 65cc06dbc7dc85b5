// float16-compute: ops without float16/bfloat16 kernels (every op but Cast, CastLike and the copies,
// engine/float16_compute.h) run in float32 between Casts, so the values between ops stay what a 16-bit
// computation stores:
//
//   x16 -> Op -> y16     becomes     x16 -> Cast(float32) -> Op -> Cast(float16) -> y16
//
// A 16-bit value read by several such ops is widened once for all of them. A constant 16-bit input (a weight)
// is converted once, here, into a float32 constant the op reads; no Cast runs for it (most are float32
// already: the model widened them at load, engine/float16_compute.h).
// `float16 initializer -> Cast(to float32)` needs no rewrite: the Cast's input is constant, so it
// is folded into a float32 constant when the model loads, like every node of constant inputs.
//
// Between two such ops the pair Cast(float16) -> Cast(float32) becomes one RoundToFloat16 (same values,
// ops/cast/round_to_float16.h) where the 16-bit value has no other reader and is not a graph output: it
// rounds in place, in the layout the producer wrote, with no 16-bit buffer and no reorder.
//
// Roundings that change nothing go, and those before Relu or Clip move after it, so the optimizing passes see
// the float32 model's patterns (Conv -> Clip fuses; mobilenet_v2 has 35 Clips). Both are exact: the values
// are those of the graph rounded after every op. With r the rounding (monotone, r(b) == b for a 16-bit b):
//   - An op whose every output element is one of its inputs' elements or a bound that is a 16-bit value
//     (Relu, Clip with such bounds, MaxPool, Concat, Max, Min, ...) gives 16-bit values from 16-bit
//     inputs: r(E(x)) == E(x), so the RoundToFloat16 after it is dropped.
//   - clip(r(x), lo, hi) == r(clip(x, lo, hi)) for 16-bit bounds lo <= hi (Relu: lo = 0, hi = inf): for x < lo,
//     r(x) <= r(lo) = lo, so both sides are lo; likewise above hi; between them, lo <= r(x) <= hi, so both
//     are r(x). Conv -> RoundToFloat16 -> Clip becomes Conv -> Clip -> RoundToFloat16 (a NaN stays a NaN
//     either way, rounded once). A bound that is absent (+-FLT_MAX) is no 16-bit value: such a Clip stays.
#include <algorithm>
#include <map>
#include <set>

#include "engine/float16_compute.h"
#include "engine/op_registry.h"
#include "engine/float16.h"
#include "ops/builtin_ops.h"
#include "ops/eltwise/unary.h"
#include "ops/cast/round_to_float16.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

Attributes cast_to(DType to) {
  Attributes a;
  a.set("to", int_attr(int64_t(to)));
  return a;
}

bool is_cast_to(const Node& node, DType to) {
  return node.domain.empty() && node.op_type == "Cast" && node.attrs.get_int("to", 0) == int64_t(to);
}

void refresh_producers(Graph& g) {
  for (Value& v : g.values) v.producer = -1;
  for (size_t n = 0; n < g.nodes.size(); ++n)
    for (int out : g.nodes[n].outputs)
      if (out >= 0) g.values[size_t(out)].producer = int(n);
}

// Each Cast(to float32) reading a 16-bit value that a Cast from float32 made and nothing else reads, as one
// RoundToFloat16 of the float32 value (the narrowing Cast is then left without readers and removed).
void round_in_place(Graph& g) {
  const std::vector<std::vector<int>> consumers = consumers_of(g);
  const OpDef& def = builtin_ops().find(kInternalDomain, "RoundToFloat16", 1);
  for (Node& widen : g.nodes) {
    if (!is_cast_to(widen, DType::f32) || widen.inputs.size() != 1) continue;
    const int narrow = widen.inputs[0];
    const DType half = g.value(narrow).info.dtype;
    const int producer = g.value(narrow).producer;
    if (producer < 0 || !is_float16_family(half) || is_graph_output(g, narrow)) continue;
    const Node& cast = g.nodes[size_t(producer)];
    if (!is_cast_to(cast, half) || g.value(cast.inputs[0]).info.dtype != DType::f32) continue;
    if (consumers[size_t(narrow)].size() != 1) continue;
    auto params = std::make_shared<RoundToFloat16Params>();
    params->to = half;
    widen.op_type = "RoundToFloat16";
    widen.domain = kInternalDomain;
    widen.opset = 1;
    widen.def = &def;
    widen.attrs = Attributes();
    widen.inputs = {cast.inputs[0]};
    widen.params = std::move(params);
    widen.note = "float16-compute: '" + cast.name + "' and '" + widen.name + "' as one rounding to " +
                 dtype_name(half) + " in place";
  }
}

DType round_type(const Node& node) { return static_cast<const RoundToFloat16Params&>(*node.params).to; }

// True when x is a `half` value (kept exactly by a rounding to it).
bool representable(float x, DType half) {
  if (x != x) return true;
  const float back = half == DType::f16 ? float16_to_float(float_to_float16(x)) : bfloat16_to_float(float_to_bfloat16(x));
  return back == x;
}

// True when every element of the float32 constant is a `half` value.
bool constant_in(const Tensor& t, DType half) {
  if (t.dtype() != DType::f32) return false;
  const float* x = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i)
    if (!representable(x[i], half)) return false;
  return true;
}

// Relu, or a Clip whose bounds are known `half` values: commutes with the rounding (see the top). An absent
// bound is +-FLT_MAX, no 16-bit value (an infinite input would come out FLT_MAX, then round to inf).
bool commutes_with_rounding(const Graph& g, const Node& node, DType half) {
  if (is_op(node, "Relu")) return true;
  if (!is_op(node, "Clip")) return false;
  ActivationArgs bounds;
  return clip_bounds(static_cast<const ClipParams&>(*node.params), input_infos(g, node), bounds) &&
         bounds.alpha <= bounds.beta && representable(bounds.alpha, half) && representable(bounds.beta, half);
}

// The ops whose outputs hold only their inputs' elements, or 16-bit bounds: 16-bit values in (the caller checks
// the inputs), 16-bit values out. Pad from opset 11, whose padding value is an input (before, an attribute).
bool keeps_16bit_values(const Graph& g, const Node& node, DType half) {
  static const std::set<std::string> kSelecting = {"Relu", "MaxPool", "GlobalMaxPool", "Max", "Min", "Neg", "Abs",
                                                   "Concat", "Expand", "Tile", "DepthToSpace", "SpaceToDepth"};
  if (!node.domain.empty()) return false;
  if (node.op_type == "Clip") return commutes_with_rounding(g, node, half);
  if (node.op_type == "Pad") return node.opset >= 11;
  return kSelecting.count(node.op_type) > 0;
}

// Drops each RoundToFloat16 of a value that holds 16-bit values already (see the top): graph inputs and
// non-float values aside, a value holds `half` values when a rounding to `half` or a widening Cast from it
// wrote it, when it is a constant of such values, or when keeps_16bit_values wrote it from such inputs.
void drop_exact_roundings(Graph& g) {
  std::vector<DType> holds(g.values.size(), DType::undefined);  // the 16-bit type each value's elements are in
  std::vector<int> alias(g.values.size(), -1);                  // a dropped rounding's output -> its input
  const auto held = [&](int id, DType half) {
    const ValueInfo& v = g.value(id).info;
    if (v.constant && holds[size_t(id)] == DType::undefined && constant_in(*v.constant, half)) holds[size_t(id)] = half;
    return holds[size_t(id)] == half;
  };
  std::vector<Node> kept;
  for (Node& node : g.nodes) {
    for (int& id : node.inputs)
      if (id >= 0 && alias[size_t(id)] >= 0) id = alias[size_t(id)];
    if (is_round_to_float16(node)) {
      const int x = node.inputs[0], y = node.outputs[0];
      if (held(x, round_type(node)) && !is_graph_output(g, y)) {
        alias[size_t(y)] = x;
        continue;
      }
      holds[size_t(y)] = round_type(node);
    } else if (is_cast_to(node, DType::f32) && is_float16_family(g.value(node.inputs[0]).info.dtype)) {
      holds[size_t(node.outputs[0])] = g.value(node.inputs[0]).info.dtype;
    } else if (!node.inputs.empty() && node.inputs[0] >= 0) {
      const DType half = holds[size_t(node.inputs[0])];
      bool from_16bit = half != DType::undefined && keeps_16bit_values(g, node, half);
      for (int id : node.inputs)
        from_16bit = from_16bit && (id < 0 || g.value(id).info.dtype != DType::f32 || held(id, half));
      if (from_16bit)
        for (int id : node.outputs)
          if (id >= 0 && g.value(id).info.dtype == DType::f32) holds[size_t(id)] = half;
    }
    kept.push_back(std::move(node));
  }
  g.nodes = std::move(kept);
  refresh_producers(g);
}

// x -> RoundToFloat16 -> Relu/Clip as x -> Relu/Clip -> RoundToFloat16 (see the top), where the rounding is
// x's only reader and the Relu/Clip the rounding's: the op writes the rounding's former output, the rounding
// the op's former output, right after it.
void round_after_clips(Graph& g) {
  const std::vector<std::vector<int>> consumers = consumers_of(g);
  std::vector<bool> moved(g.nodes.size(), false);
  std::vector<int> after(g.nodes.size(), -1);  // node -> the rounding to place right after it
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    Node& round = g.nodes[n];
    if (!is_round_to_float16(round)) continue;
    const int x = round.inputs[0], rounded = round.outputs[0];
    if (!used_once(g, consumers, x) || !used_once(g, consumers, rounded)) continue;
    const int e = consumers[size_t(rounded)][0];
    Node& op = g.nodes[size_t(e)];
    if (op.inputs[0] != rounded || op.outputs.size() != 1 || !commutes_with_rounding(g, op, round_type(round)))
      continue;
    if (std::count(op.inputs.begin(), op.inputs.end(), rounded) != 1) continue;
    const int y = op.outputs[0];
    op.inputs[0] = x;
    op.outputs[0] = rounded;  // now the op's unrounded output (same shape, float32)
    round.inputs[0] = rounded;
    round.outputs[0] = y;
    round.note += "; moved after '" + op.name + "' (rounding commutes with " + op.op_type + " of 16-bit bounds)";
    moved[n] = true;
    after[size_t(e)] = int(n);
  }
  std::vector<Node> nodes;
  nodes.reserve(g.nodes.size());
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (moved[n]) continue;
    nodes.push_back(std::move(g.nodes[n]));
    if (after[n] >= 0) nodes.push_back(std::move(g.nodes[size_t(after[n])]));
  }
  g.nodes = std::move(nodes);
  refresh_producers(g);
}

// A Concat of 16-bit values that ops computed in float32 wrote (or constants), run on their float32 values
// instead (exact: it moves elements, and the rounding after it changes nothing, drop_exact_roundings): the
// Casts around it become roundings in place, and it joins blocked float32 buffers as in the float32 model
// (squeezenet1_1's fire modules: 8 Concats, 26 Casts and 24 reorders of 16-bit values otherwise).
bool concat_of_rounded(const Node& node, const std::vector<ValueInfo>& in, const std::set<int>& rounded) {
  if (!is_op(node, "Concat") || float16_type_of(in) == DType::undefined) return false;
  for (size_t i = 0; i < in.size(); ++i)
    if (!in[i].constant && !rounded.count(node.inputs[i])) return false;
  return true;
}

}  // namespace

void compute_float16_in_float32(Graph& g, PassDeclines&) {
  std::vector<Node> nodes;
  nodes.reserve(g.nodes.size());
  std::map<int, int> widened_of;  // a 16-bit value -> its float32 copy, made once for all its readers
  std::set<int> rounded;          // the 16-bit outputs of ops computed in float32 (rounded float32 values)
  for (Node& node : g.nodes) {
    const std::vector<ValueInfo> in = input_infos(g, node);
    if (!computes_float16_in_float32(node, in) && !concat_of_rounded(node, in, rounded)) {
      nodes.push_back(std::move(node));
      continue;
    }
    const DType half = float16_type_of(in);
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      const int id = node.inputs[i];
      if (id < 0 || !is_float16_family(in[i].dtype)) continue;
      if (auto made = widened_of.find(id); made != widened_of.end()) {
        node.inputs[i] = made->second;
        continue;
      }
      const std::string base = g.value(id).name + "_float32";
      const int widened = add_value(g, base, float16_family_info_as_float32(in[i]));
      if (!in[i].constant)
        nodes.push_back(make_node(g, g.value(widened).name, "", "Cast", {id}, {widened}, cast_to(DType::f32),
                                  "float16-compute: " + dtype_name(in[i].dtype) + " input of " + node_label(node) +
                                      " as float32",
                                  6));
      node.inputs[i] = widened;
      widened_of[id] = widened;
    }
    std::vector<Node> after;
    for (int& out : node.outputs) {
      if (out < 0 || !is_float16_family(g.value(out).info.dtype)) continue;
      ValueInfo wide = g.value(out).info;
      wide.dtype = DType::f32;
      wide.constant = nullptr;
      const int narrow = out;
      out = add_value(g, g.value(narrow).name + "_float32", wide);
      rounded.insert(narrow);
      after.push_back(make_node(g, g.value(narrow).name + "_" + dtype_name(half), "", "Cast", {out}, {narrow},
                                cast_to(g.value(narrow).info.dtype),
                                "float16-compute: float32 output of " + node_label(node) + " rounded to " +
                                    dtype_name(g.value(narrow).info.dtype),
                                6));
    }
    node.note += (node.note.empty() ? "" : "; ") + std::string("float16-compute: computed in float32");
    nodes.push_back(std::move(node));
    for (Node& n : after) nodes.push_back(std::move(n));
  }
  g.nodes = std::move(nodes);
  refresh_producers(g);
  round_in_place(g);
  remove_dead_nodes(g);  // the narrowing Casts round_in_place left unread
  drop_exact_roundings(g);
  round_after_clips(g);
}

}  // namespace cnnx
