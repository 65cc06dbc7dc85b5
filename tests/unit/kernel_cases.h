// One harness for every kernel of every op (ncnn's tests/testutil.h `test_layer`): a case names an op, its
// attributes and inputs; check_kernel_cases() parses and infers the node as the plan does, runs the op's
// reference kernel, then compiles EVERY other kernel of the op's registered list (OpDef::kernels) with the
// same KernelArgs. A kernel that declines must be expected to, with a part of its reason; one that compiles is
// run as the plan runs it (inputs reordered into the layouts it chose, outputs poisoned beforehand and
// reordered back to plain; again over its in-place input when it names one) and compared with the reference
// by engine/compare.h under the op's own Tolerance (with the magnitudes of sums of products). A new kernel is
// tested by adding a case, not a test file.
//
//   KernelCase("Conv", 11, "2-D pads 1").attr("pads", ints({1, 1, 1, 1}))
//       .in(random_in({1, 3, 5, 6})).in(random_in({2, 3, 3, 3}).constant())
//       .declines("dnnl", "not float32")       // non-reference kernels not named must run the case
//
// Failures print every parameter of the case (describe(): op, opset, attributes, inputs with their seeds or
// data, outputs, offered layouts, expectations), the kernel and the run.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dnnl/layouts.h"
#include "engine/node_eval.h"
#include "ops/cast/round_to_float16.h"
#include "tests/unit/op_harness.h"

namespace cnnx::testing {

// The layout a value is offered in: plain, channel-blocked (nChw16c and kin: channel_blocked_layout), or
// channels-last (NHWC and kin), or plain stored in bfloat16 (a native bfloat16 plan: dnnl/layouts.h).
enum class Offer { plain, blocked, channels_last, bfloat16, blocked_bfloat16, channels_last_bfloat16 };

// One input of a case: random uniform data of a shape (the seed derived from the case unless given), or an
// explicit tensor; constant inputs reach infer and the kernels with their data, as initializers do.
struct CaseInput {
  Shape shape;
  uint32_t seed = 0;  // 0: derived from the case's op, description and the input's index
  float lo = -1.f, hi = 1.f;
  Tensor data;  // explicit data, used instead of random values when defined
  bool is_constant = false;
  bool is_omitted = false;
  Offer offer = Offer::plain;

  CaseInput constant() const { CaseInput c = *this; c.is_constant = true; return c; }
  // (Either order with stored_bfloat16(): the arrangement and the storage combine.)
  CaseInput blocked() const { return arranged(Offer::blocked); }
  CaseInput channels_last() const { return arranged(Offer::channels_last); }
  // Stored in bfloat16 (dnnl/layouts.h) in the plain arrangement, or in the channel-blocked or channels-last one
  // when blocked() or channels_last().
  CaseInput stored_bfloat16() const {
    CaseInput c = *this;
    c.offer = offer == Offer::blocked || offer == Offer::blocked_bfloat16 ? Offer::blocked_bfloat16
              : offer == Offer::channels_last || offer == Offer::channels_last_bfloat16 ? Offer::channels_last_bfloat16
                                                                                       : Offer::bfloat16;
    return c;
  }
  CaseInput seeded(uint32_t s) const { CaseInput c = *this; c.seed = s; return c; }

 private:
  CaseInput arranged(Offer arrangement) const {
    const bool bfloat16 = offer == Offer::bfloat16 || offer == Offer::blocked_bfloat16 ||
                          offer == Offer::channels_last_bfloat16;
    CaseInput c = *this;
    c.offer = arrangement;
    return bfloat16 ? c.stored_bfloat16() : c;
  }
};

// Uniform float32 values in [lo, hi).
inline CaseInput random_in(Shape shape, float lo = -1.f, float hi = 1.f) {
  CaseInput c;
  c.shape = std::move(shape);
  c.lo = lo;
  c.hi = hi;
  return c;
}
inline CaseInput given(Tensor t) {
  CaseInput c;
  c.shape = t.shape();
  c.data = std::move(t);
  return c;
}
// A constant 1-D int64 input (axes, shapes, pads, output sizes).
inline CaseInput ints_in(std::vector<int64_t> v) { return given(make_int_tensor({int64_t(v.size())}, v)).constant(); }
inline CaseInput omitted() {
  CaseInput c;
  c.is_omitted = true;
  return c;
}

// The layouts a compiled kernel chooses (KernelLayouts): anything; input 0 in the layout offered; input 0
// in it and output 0 in the same kind (the kernel keeps an arriving blocked layout through); input 0 and
// output 0 plain; input 0 and output 0 channel-blocked, whatever was offered.
enum class Takes { any, offered, offered_through, plain, channel_blocked };

// The expectation for one non-reference kernel of the op.
struct Expect {
  std::string kernel;
  bool runs = true;
  std::string reason;  // declining: a part of the reason it must give
  Takes takes = Takes::any;
};

struct KernelCase {
  std::string op;
  int opset = 0;
  std::string what;
  std::string domain;  // "" for ONNX's
  Attributes attrs;
  std::vector<CaseInput> inputs;
  size_t num_outputs = 1;
  std::set<size_t> omitted_outputs;
  std::vector<Offer> output_offers;  // empty: no wish for the outputs' layouts
  std::vector<Expect> expects;       // non-reference kernels not named here must run the case
  Precision precision = Precision::f32;  // CompileContext::precision: bf16 as for a node of a native bf16 plan
  bool store_bfloat16 = false;  // CompileContext::store_bfloat16: only the output's rounding to bfloat16 reads it
  // Ops only passes make (FusedConv, ChannelShuffle) refuse parsing: the params a pass would give them.
  std::function<ParamsPtr(const Node&)> make_params;
  std::string params_note;  // what make_params gives, for messages
  // Why the case is not run again with special values planted in its random inputs ("": it is).
  std::string special_values_differ;

  KernelCase(std::string op_type, int op_opset, std::string description = "")
      : op(std::move(op_type)), opset(op_opset), what(std::move(description)) {}
  KernelCase& in_domain(std::string d) { domain = std::move(d); return *this; }
  KernelCase& attr(const std::string& name, Attribute a) { attrs.set(name, std::move(a)); return *this; }
  KernelCase& in(CaseInput i) { inputs.push_back(std::move(i)); return *this; }
  KernelCase& outputs(size_t n) { num_outputs = n; return *this; }
  KernelCase& omit_output(size_t i) { omitted_outputs.insert(i); return *this; }
  KernelCase& wish_output(Offer o) { output_offers.push_back(o); return *this; }
  KernelCase& declines(std::string kernel, std::string reason) {
    expects.push_back({std::move(kernel), false, std::move(reason), Takes::any});
    return *this;
  }
  KernelCase& runs(std::string kernel, Takes takes = Takes::any) {
    expects.push_back({std::move(kernel), true, "", takes});
    return *this;
  }
  KernelCase& native_bfloat16() { precision = Precision::bf16; return *this; }
  // As a node of a native bfloat16 plan whose output only its rounding reads: the kernel may store it so.
  KernelCase& native_bfloat16_stored() { precision = Precision::bf16; store_bfloat16 = true; return *this; }
  KernelCase& without_special_values(std::string why) { special_values_differ = std::move(why); return *this; }
  KernelCase& params(std::string note, std::function<ParamsPtr(const Node&)> make) {
    params_note = std::move(note);
    make_params = std::move(make);
    return *this;
  }
  // "Conv", "cnnx.internal:FusedConv": as OpRegistry::names() spells it.
  std::string key() const { return domain.empty() ? op : domain + ":" + op; }
};

// ---- describing a case (for CAPTURE) ----

inline std::string floats_text(const std::vector<float>& v) {
  return list_string(std::vector<double>(v.begin(), v.end()));
}

inline std::string tensor_text(const Tensor& t, int64_t max_values = 24) {
  std::ostringstream os;
  os.precision(9);
  os << dtype_name(t.dtype()) << to_string(t.shape()) << " {";
  for (int64_t i = 0; i < t.numel() && i < max_values; ++i) os << (i ? ", " : "") << t.double_at(i);
  if (t.numel() > max_values) os << ", ... (" << t.numel() << " values)";
  os << "}";
  return os.str();
}

inline std::string attribute_text(const Attribute& a) {
  switch (a.kind) {
    case Attribute::Kind::f: {
      const std::string s = floats_text({a.f});
      return s.substr(1, s.size() - 2);
    }
    case Attribute::Kind::i: return std::to_string(a.i);
    case Attribute::Kind::s: return "'" + a.s + "'";
    case Attribute::Kind::t: return tensor_text(a.t);
    case Attribute::Kind::floats: return floats_text(a.floats);
    case Attribute::Kind::ints: return str(a.ints);
    case Attribute::Kind::strings: {
      std::string s = "[";
      for (size_t i = 0; i < a.strings.size(); ++i) s += (i ? ",'" : "'") + a.strings[i] + "'";
      return s + "]";
    }
    default: return "<" + a.onnx_type + ">";
  }
}

// FNV-1a: seeds that stay the same when cases are added, removed or reordered.
inline uint32_t case_seed(const KernelCase& c, size_t input) {
  uint32_t h = 2166136261u;
  for (char ch : c.key() + "|" + std::to_string(c.opset) + "|" + c.what + "|" + std::to_string(input))
    h = (h ^ uint8_t(ch)) * 16777619u;
  return h == 0 ? 1 : h;
}

inline uint32_t seed_of(const KernelCase& c, size_t input) {
  return c.inputs[input].seed ? c.inputs[input].seed : case_seed(c, input);
}

// Every parameter of the case, one per line.
inline std::string describe(const KernelCase& c) {
  std::ostringstream os;
  os << c.key() << " (opset " << c.opset << ")" << (c.what.empty() ? "" : ": " + c.what);
  os << "\n  attributes:";
  if (c.attrs.all().empty()) os << " none";
  for (const auto& [name, a] : c.attrs.all()) os << " " << name << "=" << attribute_text(a);
  if (c.make_params) os << "\n  params made by hand: " << c.params_note;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const CaseInput& in = c.inputs[i];
    os << "\n  input " << i << ": ";
    if (in.is_omitted) {
      os << "omitted";
      continue;
    }
    if (in.data.defined()) os << tensor_text(in.data);
    else os << "float32" << to_string(in.shape) << " uniform [" << in.lo << ", " << in.hi << ") seed " << seed_of(c, i);
    if (in.is_constant) os << ", constant";
    if (in.offer == Offer::blocked) os << ", offered channel-blocked";
    if (in.offer == Offer::channels_last) os << ", offered channels-last";
    if (in.offer == Offer::bfloat16) os << ", offered stored in bfloat16";
    if (in.offer == Offer::blocked_bfloat16) os << ", offered channel-blocked, stored in bfloat16";
    if (in.offer == Offer::channels_last_bfloat16) os << ", offered channels-last, stored in bfloat16";
  }
  if (c.precision == Precision::bf16) os << "\n  compiled as a node of a native bfloat16 plan";
  if (c.store_bfloat16) os << ", its output read only rounded to bfloat16";
  os << "\n  outputs: " << c.num_outputs;
  for (size_t i : c.omitted_outputs) os << ", output " << i << " omitted";
  for (size_t i = 0; i < c.output_offers.size(); ++i)
    if (c.output_offers[i] == Offer::blocked) os << ", output " << i << " wished channel-blocked";
  os << "\n  expected:";
  if (c.expects.empty()) os << " every kernel runs";
  for (const Expect& e : c.expects) {
    os << " " << e.kernel << (e.runs ? " runs" : " declines \"" + e.reason + "\"");
    if (e.takes == Takes::offered) os << " taking input 0 in the offered layout";
    if (e.takes == Takes::offered_through) os << " keeping the offered layout from input 0 to output 0";
    if (e.takes == Takes::plain) os << " taking input 0 and giving output 0 plain";
    if (e.takes == Takes::channel_blocked) os << " taking input 0 and giving output 0 channel-blocked";
    os << ";";
  }
  return os.str();
}

// ---- running a case ----

// The layout `offer` means for a value of `shape`.
inline Layout offered_layout(Offer offer, const Shape& shape) {
  if (offer == Offer::blocked) return channel_blocked_layout(shape);
  if (offer == Offer::bfloat16) return bfloat16_layout(Layout(), shape);
  if (offer == Offer::blocked_bfloat16) return bfloat16_layout(channel_blocked_layout(shape), shape);
  if (offer == Offer::channels_last_bfloat16) return bfloat16_layout(channels_last_layout(shape), shape);
  return offer == Offer::channels_last ? channels_last_layout(shape) : Layout();
}

// The node, its inputs and the KernelArgs the plan would give its kernels.
struct PreparedCase {
  Node node;
  std::vector<Tensor> inputs;  // plain data; undefined where omitted
  std::vector<ValueInfo> in, out;
  KernelLayouts offered;
};

// Parses (or takes the hand-made params) and infers as the plan does (engine/node_eval.h); throws cnnx::Error.
inline PreparedCase prepare_case(const KernelCase& c) {
  PreparedCase p;
  Node& n = p.node;
  n.name = "case";
  n.op_type = c.op;
  n.domain = c.domain;
  n.opset = c.opset;
  n.attrs = c.attrs;
  for (size_t i = 0; i < c.inputs.size(); ++i) n.inputs.push_back(c.inputs[i].is_omitted ? -1 : int(i));
  for (size_t i = 0; i < c.num_outputs; ++i)
    n.outputs.push_back(c.omitted_outputs.count(i) ? -1 : int(c.inputs.size() + i));
  n.def = &builtin_ops().find(c.domain, c.op, c.opset);
  n.params = c.make_params ? c.make_params(n) : with_node_context(n, [&] { return n.def->parse(n); });
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const CaseInput& ci = c.inputs[i];
    if (ci.is_omitted) {
      p.inputs.emplace_back();
      p.in.emplace_back();
      p.offered.in.emplace_back();
      continue;
    }
    Tensor t = ci.data.defined() ? ci.data : random_tensor(ci.shape, seed_of(c, i), ci.lo, ci.hi);
    if (ci.offer == Offer::bfloat16 || ci.offer == Offer::blocked_bfloat16 || ci.offer == Offer::channels_last_bfloat16)
      t = rounded_to_bfloat16(t);  // the values a bfloat16 storage holds
    p.inputs.push_back(t);
    p.in.push_back(ci.is_constant ? ValueInfo::of(t) : ValueInfo::of(t.dtype(), t.shape()));
    p.offered.in.push_back(offered_layout(ci.offer, t.shape()));
  }
  p.offered.out.resize(c.output_offers.size());
  p.out = infer_node(n, p.in);
  for (size_t i = 0; i < c.output_offers.size(); ++i)
    if (c.output_offers[i] == Offer::blocked) p.offered.out[i] = channel_blocked_layout(p.out.at(i).shape);
  return p;
}

// Output tensors of the inferred shapes: zeros (what the plan gives reference kernels) or every byte 0xFF
// (NaN for floats) for kernels that must write every byte themselves.
inline std::vector<Tensor> case_outputs(const PreparedCase& p, bool poison) {
  std::vector<Tensor> outs;
  for (size_t i = 0; i < p.out.size(); ++i) {
    if (p.node.outputs[i] < 0) {
      outs.emplace_back();
      continue;
    }
    Tensor t(p.out[i].dtype, p.out[i].shape);
    if (poison && t.bytes()) std::memset(t.raw(), 0xFF, t.bytes());
    outs.push_back(t);
  }
  return outs;
}

// The bytes a value of `info` takes in `layout` (blocked layouts may pad).
inline size_t bytes_in(const Layout& layout, const Tensor& t) {
  return is_plain(layout) ? t.bytes() : layout.desc()->bytes();
}

// The input the plan would let output 0 overwrite (CompiledKernel::in_place_input, under the plan's
// conditions: a non-constant input of output 0's layout and size), or -1.
inline int in_place_input_of(const CompiledKernel& k, const KernelCase& c, const PreparedCase& p,
                             const std::vector<Tensor>& outs) {
  const int i = k.in_place_input();
  if (i < 0 || size_t(i) >= c.inputs.size() || c.inputs[size_t(i)].is_constant || c.inputs[size_t(i)].is_omitted ||
      outs.empty() || !outs[0].defined())
    return -1;
  const KernelLayouts* l = k.layouts();
  const Layout in = l ? l->in.at(size_t(i)) : Layout(), out = l ? l->out.at(0) : Layout();
  if (in != out || p.inputs[size_t(i)].dtype() != outs[0].dtype() ||
      bytes_in(in, p.inputs[size_t(i)]) != bytes_in(out, outs[0]))
    return -1;
  return i;
}

inline bool has_part(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The magnitudes the op's tolerance scales for the case's inputs (engine/compare.h); empty for most ops.
inline std::vector<Tensor> case_magnitudes(const PreparedCase& p) {
  std::vector<const Tensor*> in;
  for (const Tensor& t : p.inputs) in.push_back(t.defined() ? &t : nullptr);
  return term_magnitudes(*p.node.def, p.node.params, p.in, p.out, in);
}

// Compares every present output with the reference's under the op's tolerance (CHECKs).
// An output the kernel stores in bfloat16 (its layout in `taken`) is allowed half a bfloat16 ulp more, as the
// plan's --verify allows it (runtime/plan.cc).
inline void check_outputs(const PreparedCase& p, const std::vector<Tensor>& got, const std::vector<Tensor>& want,
                          const std::vector<Tensor>& magnitudes, const KernelLayouts* taken = nullptr) {
  for (size_t o = 0; o < want.size(); ++o) {
    if (!want[o].defined()) continue;
    CAPTURE(o);
    Tolerance tol = p.node.def->tolerance;
    if (taken && o < taken->out.size() && stores_bfloat16(taken->out[o])) tol.rel += 1.0 / 256;
    const Difference d = compare(got[o], want[o], tol, magnitudes.empty() ? nullptr : &magnitudes[o]);
    CHECK_MESSAGE(d.within, "output ", o, ": ", d.detail);
  }
}

// The special values every kernel must treat as ONNX does (ops/common/special_values.h): NaN, infinities,
// negative zero and denormals. with_special_values plants them, spread out, in a copy of `t`.
inline Tensor with_special_values(const Tensor& t) {
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(), -0.f, 1e-40f, -1e-40f};
  constexpr int64_t kSpecials = int64_t(std::size(specials));
  Tensor c(t.dtype(), t.shape());
  std::memcpy(c.raw(), t.raw(), t.bytes());
  float* d = c.data<float>();
  const int64_t step = std::max<int64_t>(1, c.numel() / kSpecials);  // spread out; side by side in a small tensor
  for (int64_t k = 0; k < kSpecials && k < c.numel(); ++k) d[k * step] = specials[k];
  return c;
}

// The case's random float32 inputs that are not constant (weights keep their values: a plan folds what it can
// of them) with special values planted; false when it has none.
inline bool plant_special_values(const KernelCase& c, PreparedCase& p) {
  bool planted = false;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const CaseInput& ci = c.inputs[i];
    if (ci.is_omitted || ci.is_constant || ci.data.defined() || p.inputs[i].dtype() != DType::f32) continue;
    p.inputs[i] = with_special_values(p.inputs[i]);
    planted = planted || p.inputs[i].numel() > 0;
  }
  return planted;
}

// The kernels that give another result than ONNX's on special values, where the case applies, and why: the
// exceptions to the rule of ops/common/special_values.h, listed in the README ("Special values"). Mending them
// would take a pass over data the kernel never reads otherwise, or the reference kernel.
struct SpecialValueException {
  std::string op, kernel;  // op as KernelCase::key() spells it
  bool (*applies)(const KernelCase&);
  const char* why;
};
inline bool clamping_post_op(const KernelCase& c) {
  return has_part(c.what, "+Relu") || has_part(c.what, "+Clip") || has_part(c.what, "+HardSigmoid");
}
constexpr const char* kClampingPostOp = "oneDNN's relu and clip post-ops (maxps/minps) turn a NaN sum into 0 or the lower bound";
inline const std::vector<SpecialValueException>& special_value_exceptions() {
  static const std::vector<SpecialValueException> table = {
      {"cnnx.internal:FusedConv", "dnnl", clamping_post_op, kClampingPostOp},
      {"cnnx.internal:FusedConvFloat16", "dnnl", clamping_post_op, kClampingPostOp},
      {"Conv", "dnnl", [](const KernelCase& c) { return c.attrs.get_int("group", 1) > 1; },
       "oneDNN pads each group's channels to its block with zero weights: an infinite input times 0 is NaN"},
      {"BatchNormalization", "dnnl", [](const KernelCase& c) { return has_part(c.what, "then Relu"); },
       "oneDNN's blocked batch normalization applies its fused relu with maxps: a NaN becomes 0"},
      {"MaxPool", "dnnl", nullptr, "oneDNN's max pooling (maxps) passes over a NaN in a window"},
      {"GlobalMaxPool", "dnnl", nullptr, "oneDNN's max pooling (maxps) passes over a NaN in a window"},
      {"LRN", "dnnl", nullptr, "oneDNN's LRN keeps running window sums: a NaN or inf reaches the windows after it"},
      {"Resize", "dnnl", [](const KernelCase& c) { return c.attrs.get_string("mode", "nearest") == "linear"; },
       "oneDNN interpolates as a + w (b - a): an infinite tap gives NaN where ONNX's weighted sum gives inf"},
  };
  return table;
}

inline const SpecialValueException* special_value_exception(const KernelCase& c, const std::string& kernel) {
  for (const SpecialValueException& e : special_value_exceptions())
    if (e.op == c.key() && e.kernel == kernel && (!e.applies || e.applies(c))) return &e;
  return nullptr;
}

inline std::set<std::string> check_kernel_case(const KernelCase& c, bool special_values);

// Checks one case against every kernel of its op, with its inputs as given and again with special values
// planted in its random ones (unless the case opts out, saying why); returns the names of the kernels that ran it.
inline std::set<std::string> check_kernel_case(const KernelCase& c) {
  std::set<std::string> ran = check_kernel_case(c, false);
  if (c.special_values_differ.empty()) check_kernel_case(c, true);
  return ran;
}

inline std::set<std::string> check_kernel_case(const KernelCase& c, bool special_values) {
  std::set<std::string> ran;
  const std::string params = describe(c) + (special_values ? "\n  with NaN, +-inf, -0 and +-1e-40 planted in "
                                                              "its random inputs (with_special_values)" : "");
  CAPTURE(params);
  PreparedCase p;
  std::vector<Tensor> want, magnitudes;
  try {
    p = prepare_case(c);
    if (special_values && !plant_special_values(c, p)) return ran;
    want = case_outputs(p, false);
    const std::unique_ptr<CompiledKernel> ref = compile_reference(*p.node.def, p.node.params, p.in, p.out);
    with_node_context(p.node, [&] { run_compiled(*ref, p.inputs, want); });
    magnitudes = with_node_context(p.node, [&] { return case_magnitudes(p); });
    ran.insert(p.node.def->reference().name);
  } catch (const std::exception& e) {
    FAIL_CHECK("the case or its reference kernel failed: ", std::string(e.what()));
    return ran;
  }
  for (const Expect& e : c.expects) {
    bool known = false;
    for (const KernelDef& k : p.node.def->kernels) known = known || (k.name == e.kernel && &k != &p.node.def->reference());
    CHECK_MESSAGE(known, "the case expects kernel '", e.kernel, "', which is not a non-reference kernel of ", c.key());
  }
  for (const KernelDef& k : p.node.def->kernels) {
    if (&k == &p.node.def->reference()) continue;
    if (special_values && special_value_exception(c, k.name)) continue;
    const std::string kernel = k.name;
    CAPTURE(kernel);
    Expect expect{kernel, true, "", Takes::any};
    for (const Expect& e : c.expects)
      if (e.kernel == kernel) expect = e;
    std::string stage = "compile";  // then "run", then "run with output 0 over input k's buffer"
    CAPTURE(stage);
    try {
      CompileContext context;
      context.precision = c.precision;
      context.store_bfloat16 = c.store_bfloat16;
      Compiled compiled = with_node_context(p.node, [&] { return k.compile(p.node.params, {p.in, p.out, p.offered, context}); });
      if (!compiled) {
        const std::string reason = compiled.reason();
        CAPTURE(reason);
        CHECK_MESSAGE(!expect.runs, "kernel ", kernel, " declines: ", reason);
        if (!expect.runs) CHECK_MESSAGE(has_part(reason, expect.reason), "the reason lacks \"", expect.reason, "\"");
        continue;
      }
      CHECK_MESSAGE(expect.runs, "kernel ", kernel, " runs a case it is expected to decline (\"", expect.reason, "\")");
      const std::unique_ptr<CompiledKernel> kern = compiled.take();
      const KernelLayouts* l = kern->layouts();
      const Layout in0 = l && !l->in.empty() ? l->in[0] : Layout(), out0 = l && !l->out.empty() ? l->out[0] : Layout();
      const std::string layouts_taken = in0.name() + " -> " + out0.name();
      CAPTURE(layouts_taken);
      if (expect.takes == Takes::offered || expect.takes == Takes::offered_through) CHECK(in0 == p.offered.in.at(0));
      if (expect.takes == Takes::offered_through)  // the offered layout's kind, for output 0's shape
        CHECK(out0 == offered_layout(c.inputs.at(0).offer, p.out.at(0).shape));
      if (expect.takes == Takes::plain) CHECK((is_plain(in0) && is_plain(out0)));
      if (expect.takes == Takes::channel_blocked)
        CHECK((in0 == channel_blocked_layout(p.in.at(0).shape) && out0 == channel_blocked_layout(p.out.at(0).shape)));
      stage = "run";
      std::vector<Tensor> got = case_outputs(p, true);
      with_node_context(p.node, [&] { run_compiled(*kern, p.inputs, got); });
      check_outputs(p, got, want, magnitudes, l);
      const int shared = in_place_input_of(*kern, c, p, got);
      if (shared >= 0) {
        stage = "run with output 0 over input " + std::to_string(shared) + "'s buffer";  // as the plan may
        std::vector<Tensor> over = case_outputs(p, true);
        with_node_context(p.node, [&] { run_compiled(*kern, p.inputs, over, shared); });
        check_outputs(p, over, want, magnitudes, l);
      }
      ran.insert(kernel);
    } catch (const std::exception& e) {
      FAIL_CHECK("kernel ", kernel, " threw (", stage, "): ", std::string(e.what()));
    }
  }
  return ran;
}

// Checks every case, then that every kernel of every op the cases name ran at least one of them.
inline void check_kernel_cases(const std::vector<KernelCase>& cases) {
  std::map<std::string, std::set<std::string>> ran;  // op key -> kernels that ran a case
  std::map<std::string, const OpDef*> defs;
  for (const KernelCase& c : cases) {
    for (const std::string& k : check_kernel_case(c)) ran[c.key()].insert(k);
    if (builtin_ops().has(c.domain, c.op)) defs[c.key()] = &builtin_ops().find(c.domain, c.op, c.opset);
  }
  for (const auto& entry : defs)  // (not a structured binding: clang's C++17 cannot capture one in CHECK's lambda)
    for (const KernelDef& k : entry.second->kernels) {
      const std::string op = entry.first, kernel = k.name;
      CAPTURE(op);
      CAPTURE(kernel);
      CHECK_MESSAGE(ran[op].count(kernel), "no case runs kernel ", kernel, " of ", op);
    }
}

// ---- data the family tables share ----

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// values. Every kernel gives ONNX's result on them (ops/common/special_values.h).
inline Tensor special_values(bool with_nan = true) {
  Tensor x = random_tensor({3, 4, 50}, 300, -8.f, 8.f);
  const float specials[] = {0.f,  -0.f, kInf,  -kInf, with_nan ? kNaN : 0.5f, 1e-30f, -1e-30f, 1e-40f, -1e-40f, 3.f, -3.f,
                            88.f, -88.f, 100.f, -100.f};
  for (size_t i = 0; i < std::size(specials); ++i) x.data<float>()[i] = specials[i];
  return x;
}

template <class T>
inline Tensor typed_tensor(Shape shape, std::vector<T> values) {
  Tensor t(dtype_of<T>(), shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<T>()[i] = values.at(size_t(i));
  return t;
}
inline Tensor bool_tensor(Shape shape, std::vector<int> values) {
  Tensor t(DType::boolean, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<bool>()[i] = values.at(size_t(i)) != 0;
  return t;
}

// A constant 1-D float32 input (scales).
inline CaseInput floats_in(std::vector<float> v) { return given(make_tensor({int64_t(v.size())}, v)).constant(); }

// Why a case with an input stored in bfloat16 (CaseInput::stored_bfloat16) plants no special values.
constexpr const char* kStoredBfloat16FlushesSubnormals =
    "the harness stores the input with oneDNN's conversion, which flushes subnormals to zero (vcvtneps2bf16)";

// ---- the tables ----

// A case table: one function per op or group of ops, in tests/unit/kernel_cases_<family>_test.cc.
using CaseTable = std::vector<KernelCase> (*)();

// Every table KERNEL_CASES registered (at start-up): the test "every registered op has a case in the kernel
// table" (kernel_cases_test.cc) reads them all, so an op whose cases are not registered fails it.
inline std::vector<CaseTable>& case_tables() {
  static std::vector<CaseTable> tables;
  return tables;
}
struct RegisterCaseTables {
  RegisterCaseTables(std::initializer_list<CaseTable> tables) {
    case_tables().insert(case_tables().end(), tables.begin(), tables.end());
  }
};

#define CNNX_CASES_JOIN2(a, b) a##b
#define CNNX_CASES_JOIN(a, b) CNNX_CASES_JOIN2(a, b)
// KERNEL_CASES("Conv", conv_cases, ...): one test case "kernel cases: Conv" that checks every case of the
// tables, and their registration for the op-coverage test: one line does both, so a table is run if and only
// if its ops count as cased.
#define KERNEL_CASES(title, ...)                                                                              \
  static const ::cnnx::testing::RegisterCaseTables CNNX_CASES_JOIN(kernel_case_tables_, __LINE__){__VA_ARGS__}; \
  TEST_CASE("kernel cases: " title) {                                                                         \
    for (::cnnx::testing::CaseTable table : std::initializer_list<::cnnx::testing::CaseTable>{__VA_ARGS__})     \
      ::cnnx::testing::check_kernel_cases(table());                                                          \
  }

}  // namespace cnnx::testing
