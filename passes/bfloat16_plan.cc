// The bfloat16 plan: passes/bfloat16_plan.h.
#include "passes/bfloat16_plan.h"

#include <algorithm>
#include <map>
#include <set>

#include "engine/op_registry.h"
#include "ops/builtin_ops.h"
#include "ops/common/activation.h"
#include "ops/gemm/gemm.h"
#include "ops/norm/batch_norm.h"
#include "ops/cast/round_to_float16.h"

namespace cnnx {

namespace {

enum class Kind { weights, pool, elementwise, copy, other };

// The inputs of a matrix product or convolution that are its weights when constant (biases are not).
std::vector<size_t> weight_inputs(const Node& n) {
  if (n.op_type == "Conv" || n.op_type == "FusedConv" || n.op_type == "ConvTranspose") return {1};
  return {0, 1};  // Gemm's A and B, MatMul's and FusedMatMul's
}

// BatchNormalization in inference (the given statistics): a per-channel affine map, elementwise in bfloat16.
bool inference_batch_norm(const Node& n) {
  return n.op_type == "BatchNormalization" && n.domain.empty() &&
         !params_as<BatchNormParams>(*n.params, n.op_type).training;
}

Kind kind_of(const Node& n) {
  static const std::set<std::string> weights = {"Conv", "FusedConv", "ConvTranspose", "Gemm", "MatMul", "FusedMatMul"};
  static const std::set<std::string> pools = {"MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool"};
  static const std::set<std::string> elementwise = {"Clip", "PRelu", "Add", "Sub", "Mul", "Div", "Max", "Min"};
  static const std::set<std::string> copies = {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity", "Transpose",
                                               "Concat",  "Slice",   "Gather",  "Split",     "ChannelShuffle"};
  const bool ours = n.domain.empty() || n.domain == kInternalDomain;
  if (!ours) return Kind::other;
  if (weights.count(n.op_type)) return Kind::weights;
  if (pools.count(n.op_type)) return Kind::pool;
  if (elementwise.count(n.op_type)) return Kind::elementwise;
  if (copies.count(n.op_type)) return Kind::copy;
  if (inference_batch_norm(n)) return Kind::elementwise;
  const ActivationDef* row = find_activation(n.op_type, n.domain);
  return row && has_dnnl_kernel(*row) ? Kind::elementwise : Kind::other;
}

std::string float32_reason(const Node& n) {
  static const std::set<std::string> normalization = {"LayerNormalization", "InstanceNormalization",
                                                      "GroupNormalization", "LpNormalization"};
  if (n.op_type == "Softmax" || n.op_type == "LogSoftmax") return "Softmax stays float32";
  if (n.op_type == "BatchNormalization") return "training mode: its batch statistics stay float32";
  if (normalization.count(n.op_type)) return "normalization statistics stay float32";
  if (n.op_type.rfind("Reduce", 0) == 0 || n.op_type == "ArgMax" || n.op_type == "ArgMin")
    return "reductions stay float32";
  return "no bfloat16 kernel for " + n.op_type;
}

}  // namespace

std::vector<size_t> bfloat16_kernel_converts(const Node& n, const std::vector<ValueInfo>& in) {
  if (n.precision != Precision::bf16 || in.size() < 2 || !(n.domain.empty() || n.domain == kInternalDomain)) return {};
  if (n.op_type == "Conv" || n.op_type == "FusedConv") return {0, 1};
  const ValueInfo& b = in[1];
  if (!b.constant || b.rank() != 2) return {};
  if (n.op_type == "MatMul" || n.op_type == "FusedMatMul") return {0, 1};
  if (n.op_type != "Gemm") return {};
  const GemmParams& p = params_as<GemmParams>(*n.params, n.op_type);
  const bool c_row = in.size() < 3 || in[2].dtype == DType::undefined ||
                     (in[2].constant && (in[2].rank() <= 1 || in[2].shape[0] == 1));
  return !p.trans_a && p.alpha == 1.f && c_row ? std::vector<size_t>{0, 1} : std::vector<size_t>{};
}

bool reads_bfloat16_storage(const Node& n) {
  // The kernels that read bfloat16 storage (and where each writes it, CompileContext::store_bfloat16):
  //   Conv, FusedConv: dnnl.                      RoundToFloat16: bf16_storage (a view of a stored value).
  //   GlobalAveragePool: mean (its means stored so where only their rounding reads them); dnnl as MaxPool's.
  //   Add, Sub, Mul, Div: dnnl (B too where it arrives so, of A's arrangement or broadcast plain); channel
  //     declines bfloat16 layouts (the plan reorders).
  //   MatMul, FusedMatMul: dnnl (bfloat16 A where B is prepared, float32 layouts otherwise).
  //   Concat: channels-last (bfloat16 when every part is); dnnl takes float32 layouts.
  //   BatchNormalization: native (channels-last) and dnnl, bfloat16 in and out where the output may be stored
  //     so, float32 layouts otherwise (the plan converts).
  //   Transpose: dnnl (a view of a dense bfloat16 input is bfloat16 too; a blocked one is copied to float32).
  //   Flatten, Reshape, Squeeze, Unsqueeze: dnnl (a view of the input taken row-major in bfloat16); the ref
  //     view takes float32.
  //   MaxPool, AveragePool: dnnl, bfloat16 in and out where the output may be stored so and the input is not
  //     plain; native MaxPool takes float32 layouts.
  //   LayerNormalization, though a float32 node: dnnl, bfloat16 in and out where its output may be stored so,
  //     float32 layouts otherwise.
  static const std::set<std::string> readers = {
      "Conv", "FusedConv", "GlobalAveragePool", "Add", "Sub", "Mul", "Div", "MatMul", "FusedMatMul", "Concat",
      "BatchNormalization", "Transpose", "MaxPool", "AveragePool", "Flatten", "Reshape", "Squeeze", "Unsqueeze"};
  if (n.precision != Precision::bf16) return n.domain.empty() && n.op_type == "LayerNormalization";
  if (is_round_to_float16(n)) return true;
  return (n.domain.empty() || n.domain == kInternalDomain) && readers.count(n.op_type) > 0;
}

bool output_read_rounded(const Graph& g, const std::vector<std::vector<int>>& consumers, const Node& n) {
  if (!reads_bfloat16_storage(n) || n.outputs.empty() || n.outputs[0] < 0 || is_graph_output(g, n.outputs[0]))
    return false;
  const std::vector<int>& readers = consumers[size_t(n.outputs[0])];
  for (int r : readers) {
    const Node& reader = g.nodes[size_t(r)];
    if (!is_round_to_float16(reader) || params_as<RoundToFloat16Params>(*reader.params, reader.op_type).to != DType::bf16)
      return false;
  }
  return !readers.empty();
}

PassReport plan_bfloat16(Graph& g, bool native) {
  PassReport report;
  report.pass = "bfloat16";
  const std::vector<std::vector<int>> consumers = consumers_of(g);
  std::set<int> bf16_values;       // written by a bf16 node (P in the header's terms)
  std::set<int> written_by_copy;   // of those, written by a copy (rounded where its source is)
  // 1. Each node's precision, in order.
  for (Node& n : g.nodes) {
    const Kind kind = kind_of(n);
    bool reads_bf16 = false, all_bf16 = true, all_f32 = true, any_float = false;
    for (int id : n.inputs) {
      if (id < 0) continue;
      const DType t = g.value(id).info.dtype;
      if (!is_floating(t)) continue;
      any_float = true;
      all_f32 = all_f32 && t == DType::f32;
      reads_bf16 = reads_bf16 || bf16_values.count(id) > 0;
      all_bf16 = all_bf16 && bf16_values.count(id) > 0;
    }
    bool bf16 = false;
    if (!all_f32) n.precision_why = "reads a value that is not float32";
    else if (kind == Kind::weights) bf16 = true, n.precision_why = "weights rounded to bfloat16 once";
    else if (kind == Kind::pool) bf16 = true, n.precision_why = "pooling, float32 accumulation";
    else if (kind == Kind::elementwise && reads_bf16) bf16 = true, n.precision_why = "elementwise after a bf16 op";
    else if (kind == Kind::elementwise) n.precision_why = "elementwise op reading no bfloat16 value";
    else if (kind == Kind::copy && any_float && all_bf16) bf16 = true, n.precision_why = "moves bfloat16 values";
    else if (kind == Kind::copy) n.precision_why = "moves float32 values";
    else n.precision_why = float32_reason(n);
    n.precision = bf16 ? Precision::bf16 : Precision::f32;
    if (!bf16) continue;
    ++report.rewritten[n.op_type];
    for (int id : n.outputs)
      if (id >= 0 && g.value(id).info.dtype == DType::f32) {
        bf16_values.insert(id);
        if (kind == Kind::copy) written_by_copy.insert(id);
      }
  }
  // 2. The values to round: float32, not constant, read by a bf16 node that does not only move them.
  std::vector<bool> bf16_node;
  for (const Node& n : g.nodes) bf16_node.push_back(n.precision == Precision::bf16);
  std::map<int, int> rounded;  // value -> its rounded copy
  std::map<int, bool> in_place;  // value -> every reader reads the rounded copy (it is stored in bfloat16)
  std::map<int, int> rounded_constant;
  const OpDef& round_def = builtin_ops().find(kInternalDomain, "RoundToFloat16", 1);
  auto round_params = std::make_shared<RoundToFloat16Params>();
  round_params->to = DType::bf16;
  std::vector<Node> nodes;
  auto emit_roundings = [&](const std::vector<int>& values) {
    for (int id : values) {
      if (id < 0) continue;
      const ValueInfo& info = g.value(id).info;
      if (info.dtype != DType::f32 || info.constant || written_by_copy.count(id)) continue;
      bool needed = false;
      for (int r : consumers[size_t(id)]) needed = needed || bf16_node[size_t(r)];
      const bool stored = bf16_values.count(id) && !is_graph_output(g, id);
      if (!needed) continue;
      ValueInfo out = info;
      const int copy = add_value(g, g.value(id).name + "_bfloat16", out);
      Node round;
      round.name = g.value(copy).name;
      round.op_type = "RoundToFloat16";
      round.domain = kInternalDomain;
      round.opset = 1;
      round.def = &round_def;
      round.params = round_params;
      round.inputs = {id};
      round.outputs = {copy};
      round.precision = Precision::bf16;
      round.precision_why = stored ? "the bfloat16 value its producer stores" : "the reorder to bfloat16 of a float32 value";
      round.note = "bfloat16: '" + g.value(id).name + "' rounded to bfloat16";
      nodes.push_back(std::move(round));
      rounded[id] = copy;
      in_place[id] = stored;
      ++report.made["RoundToFloat16"];
    }
  };
  emit_roundings(g.inputs);
  for (Node& n : g.nodes) {
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      const int id = n.inputs[i];
      if (id < 0) continue;
      auto r = rounded.find(id);
      if (r != rounded.end() && (in_place[id] || n.precision == Precision::bf16)) n.inputs[i] = r->second;
    }
    const std::vector<size_t> converts = native ? bfloat16_kernel_converts(n, input_infos(g, n)) : std::vector<size_t>{};
    if (kind_of(n) == Kind::weights && n.precision == Precision::bf16)
      for (size_t i : weight_inputs(n)) {
        if (i >= n.inputs.size() || n.inputs[i] < 0) continue;
        if (std::find(converts.begin(), converts.end(), i) != converts.end()) continue;  // its kernel rounds it
        const int id = n.inputs[i];
        const ValueInfo& info = g.value(id).info;
        if (!info.constant || info.dtype != DType::f32) continue;
        auto done = rounded_constant.find(id);
        if (done == rounded_constant.end()) {
          done = rounded_constant
                     .emplace(id, add_value(g, g.value(id).name + "_bfloat16", ValueInfo::of(rounded_to_bfloat16(*info.constant))))
                     .first;
        }
        n.inputs[i] = done->second;
      }
    const std::vector<int> outputs = n.outputs;
    nodes.push_back(std::move(n));
    emit_roundings(outputs);
  }
  g.nodes = std::move(nodes);
  remove_dead_nodes(g);
  return report;
}

}  // namespace cnnx
