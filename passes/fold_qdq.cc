// Pass "fold-qdq": a QDQ model's convolution,
//
//   DequantizeLinear(x) , DequantizeLinear(W) [, DequantizeLinear(B int32)] -> Conv [-> Relu | Clip] -> QuantizeLinear
//
// becomes one QLinearConv (no activation) or cnnx.internal FusedQLinearConv (the Relu or Clip as a clamp of y,
// exact: ops/quant/qlinear_conv.h), which runs as one oneDNN int8 convolution (ops/quant/qlinear_conv_dnnl.cc)
// and keeps the tensors between such nodes int8. Conditions, each reported as a near miss when a Conv reading a
// DequantizeLinear fails it: x int8/uint8 with one constant scale and zero point; W constant int8/uint8 with
// constant scales per tensor or per output channel (axis 0); B absent, or a DequantizeLinear of a constant int32
// with zero point 0 and scale x_scale * w_scale[m] (as quantizers write it, to float32's rounding of that
// product: within 2^-20 relative), or a float32 constant (PyTorch's QAT exports) that x_scale * w_scale[m]
// quantizes to within 2^-8 of an output step (rounded to int32 there); the Conv's output (and the Relu's or Clip's, whose bounds are constants) read
// only by the next node; the QuantizeLinear per tensor with constant scale and zero point.
//
// What changes: the QDQ graph computes y = Q(conv(DQ(x), DQ(W)) + DQ(B)) in float32, the folded node the exact
// integer sum times x_scale * w_scale[m] / y_scale. Both round the same real value v / y_scale; they differ by
// at most one step (and only near a rounding tie) when the float32 path's error is below one step: |v_f32 - v|
// <= gamma_K * sum |terms| < y_scale, where gamma_K ~ K * 2^-24 at worst (sqrt(K) * 2^-24 typically) and sum
// |terms| <= K * max|x - x_zp| * max|W - w_zp| * x_scale * w_scale: a quantizer's choice of y_scale keeps that
// orders of magnitude below one step. The folded node's op tolerance is that one step (kOneQuantStep).
//
// The same pass folds, each below: DQ(A), DQ(B) -> Add [-> Relu | Clip] -> Q (FusedQLinearAdd), DQ -> MaxPool ->
// Q of one scale (an int8 MaxPool), DQ(x_0), DQ(x_1), ... -> Concat [-> MaxPool] -> Q (com.microsoft
// QLinearConcat, each input requantized by a table [then an int8 MaxPool]), and last DQ(x_0), DQ(x_1), ... ->
// Concat -> per-channel float ops (BatchNormalization, Relu, ...) -> Q (cnnx.internal QLinearChannelLookup, a
// table per channel: DenseNet) and DQ(x) -> elementwise float ops of that one value -> Q (cnnx.internal
// QLinearLookup: Swish, or a Clip between two QuantizeLinears).
//
// DequantizeLinear nodes of constants reach this pass unfolded (engine/deferred_folding.h: load and planning do not
// make float copies of int8 weights); what it leaves of them it folds last, with every node that then has
// only constant inputs, so the passes after it see constants where they always did.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "engine/node_eval.h"
#include "ops/norm/batch_norm.h"
#include "ops/quant/qlinear_binary.h"
#include "ops/quant/quantize_linear.h"
#include "ops/tensor/concat.h"
#include "ops/quant/quantization.h"
#include "passes/pass.h"
#include "passes/passes.h"

namespace cnnx {

namespace {

const Node* dequantize_of(const Graph& g, int value) {
  const Node* n = value >= 0 ? producer_of(g, value) : nullptr;
  return n && is_op(*n, "DequantizeLinear") ? n : nullptr;
}

// Input i's constant data, or nullptr when it is absent or computed.
const Tensor* constant_in(const Graph& g, const Node& n, size_t i) {
  return i < n.inputs.size() && n.inputs[i] >= 0 ? g.value(n.inputs[i]).info.constant.get() : nullptr;
}

// A DequantizeLinear's or QuantizeLinear's scale (input 1) and zero point (input 2): constants, `count` values
// or one (count 1: one).
bool constant_quant(const Graph& g, const Node& n, int64_t count) {
  const Tensor* s = constant_in(g, n, 1);
  if (!s || (s->numel() != 1 && s->numel() != count)) return false;
  if (n.inputs.size() > 2 && n.inputs[2] >= 0) {
    const Tensor* z = constant_in(g, n, 2);
    if (!z || z->numel() != s->numel()) return false;
  }
  return true;
}

// The zero-point input of `n` (a Q or DQ), or a new constant 0 of `type` when it is omitted.
int zero_point_or_new(Graph& g, const Node& n, DType type, const std::string& base) {
  if (n.inputs.size() > 2 && n.inputs[2] >= 0) return n.inputs[2];
  Tensor zero(type, {});
  std::memset(zero.raw(), 0, dtype_size(type));
  return add_value(g, base, ValueInfo::of(zero));
}

// QuantizeLinear of one float as the Q node computes it: float32 division, rounded half to even, plus the
// zero point, saturated to `range`.
int64_t quantize_one(float r, float scale, int64_t zp, QuantRange range) {
  const float v = r / scale;
  if (std::isinf(v)) return v > 0 ? range.hi : range.lo;
  return saturate_plus(round_half_even(double(v)), zp, range.lo, range.hi);
}

// "" when B (a DequantizeLinear of int32) is at scale x_scale * w_scale[m] with zero point 0, else why not.
std::string check_bias(const Graph& g, const Node* db, float sx, const Tensor& sw, int64_t M) {
  if (!db) return "B is not a DequantizeLinear of an int32 constant";
  const Tensor* b = constant_in(g, *db, 0);
  if (!b || b->dtype() != DType::i32 || b->numel() != M || !constant_quant(g, *db, M))
    return "B is not a DequantizeLinear of an int32 constant with constant scales";
  if (const Tensor* z = constant_in(g, *db, 2))
    for (int64_t i = 0; i < z->numel(); ++i)
      if (z->int_at(i) != 0) return "B's zero point is not 0";
  const Tensor& sb = *constant_in(g, *db, 1);
  for (int64_t m = 0; m < M; ++m) {
    const double want = double(sx) * double(sw.data<float>()[sw.numel() > 1 ? m : 0]);
    const double got = sb.data<float>()[sb.numel() > 1 ? m : 0];
    if (std::fabs(got - want) > std::ldexp(want, -20)) return "B's scale is not x_scale * w_scale";
  }
  return "";
}

// A value's per-tensor quantization read from a DequantizeLinear or QuantizeLinear with constant scale and zero
// point (the zero point 0 when omitted).
struct TensorQuant {
  float scale = 0;
  int64_t zero_point = 0;
};
TensorQuant tensor_quant(const Graph& g, const Node& n) {
  const Tensor* z = constant_in(g, n, 2);
  return {constant_in(g, n, 1)->data<float>()[0], z ? z->int_at(0) : 0};
}

// A DequantizeLinear of an int8/uint8 value per tensor with a constant scale and zero point, or nullptr.
const Node* tensor_dequantize_of(const Graph& g, int value) {
  const Node* d = dequantize_of(g, value);
  return d && is_quantized_type(g.value(d->inputs[0]).info.dtype) && constant_quant(g, *d, 1) ? d : nullptr;
}

// The QuantizeLinear (per tensor, constant scale and zero point) that alone reads `value`, through at most a
// Relu or Clip (constant bounds) that alone reads it; `act`, `bounds` say which. nullptr when there is none.
const Node* quantize_after(const Graph& g, const std::vector<std::vector<int>>& consumers, int value, const Node*& act,
                           ActivationArgs& bounds) {
  const Node* next = sole_reader(g, consumers, value);
  act = nullptr;
  if (next && (is_op(*next, "Relu") || is_op(*next, "Clip")) && fusable_activation(g, *next, bounds)) {
    act = next;
    next = sole_reader(g, consumers, act->outputs[0]);
  }
  if (!next || !is_op(*next, "QuantizeLinear") || next->inputs[0] != (act ? act->outputs[0] : value) ||
      !constant_quant(g, *next, 1))
    return nullptr;
  return next;
}

// The clamp of y a Relu or Clip becomes after the QuantizeLinear `q` (y of `range`): Q(relu(v)) =
// max(Q(v), y_zp), Q(clip(v, a, b)) = clamp(Q(v), Q(a), Q(b)), exact because Q is monotone.
void set_clamp(const Graph& g, const Node& act, const ActivationArgs& bounds, const Node& q, QuantRange range,
               Attributes& attrs) {
  const TensorQuant yq = tensor_quant(g, q);
  const bool relu = is_op(act, "Relu");
  attrs.set("y_min", int_attr(relu ? yq.zero_point : quantize_one(bounds.alpha, yq.scale, yq.zero_point, range)));
  attrs.set("y_max", int_attr(relu ? range.hi : quantize_one(bounds.beta, yq.scale, yq.zero_point, range)));
}

// DQ(A), DQ(B) -> Add [-> Relu | Clip] -> Q  as FusedQLinearAdd (A, B and y of one int8 type, per tensor).
void fold_add(Graph& g, const std::vector<std::vector<int>>& consumers, size_t n, PassDeclines& declines) {
  const Node& add = g.nodes[n];
  const Node* da = dequantize_of(g, add.inputs[0]);
  const Node* db = dequantize_of(g, add.inputs[1]);
  if (!da && !db) return;
  const auto decline = [&](const std::string& why) { declines.add(add, why + ": runs DQ -> float Add -> Q"); };
  da = tensor_dequantize_of(g, add.inputs[0]);
  db = tensor_dequantize_of(g, add.inputs[1]);
  if (!da || !db) {
    decline("A or B is not a DequantizeLinear of int8/uint8 with one constant scale and zero point");
    return;
  }
  const DType type = g.value(da->inputs[0]).info.dtype;
  const Node* act = nullptr;
  ActivationArgs bounds;
  const Node* q = quantize_after(g, consumers, add.outputs[0], act, bounds);
  if (!q) {
    decline("its output is not read by one QuantizeLinear (constant scale and zero point per tensor), through at most a Relu or Clip");
    return;
  }
  if (g.value(db->inputs[0]).info.dtype != type || g.value(q->outputs[0]).info.dtype != type) {
    decline("A, B and the QuantizeLinear's y are not of one type");
    return;
  }
  Attributes attrs;
  std::string note = "DequantizeLinear, Add";
  if (act) {
    set_clamp(g, *act, bounds, *q, quant_range(type), attrs);
    note += ", " + act->op_type;
  }
  note += ", QuantizeLinear from '" + da->name + "' '" + db->name + "' '" + add.name + "'" +
          (act ? " '" + act->name + "'" : "") + " '" + q->name + "'";
  const std::vector<int> inputs{da->inputs[0], da->inputs[1], zero_point_or_new(g, *da, type, add.name + "_a_zero_point"),
                                db->inputs[0], db->inputs[1], zero_point_or_new(g, *db, type, add.name + "_b_zero_point"),
                                q->inputs[1], zero_point_or_new(g, *q, type, add.name + "_y_zero_point")};
  const std::vector<int> outputs = q->outputs;
  Node& at = g.nodes[size_t(q - g.nodes.data())];
  at = make_node(g, add.name, kInternalDomain, "FusedQLinearAdd", inputs, outputs, attrs, note);
}

// DQ(x) -> MaxPool -> Q with Q's scale, zero point and type those of the DequantizeLinear: MaxPool of x as it
// is. Exact: DQ is monotone, so the max commutes with it, and Q(DQ(v)) = v (|v - zp| <= 255 survives the
// float32 multiplication and division within far less than half a step).
void fold_max_pool(Graph& g, const std::vector<std::vector<int>>& consumers, size_t n, PassDeclines& declines) {
  const Node& pool = g.nodes[n];
  const Node* dx = dequantize_of(g, pool.inputs[0]);
  if (!dx) return;
  const auto decline = [&](const std::string& why) { declines.add(pool, why + ": runs DQ -> float MaxPool -> Q"); };
  dx = tensor_dequantize_of(g, pool.inputs[0]);
  const Node* q = pool.outputs.size() == 1 ? sole_reader(g, consumers, pool.outputs[0]) : nullptr;
  if (!dx || !q || !is_op(*q, "QuantizeLinear") || !constant_quant(g, *q, 1)) {
    decline("not DQ (int8/uint8, per tensor) -> MaxPool -> QuantizeLinear (per tensor), each read only by the next, without Indices");
    return;
  }
  const TensorQuant xq = tensor_quant(g, *dx), yq = tensor_quant(g, *q);
  const DType type = g.value(dx->inputs[0]).info.dtype;
  if (xq.scale != yq.scale || xq.zero_point != yq.zero_point || g.value(q->outputs[0]).info.dtype != type) {
    decline("the QuantizeLinear's scale, zero point or type differ from the DequantizeLinear's");
    return;
  }
  const std::string note = "DequantizeLinear, MaxPool, QuantizeLinear from '" + dx->name + "' '" + pool.name + "' '" +
                           q->name + "'";
  const std::vector<int> inputs{dx->inputs[0]}, outputs = q->outputs;
  Node& at = g.nodes[size_t(q - g.nodes.data())];
  at = make_node(g, pool.name, "", "MaxPool", inputs, outputs, pool.attrs, note, 12);  // int8 from opset 12
}

bool channel_op(const Graph& g, const Node& n, bool& per_channel);

// DQ(x_0), DQ(x_1), ... -> Concat [-> MaxPool] -> Q  as com.microsoft QLinearConcat (each x_i requantized to
// Q's scale and zero point, ops/quant/qlinear_concat.h) [then an int8 MaxPool]: every x_i and y of one int8
// type, per tensor. The MaxPool moves after the requantization exactly: Q is monotone, so Q(max(a, b)) =
// max(Q(a), Q(b)) (GoogLeNet's Concat -> MaxPool, whose Concat the quantizer leaves unquantized).
void fold_concat(Graph& g, const std::vector<std::vector<int>>& consumers, size_t n, PassDeclines& declines) {
  const Node& cat = g.nodes[n];
  bool any = false;
  for (int v : cat.inputs) any = any || dequantize_of(g, v);
  if (!any) return;
  const auto decline = [&](const std::string& why) { declines.add(cat, why + ": runs DQ -> float Concat -> Q"); };
  std::vector<const Node*> dq;
  for (int v : cat.inputs) dq.push_back(tensor_dequantize_of(g, v));
  if (std::find(dq.begin(), dq.end(), nullptr) != dq.end()) {
    decline("an input is not a DequantizeLinear of int8/uint8 with one constant scale and zero point");
    return;
  }
  const Node* pool = sole_reader(g, consumers, cat.outputs[0]);
  bool per_channel = false;
  if (pool && channel_op(g, *pool, per_channel)) return;  // fold_channel_lookup's, seen from its QuantizeLinear
  if (pool && !(is_op(*pool, "MaxPool") && pool->outputs.size() == 1)) pool = nullptr;
  const Node* q = sole_reader(g, consumers, pool ? pool->outputs[0] : cat.outputs[0]);
  if (!q || !is_op(*q, "QuantizeLinear") || !constant_quant(g, *q, 1)) {
    decline("its output is not read by one QuantizeLinear (constant scale and zero point per tensor), through at most a MaxPool");
    return;
  }
  const DType type = g.value(q->outputs[0]).info.dtype;
  for (const Node* d : dq)
    if (g.value(d->inputs[0]).info.dtype != type) {
      decline("the inputs and the QuantizeLinear's y are not of one type");
      return;
    }
  std::vector<int> inputs{q->inputs[1], zero_point_or_new(g, *q, type, cat.name + "_y_zero_point")};
  std::string note = "DequantizeLinear x" + std::to_string(dq.size()) + ", Concat" + (pool ? ", MaxPool" : "") +
                     ", QuantizeLinear from '" + cat.name + "'" + (pool ? " '" + pool->name + "'" : "") + " '" +
                     q->name + "'";
  for (size_t i = 0; i < dq.size(); ++i) {
    const Node& d = *dq[i];
    inputs.insert(inputs.end(), {d.inputs[0], d.inputs[1],
                                 zero_point_or_new(g, d, type, cat.name + "_x" + std::to_string(i) + "_zero_point")});
  }
  Attributes attrs;
  attrs.set("axis", int_attr(params_as<ConcatParams>(*cat.params, cat.op_type).axis));
  const std::vector<int> outputs = q->outputs;
  const size_t q_at = size_t(q - g.nodes.data());
  if (!pool) {
    g.nodes[q_at] = make_node(g, cat.name, kMicrosoftDomain, "QLinearConcat", inputs, outputs, attrs, note);
    return;
  }
  // The QLinearConcat in the MaxPool's place (its inputs come before the Concat), the int8 MaxPool in the Q's.
  ValueInfo joined = g.value(cat.outputs[0]).info;
  joined.dtype = type;
  joined.constant.reset();
  const int y = add_value(g, cat.name + "_quantized", joined);
  const Attributes pool_attrs = pool->attrs;
  const std::string pool_name = pool->name, pool_note = "MaxPool of the int8 QLinearConcat '" + cat.name +
                                                        "', moved before QuantizeLinear '" + q->name + "'";
  const size_t pool_at = size_t(pool - g.nodes.data());
  g.nodes[pool_at] = make_node(g, cat.name, kMicrosoftDomain, "QLinearConcat", inputs, {y}, attrs, note);
  g.nodes[q_at] = make_node(g, pool_name, "", "MaxPool", {y}, outputs, pool_attrs, pool_note, 12);  // int8 from opset 12
}

// Elementwise float ops a QLinearLookup may take in: each output element a function of the same element of
// its inputs (the binary ones' other operand a one-value constant or the same value).
bool lookup_op(const Node& n) {
  static const char* const kOps[] = {"Sigmoid", "Mul", "Add", "Sub", "Div", "Relu", "Clip", "HardSigmoid",
                                     "HardSwish", "LeakyRelu", "Tanh", "Elu", "Softplus", "Neg", "Abs"};
  for (const char* op : kOps)
    if (is_op(n, op)) return n.outputs.size() == 1;
  return false;
}

// Runs node `n` by its reference kernel (infer_node's constant folding) on the constants `known` holds for
// its inputs (the graph's own infos for the rest) and records its output 0 there; throws when it is not
// evaluated. How the lookup folds fill their tables with exactly the reference path's values.
void evaluate_on(const Graph& g, const Node& n, std::map<int, ValueInfo>& known) {
  std::vector<ValueInfo> in = input_infos(g, n);
  for (size_t i = 0; i < n.inputs.size(); ++i)
    if (known.count(n.inputs[i])) in[i] = known.at(n.inputs[i]);
  const std::vector<ValueInfo> out = infer_node(n, in);
  if (out.empty() || !out[0].constant) throw Error(n.label() + ": not evaluated on the table's values");
  known[n.outputs[0]] = out[0];
}

// DQ(x) -> elementwise float ops of that one value only -> Q  as cnnx.internal QLinearLookup (a table of x's 256
// values, ops/quant/qlinear_lookup.h): EfficientNet's Swish (Sigmoid, Mul) between int8 convolutions, or a
// Relu/Clip the quantizer left between two QuantizeLinears. The table is the replaced nodes' reference kernels
// run on all 256 values (the DequantizeLinear, the ops, the QuantizeLinear), so the folded node is exactly the
// reference path. Every value between the DequantizeLinear and the QuantizeLinear must be read only by the ops
// taken, and the DQ's x be int8/uint8 per tensor.
void fold_lookup(Graph& g, const std::vector<std::vector<int>>& consumers, size_t qi, PassDeclines& declines) {
  const Node& q = g.nodes[qi];
  if (!constant_quant(g, q, 1) || q.inputs[0] < 0) return;
  const Node* first = producer_of(g, q.inputs[0]);
  if (!first || !lookup_op(*first)) return;
  // The nodes from the DequantizeLinear to q, walked back from q's input.
  const Node* dq = nullptr;
  std::vector<size_t> taken;
  std::vector<int> stack{q.inputs[0]}, seen;
  std::string why;
  while (!stack.empty() && why.empty()) {
    const int v = stack.back();
    stack.pop_back();
    if (std::find(seen.begin(), seen.end(), v) != seen.end()) continue;
    seen.push_back(v);
    const Node* p = producer_of(g, v);
    if (p && is_op(*p, "DequantizeLinear")) {
      if (dq && dq != p) why = "it reads two DequantizeLinears";
      else if (!(dq = tensor_dequantize_of(g, v))) why = "its DequantizeLinear is not of int8/uint8 per tensor";
      continue;
    }
    if (!p || !lookup_op(*p)) {
      why = "a value between them is not an elementwise op's";
      continue;
    }
    taken.push_back(size_t(p - g.nodes.data()));
    for (int in : p->inputs) {
      if (in < 0) continue;
      const Tensor* c = g.value(in).info.constant.get();
      if (c && c->numel() == 1) continue;
      if (c) why = "'" + p->name + "' reads a constant of more than one value";
      else stack.push_back(in);
    }
  }
  if (why.empty() && !dq) why = "no DequantizeLinear feeds it";
  for (size_t t : taken) {
    const int out = g.nodes[t].outputs[0];
    if (!why.empty()) break;
    if (is_graph_output(g, out)) why = "'" + g.nodes[t].name + "' writes a graph output";
    for (int r : consumers[size_t(out)])
      if (&g.nodes[size_t(r)] != &q && std::find(taken.begin(), taken.end(), size_t(r)) == taken.end())
        why = "'" + g.nodes[t].name + "''s output is read by another node";
  }
  const std::string names = first->op_type + " '" + first->name + "'";
  if (!why.empty()) {
    declines.add(q, why + " (from " + names + "): runs DQ -> float ops -> Q");
    return;
  }
  std::sort(taken.begin(), taken.end());
  // The table: x's 256 bytes through the DequantizeLinear, the ops in graph order and q, by reference kernels.
  const DType x_type = g.value(dq->inputs[0]).info.dtype;
  Tensor bytes(x_type, {256});
  for (int b = 0; b < 256; ++b) static_cast<uint8_t*>(bytes.raw())[b] = uint8_t(b);
  std::map<int, ValueInfo> known{{dq->inputs[0], ValueInfo::of(bytes)}};
  try {
    evaluate_on(g, *dq, known);
    for (size_t t : taken) evaluate_on(g, g.nodes[t], known);
    evaluate_on(g, q, known);
  } catch (const Error& e) {
    declines.add(q, std::string("its table could not be made (") + e.what() + "): runs DQ -> float ops -> Q");
    return;
  }
  const Tensor table = *known.at(q.outputs[0]).constant;
  std::string note = "DequantizeLinear";
  for (size_t t : taken) note += ", " + g.nodes[t].op_type;
  note += ", QuantizeLinear from '" + dq->name + "'";
  for (size_t t : taken) note += " '" + g.nodes[t].name + "'";
  note += " '" + q.name + "'";
  const std::vector<int> outputs = q.outputs;
  const std::string name = g.nodes[taken.back()].name;
  const int x_in = dq->inputs[0];
  const int table_value = add_value(g, q.name + "_table", ValueInfo::of(table));
  g.nodes[qi] = make_node(g, name, kInternalDomain, "QLinearLookup", {x_in, table_value}, outputs, {}, note);
}


// An op fold_channel_lookup takes between the Concat (or DequantizeLinear) and the QuantizeLinear: a
// BatchNormalization with constant statistics per channel (inference mode, spatial; `per_channel` set), or an
// elementwise op of its input 0 whose other inputs are one-value constants.
bool channel_op(const Graph& g, const Node& n, bool& per_channel) {
  if (n.outputs.size() != 1 || n.inputs.empty() || n.inputs[0] < 0) return false;
  if (is_op(n, "BatchNormalization")) {
    const auto& p = params_as<BatchNormParams>(*n.params, n.op_type);
    if (n.inputs.size() != 5 || p.training || !p.spatial) return false;
    for (size_t i = 1; i < 5; ++i)
      if (!constant_in(g, n, i)) return false;
    per_channel = true;
    return true;
  }
  if (!lookup_op(n)) return false;
  for (size_t i = 1; i < n.inputs.size(); ++i) {
    const Tensor* c = constant_in(g, n, i);
    if (n.inputs[i] >= 0 && !(c && c->numel() == 1)) return false;
  }
  return true;
}

// Tables of 256 bytes per channel cost more than the values they map past this many channels.
constexpr int64_t kMaxTableChannels = 8192;

// DQ(x_0), DQ(x_1), ... -> Concat (channels) -> channel ops -> Q, or DQ(x) -> channel ops with a
// BatchNormalization among them -> Q, as cnnx.internal QLinearChannelLookup (a table per channel,
// ops/quant/qlinear_channel_lookup.h): DenseNet's Concat -> BatchNormalization -> Relu before each
// convolution, which quantizers leave in float between the DequantizeLinears and the QuantizeLinear. Row c of
// the table is the replaced nodes' reference kernels run on all 256 values of channel c's byte (the
// DequantizeLinear, the Concat, the ops, the QuantizeLinear), so the folded node is exactly the reference
// path. Every value between must be read only by the next node, every DequantizeLinear be of int8/uint8 per
// tensor. Returns false when q does not end such a chain (a Concat read by q is fold_concat's, elementwise
// ops of one value fold_lookup's); true when it folded or declined.
bool fold_channel_lookup(Graph& g, const std::vector<std::vector<int>>& consumers, size_t qi, PassDeclines& declines) {
  const Node& q = g.nodes[qi];
  if (q.inputs[0] < 0 || !constant_quant(g, q, 1)) return false;
  std::vector<size_t> ops;  // the channel ops, q's producer first
  bool per_channel = false;
  const Node* p = producer_of(g, q.inputs[0]);
  while (p && channel_op(g, *p, per_channel)) {
    ops.push_back(size_t(p - g.nodes.data()));
    p = producer_of(g, p->inputs[0]);
  }
  const Node* cat = p && is_op(*p, "Concat") ? p : nullptr;
  if (cat ? ops.empty() : !per_channel) return false;
  std::reverse(ops.begin(), ops.end());
  const Node& first = cat ? *cat : g.nodes[ops.front()];
  const auto decline = [&](const std::string& why) {
    declines.add(q, why + " (from " + node_label(first) + "): runs DQ -> float ops -> Q");
    return true;
  };
  std::vector<const Node*> dqs;
  if (cat) {
    const ValueInfo& joined = g.value(cat->outputs[0]).info;
    if (joined.rank() < 3 || normalize_axis(params_as<ConcatParams>(*cat->params, cat->op_type).axis, joined.rank()) != 1)
      return decline("the Concat does not join the channels (axis 1) of tensors of rank 3 or more");
    for (int v : cat->inputs) dqs.push_back(tensor_dequantize_of(g, v));
  } else {
    dqs.push_back(tensor_dequantize_of(g, first.inputs[0]));
  }
  if (std::find(dqs.begin(), dqs.end(), nullptr) != dqs.end())
    return decline("an input is not a DequantizeLinear of int8/uint8 with one constant scale and zero point");
  const ValueInfo& x0 = g.value(dqs[0]->outputs[0]).info;
  if (x0.rank() < 3 || dqs.size() > 4096) return decline("its input has rank below 3, or the Concat over 4096 inputs");
  const int64_t C = g.value(first.outputs[0]).info.shape[1];
  if (C > kMaxTableChannels) return decline("more than " + std::to_string(kMaxTableChannels) + " channels");
  // Each value between read only by the next node.
  std::vector<const Node*> path;
  if (cat) path.push_back(cat);
  for (size_t t : ops) path.push_back(&g.nodes[t]);
  path.push_back(&q);
  for (size_t k = 0; k + 1 < path.size(); ++k)
    if (sole_reader(g, consumers, path[k]->outputs[0]) != path[k + 1])
      return decline("'" + path[k]->name + "''s output is read by another node or is a graph output");
  // The tables: each input's channels holding all 256 bytes ([1, C_i, 256, 1, ...], the graph's rank), run
  // through the DequantizeLinears, the Concat, the ops and q by their reference kernels. A DequantizeLinear
  // (per tensor, elementwise) runs on one channel's 256 bytes, its values then copied to every channel.
  std::map<int, ValueInfo> known;
  try {
    for (const Node* d : dqs) {
      const ValueInfo& x = g.value(d->inputs[0]).info;
      Shape shape(x.shape.size(), 1);
      shape[2] = 256;
      Tensor bytes(x.dtype, shape);
      for (int b = 0; b < 256; ++b) static_cast<uint8_t*>(bytes.raw())[b] = uint8_t(b);
      known[d->inputs[0]] = ValueInfo::of(bytes);
      evaluate_on(g, *d, known);
      const Tensor& row = *known.at(d->outputs[0]).constant;
      shape[1] = x.shape[1];
      Tensor rows(row.dtype(), shape);
      const size_t row_bytes = size_t(row.numel()) * dtype_size(row.dtype());
      for (int64_t c = 0; c < shape[1]; ++c)
        std::memcpy(static_cast<char*>(rows.raw()) + size_t(c) * row_bytes, row.raw(), row_bytes);
      known[d->outputs[0]] = ValueInfo::of(rows);
    }
    for (const Node* n : path) evaluate_on(g, *n, known);
  } catch (const Error& e) {
    return decline(std::string("its tables could not be made (") + e.what() + ")");
  }
  const Tensor& rows = *known.at(q.outputs[0]).constant;
  if (rows.numel() != C * 256) return decline("its tables came out of another shape");
  Tensor table(rows.dtype(), {C, 256});
  std::memcpy(table.raw(), rows.raw(), size_t(C) * 256);
  std::string note = cat ? "DequantizeLinear x" + std::to_string(dqs.size()) : "DequantizeLinear";
  std::string names;
  for (const Node* n : path) {
    note += ", " + n->op_type;
    names += " '" + n->name + "'";
  }
  note += " from" + names;
  std::vector<int> inputs;
  for (const Node* d : dqs) inputs.push_back(d->inputs[0]);
  const std::vector<int> outputs = q.outputs;
  const std::string name = first.name;
  inputs.insert(inputs.begin(), add_value(g, q.name + "_tables", ValueInfo::of(table)));
  g.nodes[qi] = make_node(g, name, kInternalDomain, "QLinearChannelLookup", inputs, outputs, {}, note);
  return true;
}

}  // namespace

void fold_qdq(Graph& g, PassDeclines& declines) {
  const auto consumers = consumers_of(g);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (is_op(g.nodes[n], "Add")) fold_add(g, consumers, n, declines);
    else if (is_op(g.nodes[n], "MaxPool")) fold_max_pool(g, consumers, n, declines);
    else if (is_op(g.nodes[n], "Concat")) fold_concat(g, consumers, n, declines);
  }
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& conv = g.nodes[n];
    if (!is_op(conv, "Conv")) continue;
    const Node* dx = dequantize_of(g, conv.inputs[0]);
    if (!dx) continue;
    const auto decline = [&](const std::string& why) { declines.add(conv, why + ": runs DQ -> float Conv -> Q"); };
    const DType x_type = g.value(dx->inputs[0]).info.dtype;  // a copy: add_value below may move the values
    if (!is_quantized_type(x_type) || !constant_quant(g, *dx, 1)) {
      decline("x is not int8/uint8 with one constant scale and zero point");
      continue;
    }
    const Node* dw = dequantize_of(g, conv.inputs[1]);
    const Tensor* w = dw ? constant_in(g, *dw, 0) : nullptr;
    if (!w || !is_quantized_type(w->dtype()) || w->shape().size() < 3) {
      decline("W is not a DequantizeLinear of int8/uint8 constant weights");
      continue;
    }
    const int64_t M = w->shape()[0];
    const auto& dw_params = params_as<LinearQuantParams>(*dw->params, dw->op_type);
    const Tensor* sw = constant_in(g, *dw, 1);
    if (!constant_quant(g, *dw, M) || (sw->numel() > 1 && dw_params.axis != 0 && dw_params.axis != -int64_t(w->shape().size()))) {
      decline("W's scales are not constants per tensor or per output channel (axis 0)");
      continue;
    }
    const float sx = constant_in(g, *dx, 1)->data<float>()[0];
    const bool has_bias = conv.inputs.size() > 2 && conv.inputs[2] >= 0;
    const Node* db = has_bias ? dequantize_of(g, conv.inputs[2]) : nullptr;
    const Tensor* float_bias = has_bias && !db ? g.value(conv.inputs[2]).info.constant.get() : nullptr;
    if (float_bias && (float_bias->dtype() != DType::f32 || float_bias->numel() != M)) float_bias = nullptr;
    if (has_bias && !float_bias) {
      const std::string why = check_bias(g, db, sx, *sw, M);
      if (!why.empty()) {
        decline(why);
        continue;
      }
    }
    // Conv [-> Relu | Clip] -> QuantizeLinear, each value read only by the next node.
    const Node* next = sole_reader(g, consumers, conv.outputs[0]);
    const Node* act = nullptr;
    ActivationArgs bounds;
    if (next && (is_op(*next, "Relu") || is_op(*next, "Clip")) && fusable_activation(g, *next, bounds)) {
      act = next;
      next = sole_reader(g, consumers, act->outputs[0]);
    }
    if (!next || !is_op(*next, "QuantizeLinear") || next->inputs[0] != (act ? act->outputs[0] : conv.outputs[0]) ||
        !constant_quant(g, *next, 1)) {
      decline("its output is not read by one QuantizeLinear (constant scale and zero point per tensor), through at most a Relu or Clip");
      continue;
    }
    const Node& q = *next;
    // A float32 bias (PyTorch's QAT exports): int32 at x_scale * w_scale[m], off by at most half that step,
    // taken when that is at most 2^-8 of an output step (so it adds at most that to the one-step rule).
    int bias = has_bias && !float_bias ? db->inputs[0] : -1;
    if (float_bias) {
      const double sy = constant_in(g, q, 1)->data<float>()[0];
      Tensor b(DType::i32, {M});
      std::string why;
      for (int64_t m = 0; m < M && why.empty(); ++m) {
        const double step = double(sx) * double(sw->data<float>()[sw->numel() > 1 ? m : 0]);
        const double v = double(float_bias->data<float>()[m]) / step;
        if (!(std::fabs(v) < 2147483647.0)) why = "B does not fit int32 at scale x_scale * w_scale";
        else if (step / 2 > std::ldexp(sy, -8)) why = "B is float32 and x_scale * w_scale is too coarse for it";
        else b.data<int32_t>()[m] = int32_t(round_half_even(v));
      }
      if (!why.empty()) {
        decline(why);
        continue;
      }
      bias = add_value(g, conv.name + "_quantized_bias", ValueInfo::of(b));
    }
    const DType y_type = g.value(q.outputs[0]).info.dtype;
    const QuantRange range = quant_range(y_type);
    Attributes attrs = conv.attrs;
    std::string note = "DequantizeLinear, Conv";
    if (act) {
      const float sy = constant_in(g, q, 1)->data<float>()[0];
      const Tensor* zq = constant_in(g, q, 2);
      const int64_t zp = zq ? zq->int_at(0) : 0;
      const bool relu = is_op(*act, "Relu");
      attrs.set("y_min", int_attr(relu ? zp : quantize_one(bounds.alpha, sy, zp, range)));
      attrs.set("y_max", int_attr(relu ? range.hi : quantize_one(bounds.beta, sy, zp, range)));
      note += ", " + act->op_type;
    }
    note += ", QuantizeLinear from '" + dx->name + "' '" + dw->name + "' '" + conv.name + "'" +
            (act ? " '" + act->name + "'" : "") + " '" + q.name + "'";
    const std::vector<int> inputs{dx->inputs[0], dx->inputs[1], zero_point_or_new(g, *dx, x_type, conv.name + "_x_zero_point"),
                                  dw->inputs[0], dw->inputs[1], zero_point_or_new(g, *dw, w->dtype(), conv.name + "_w_zero_point"),
                                  q.inputs[1], zero_point_or_new(g, q, y_type, conv.name + "_y_zero_point"),
                                  bias};
    const std::vector<int> outputs = q.outputs;
    // The folded node takes the QuantizeLinear's place (every input is computed before it); the Conv, the
    // activation and the DequantizeLinears no other node reads are left without readers and removed.
    Node& at = g.nodes[size_t(&q - g.nodes.data())];
    at = act ? make_node(g, conv.name, kInternalDomain, "FusedQLinearConv", inputs, outputs, attrs, note)
             : make_node(g, conv.name, "", "QLinearConv", inputs, outputs, attrs, note, 10);
  }
  // Last, what is left between a DequantizeLinear and a QuantizeLinear as elementwise float ops (Swish).
  const auto readers = consumers_of(g);
  for (size_t n = 0; n < g.nodes.size(); ++n)
    if (is_op(g.nodes[n], "QuantizeLinear") && !fold_channel_lookup(g, readers, n, declines))
      fold_lookup(g, readers, n, declines);
  // The DequantizeLinears of constants still read (a float Conv's or Gemm's weights) and what they feed, folded
  // as load folds constants (the plan drops the folded nodes after the passes).
  remove_dead_nodes(g);
  for (const Node& n : g.nodes) {
    std::vector<ValueInfo> in = input_infos(g, n);
    bool constant = !n.def->hints.runs_subgraphs;
    for (size_t i = 0; i < in.size(); ++i) constant = constant && (n.inputs[i] < 0 || in[i].constant);
    bool folded = true;
    for (int o : n.outputs) folded = folded && (o < 0 || g.value(o).info.constant);
    if (!constant || folded) continue;
    const std::vector<ValueInfo> out = infer_node(n, in);
    for (size_t i = 0; i < n.outputs.size(); ++i)
      if (n.outputs[i] >= 0 && out[i].constant) g.values[size_t(n.outputs[i])].info = out[i];
  }
}

}  // namespace cnnx
