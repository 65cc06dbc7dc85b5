// float16-compute: ops without float16/bfloat16 kernels (every op but Cast, CastLike and the copies,
// engine/float16_compute.h) run in float32 between Casts, so the values between ops stay what a 16-bit
// computation stores:
//
//   x16 -> Op -> y16     becomes     x16 -> Cast(float32) -> Op -> Cast(float16) -> y16
//
// A 16-bit value read by several such ops is widened once for all of them. A constant 16-bit input (a weight)
// is converted once, here, into a float32 constant the op reads; no Cast runs for it.
// `float16 initializer -> Cast(to float32)` needs no rewrite: the Cast's input is constant, so it
// is folded into a float32 constant when the model loads, like every node of constant inputs.
//
// Between two such ops the pair Cast(float16) -> Cast(float32) becomes one RoundToFloat16 (same values,
// ops/tensor/round_to_float16.h) where the 16-bit value has no other reader and is not a graph output: it
// rounds in place, in the layout the producer wrote, with no 16-bit buffer and no reorder.
#include <map>

#include "engine/float16_compute.h"
#include "engine/op_registry.h"
#include "ops/builtin_ops.h"
#include "ops/tensor/round_to_float16.h"
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

}  // namespace

void compute_float16_in_float32(Graph& g, PassDeclines&) {
  std::vector<Node> nodes;
  nodes.reserve(g.nodes.size());
  std::map<int, int> widened_of;  // a 16-bit value -> its float32 copy, made once for all its readers
  for (Node& node : g.nodes) {
    const std::vector<ValueInfo> in = input_infos(g, node);
    if (!computes_float16_in_float32(node, in)) {
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
}

}  // namespace cnnx
