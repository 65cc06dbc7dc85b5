// Runs one op on tensors, the way a plan would: parse -> infer -> reference (or named) kernel -> run.
//
//   Attributes a; a.set("kernel_shape", ints({3, 3}));
//   std::vector<Tensor> y = run_op("AveragePool", a, {x});
//
// To test every kernel of an op against its reference, add a case to its family's tests/unit/kernel_cases_<family>_test.cc
// (tests/unit/kernel_cases.h runs them); compare results with within_tolerance below.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ops/builtin_ops.h"
#include "engine/compare.h"
#include "dnnl/dnnl_runtime.h"
#include "dnnl/layouts.h"
#include "dnnl/run_state.h"
#include "engine/node_eval.h"
#include "engine/op_registry.h"

// doctest 2.4.9 prints every pointer in CAPTURE and INFO as an address, C strings too (c.what, c.op of the case
// tables), and its DOCTEST_CONFIG_TREAT_CHAR_STAR_AS_STRING does not compile there: they print as text.
namespace doctest::detail {
template <>
struct filldata<const char*> {
  static void fill(std::ostream* stream, const char* in) { *stream << (in ? in : "(null)"); }
};
}  // namespace doctest::detail

namespace cnnx::testing {

inline Attribute ints(std::vector<int64_t> v) { Attribute a; a.kind = Attribute::Kind::ints; a.ints = std::move(v); return a; }
inline Attribute floats(std::vector<float> v) { Attribute a; a.kind = Attribute::Kind::floats; a.floats = std::move(v); return a; }
inline Attribute strings(std::vector<std::string> v) { Attribute a; a.kind = Attribute::Kind::strings; a.strings = std::move(v); return a; }
inline Attribute tensor_attr(Tensor t) { Attribute a; a.kind = Attribute::Kind::t; a.t = std::move(t); return a; }

// "[1,-2,3]": any int list, negatives included (to_string(Shape) shows unknown dims as "?"), for CAPTURE.
inline std::string str(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

// A float32 tensor of `shape` holding `values` (or 0, 1, 2, ... when values is empty).
inline Tensor make_tensor(Shape shape, std::vector<float> values = {}) {
  Tensor t(DType::f32, shape);
  float* p = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = values.empty() ? float(i) : values.at(size_t(i));
  return t;
}
inline Tensor make_int_tensor(Shape shape, std::vector<int64_t> values) {
  Tensor t(DType::i64, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<int64_t>()[i] = values.at(size_t(i));
  return t;
}
// A 1-D int32 tensor (LSTM's sequence_lens, ...).
inline Tensor make_int32_tensor(std::vector<int32_t> values) {
  Tensor t(DType::i32, {int64_t(values.size())});
  for (size_t i = 0; i < values.size(); ++i) t.data<int32_t>()[i] = values[i];
  return t;
}

// A node of `type` with `attrs`, `num_inputs` inputs (an undefined Tensor in `inputs` = omitted) and
// `num_outputs` outputs, at `opset`.
inline Node make_node(const std::string& type, Attributes attrs, size_t num_inputs, size_t num_outputs,
                      int opset, const std::string& domain = "") {
  Node n;
  n.name = "test_" + type;
  n.op_type = type;
  n.domain = domain;
  n.opset = opset;
  n.attrs = std::move(attrs);
  for (size_t i = 0; i < num_inputs; ++i) n.inputs.push_back(int(i));
  for (size_t i = 0; i < num_outputs; ++i) n.outputs.push_back(int(num_inputs + i));
  n.def = &builtin_ops().find(domain, type, opset);
  n.params = with_node_context(n, [&] { return n.def->parse(n); });
  return n;
}

// True for the element types a oneDNN layout holds (float32; int8 and uint8 for the int8 kernels).
inline bool layout_type(DType t) { return t == DType::f32 || t == DType::u8 || t == DType::i8; }

// A tensor of `shape` held in `layout`, in a buffer of the layout's size (as the plan allocates).
inline Tensor in_layout(const Tensor& plain, const Layout& layout, std::vector<Tensor>& storage) {
  if (is_plain(layout) || !layout_type(plain.dtype())) return plain;
  storage.emplace_back(DType::u8, Shape{int64_t(md_of(layout).get_size())});
  Tensor t = Tensor::borrow(plain.dtype(), plain.shape(), storage.back().raw());
  make_reorder(Layout(), layout, plain.shape(), plain.dtype())->run({{&plain}, {&t}, nullptr});
  return t;
}

// Runs a compiled kernel on plain tensors as the plan would: inputs reordered into the layouts the kernel
// chose, outputs reordered back to plain. With `out0_over_input` = k >= 0, output 0 is written over (a copy of)
// input k's buffer, as the plan runs a kernel whose in_place_input() is k (the caller checks that the two
// have one layout and size).
inline void run_compiled(const CompiledKernel& kernel, const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs,
                         int out0_over_input = -1) {
  const KernelLayouts* l = kernel.layouts();
  auto layout = [](const std::vector<Layout>* v, size_t i) { return v && i < v->size() ? (*v)[i] : Layout(); };
  std::vector<Tensor> storage, ins, outs;
  storage.reserve(inputs.size() + outputs.size());
  for (size_t i = 0; i < inputs.size(); ++i)
    ins.push_back(inputs[i].defined() ? in_layout(inputs[i], layout(l ? &l->in : nullptr, i), storage) : Tensor());
  if (out0_over_input >= 0) {
    Tensor& shared = ins.at(size_t(out0_over_input));
    if (shared.raw() == inputs[size_t(out0_over_input)].raw()) shared = shared.clone();  // keep the caller's input
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (i == 0 && out0_over_input >= 0)
      outs.push_back(Tensor::borrow(outputs[0].dtype(), outputs[0].shape(), ins[size_t(out0_over_input)].raw()));
    else
      outs.push_back(outputs[i].defined() ? in_layout(outputs[i], layout(l ? &l->out : nullptr, i), storage) : Tensor());
  }
  DnnlRunState run_state;  // as a plan's run has
  RunContext context{&run_state};
  KernelIO io;
  for (const Tensor& t : ins) io.in.push_back(t.defined() ? &t : nullptr);
  for (Tensor& t : outs) io.out.push_back(t.defined() ? &t : nullptr);
  io.context = &context;
  kernel.run(io);
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i].defined()) continue;
    const Layout from = layout(l ? &l->out : nullptr, i);
    if (!is_plain(from) && layout_type(outputs[i].dtype()))
      make_reorder(from, Layout(), outputs[i].shape(), outputs[i].dtype())->run({{&outs[i]}, {&outputs[i]}, &context});
    else if (outs[i].raw() != outputs[i].raw())
      std::memcpy(outputs[i].raw(), outs[i].raw(), outputs[i].bytes());
  }
}

// The kernel of the node's op named `name` ("ref", "dnnl"); throws cnnx::Error when there is none.
// Compile it with kernel.compile(n.params, {in, out, offered}); a declined Compiled says why.
inline const KernelDef& kernel_named(const Node& n, const std::string& name) {
  for (const KernelDef& k : n.def->kernels)
    if (k.name == name) return k;
  fail("op ", n.op_type, " has no kernel '", name, "'");
}

// A node of `type` parsed and inferred for `inputs` (an undefined Tensor = omitted), as a plan would.
struct InferredNode {
  Node node;
  std::vector<ValueInfo> in, out;
};
inline InferredNode infer_node(const std::string& type, const Attributes& attrs, const std::vector<Tensor>& inputs,
                               int opset, size_t num_outputs, const std::vector<bool>& constant_inputs,
                               const std::string& domain) {
  InferredNode r{make_node(type, attrs, inputs.size(), num_outputs, opset, domain), {}, {}};
  Node& n = r.node;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].defined()) { r.in.emplace_back(); n.inputs[i] = -1; continue; }
    bool is_const = i < constant_inputs.size() ? bool(constant_inputs[i]) : inputs[i].dtype() != DType::f32;
    r.in.push_back(is_const ? ValueInfo::of(inputs[i]) : ValueInfo::of(inputs[i].dtype(), inputs[i].shape()));
  }
  r.out = with_node_context(n, [&] { return n.def->infer(*n.params, r.in); });
  r.out.resize(num_outputs);
  return r;
}

// Runs the op with the kernel named `kernel` ("ref" by default). Inputs flagged in `constant_inputs` are
// presented to infer as constants (as initializers would be). Throws cnnx::Error like the engine does.
inline std::vector<Tensor> run_op(const std::string& type, const Attributes& attrs, const std::vector<Tensor>& inputs,
                                  int opset = 19, size_t num_outputs = 1, const std::string& kernel = "ref",
                                  std::vector<bool> constant_inputs = {}, const std::string& domain = "") {
  const InferredNode r = infer_node(type, attrs, inputs, opset, num_outputs, constant_inputs, domain);
  const KernelLayouts plain = plain_layouts(r.in.size());
  Compiled compiled = kernel_named(r.node, kernel).compile(r.node.params, {r.in, r.out, plain});
  require(bool(compiled), "kernel ", kernel, " declines: ", compiled.reason());
  std::vector<Tensor> results;
  for (const ValueInfo& v : r.out) results.push_back(v.dtype == DType::undefined ? Tensor() : Tensor(v.dtype, v.shape));
  with_node_context(r.node, [&] { run_compiled(*compiled.take(), inputs, results); });
  return results;
}

// Output 0's magnitudes (engine/compare.h: sum |terms| per element, for ops whose outputs are sums of
// products) for the op run on `inputs`; an undefined Tensor for ops without.
inline Tensor magnitudes_of(const std::string& type, const Attributes& attrs, const std::vector<Tensor>& inputs,
                            int opset = 19, const std::string& domain = "") {
  const InferredNode r = infer_node(type, attrs, inputs, opset, 1, {}, domain);
  std::vector<const Tensor*> in;
  for (const Tensor& t : inputs) in.push_back(t.defined() ? &t : nullptr);
  std::vector<Tensor> m =
      with_node_context(r.node, [&] { return term_magnitudes(*r.node.def, r.node.params, r.in, r.out, in); });
  return m.empty() ? Tensor() : m[0];
}

// Uniform values in [lo, hi), reproducible per seed.
inline Tensor random_tensor(Shape shape, uint32_t seed, float lo = -1.f, float hi = 1.f) {
  Tensor t(DType::f32, std::move(shape));
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = dist(gen);
  return t;
}

// Deterministic, sign-mixed, non-integer values scale * sin(freq * i + phase), so that a wrong tap or index shows.
inline Tensor wave_tensor(Shape shape, float scale, double freq = 0.7, double phase = 0.3) {
  Tensor t(DType::f32, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = scale * float(std::sin(freq * double(i) + phase));
  return t;
}

// Comparing results: every test goes through the engine's one rule (engine/compare.h: |got - want| <= abs +
// rel * |want| + terms_rel * magnitude, NaN meets NaN, an infinity the same infinity), with the tolerance the op
// declares. `magnitude` (magnitudes_of above) is for sums of products; undefined, it counts as 0 (stricter).

// "" when `got` is within `tol` of `want`, exact values computed in double (a test's own oracle: a textbook
// formula, numpy's float64 result), one per element of `got`, compared without rounding them to float first;
// otherwise the worst element.
inline std::string within(const Tensor& got, const std::vector<double>& want, Tolerance tol,
                          const Tensor& magnitude = Tensor()) {
  if (int64_t(want.size()) != got.numel())
    return "got " + std::to_string(got.numel()) + " values, want " + std::to_string(want.size());
  Tensor g(DType::f64, got.shape()), w(DType::f64, got.shape());
  for (int64_t i = 0; i < got.numel(); ++i) {
    g.data<double>()[i] = got.double_at(i);
    w.data<double>()[i] = want[size_t(i)];
  }
  const Difference d = compare(g, w, tol, magnitude.defined() ? &magnitude : nullptr);
  return d.within ? "" : d.detail;
}

// A node its op must refuse: run_op(op, attrs, in, opset, outputs) throws a cnnx::Error whose message holds
// `says`.
struct BadNode {
  const char* what;
  const char* op;
  int opset;
  Attributes attrs;
  std::vector<Tensor> in;
  const char* says;
  size_t outputs = 1;
};
inline void check_bad_nodes(const std::vector<BadNode>& cases) {
  for (const BadNode& c : cases) {
    CAPTURE(c.what);
    CAPTURE(c.op);
    CAPTURE(c.opset);
    CHECK_THROWS_WITH_AS(run_op(c.op, c.attrs, c.in, c.opset, c.outputs), doctest::Contains(c.says), Error);
  }
}

// "" when `got` is within the declared tolerance of `op` of `want`; otherwise the worst element.
inline std::string within_tolerance(const std::string& op, int opset, const Tensor& got, const Tensor& want,
                                    const std::string& domain = "", const Tensor& magnitude = Tensor()) {
  const Difference d = compare(got, want, builtin_ops().find(domain, op, opset).tolerance,
                               magnitude.defined() ? &magnitude : nullptr);
  return d.within ? "" : d.detail;
}

// The same against exact values computed in double (see within()).
inline std::string within_tolerance(const std::string& op, int opset, const Tensor& got, const std::vector<double>& want,
                                    const std::string& domain = "", const Tensor& magnitude = Tensor()) {
  return within(got, want, builtin_ops().find(domain, op, opset).tolerance, magnitude);
}

// Compiles the kernel named `name` of node `n`; throws when it declines.
inline std::unique_ptr<CompiledKernel> compile_named(const Node& n, const std::string& name, const std::vector<ValueInfo>& in,
                                                     const std::vector<ValueInfo>& out, const KernelLayouts& offered) {
  Compiled c = kernel_named(n, name).compile(n.params, {in, out, offered});
  require(bool(c), "kernel ", name, " declines: ", c.reason());
  return c.take();
}

// Why the dnnl kernel of `op` declines these inputs ("" when it runs them). `outputs` marks which outputs the
// node has (-1 = omitted); by default one.
inline std::string dnnl_declines(const std::string& op, const Attributes& attrs, const std::vector<Tensor>& inputs,
                                 int opset = 19, std::vector<bool> constant_inputs = {},
                                 const std::vector<int>& outputs = {1}) {
  Node n = make_node(op, attrs, inputs.size(), outputs.size(), opset);
  for (size_t i = 0; i < outputs.size(); ++i)
    if (outputs[i] < 0) n.outputs[i] = -1;
  n.params = with_node_context(n, [&] { return n.def->parse(n); });
  std::vector<ValueInfo> in;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const bool is_const = i < constant_inputs.size() && constant_inputs[i];
    if (!inputs[i].defined()) in.emplace_back();
    else in.push_back(is_const ? ValueInfo::of(inputs[i]) : ValueInfo::of(inputs[i].dtype(), inputs[i].shape()));
  }
  // Inputs the op itself rejects (an empty spatial dim) still reach the kernel here, with no outputs.
  std::vector<ValueInfo> out;
  try {
    out = n.def->infer(*n.params, in);
  } catch (const Error&) {
  }
  const KernelLayouts plain = plain_layouts(in.size());
  for (const KernelDef& k : n.def->kernels)
    if (k.name == "dnnl") return k.compile(n.params, {in, out, plain}).reason();
  return "no dnnl kernel";
}

}  // namespace cnnx::testing
