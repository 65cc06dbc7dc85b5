// How an op is declared: once, as an OpSpec<P> with its params type P, and registered with one line
// (OpRegistry::add, engine/op_registry.h):
//
//   r.add(OpSpec<ConvParams>{"Conv", 1, parse_conv, infer_conv, kConvTolerance, {conv_dnnl_kernel(), conv_ref_kernel()}});
//
//   parse   (node attributes, opset) -> validated P. Runs once at load. Kernels never read attributes; they
//           read P.
//   infer   (P, input ValueInfos) -> output ValueInfos. Runs at load (dims may be unknown) and again when a
//           plan is made for concrete input shapes. An output may carry its data when it is known without
//           running (Shape, Constant).
//   kernels Kernel<P>s in order of preference, "ref" last. The planner asks each in turn to compile for the
//           node; the first that compiles runs it, and the reasons of those that declined are kept (`cnnx
//           inspect` prints them). "ref" compiles for every float32 case of the op.
//   hints   optional (OpHints): what the planner, compare() and the cost model may ask of the op besides,
//           set one by one before it is added (spec.hints.flops = conv_flops;).
//
// The registry keeps each op as an OpDef, which the core calls with params of type OpParams: it casts them
// back to P once per call. parse, infer and the kernels are plain functions (no closures), so that an op's
// declaration compiles to a handful of small functions.
//
// Reference kernels ("ref") get their outputs zero-filled before each run (the plan does it); every other
// kernel must write every byte of its outputs.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "engine/kernel.h"
#include "engine/layout.h"
#include "engine/node.h"
#include "engine/tensor.h"
#include "engine/value_info.h"

namespace cnnx {

// The domain of ops that graph passes make (FusedConv, ChannelShuffle, ...); models cannot use them.
constexpr const char* kInternalDomain = "cnnx.internal";

struct OpParams {
  virtual ~OpParams() = default;
};

// How far a kernel's output may be from the exact result, per element:
//
//   |got - want| <= abs + rel * |want| + terms_rel * magnitude
//
// `magnitude` matters for ops whose outputs are sums of products (Conv, MatMul, ...): the sum of the absolute
// values of the terms the element adds up (sum_k |a_k * x_k| + |bias|). Float32 accumulation error scales with
// it, not with |want|, which cancellation (a bias against the dot product) can make small. Such ops set
// terms_rel and say how the magnitude is computed (OpHints::terms); for the others it is 0.
// Each op states its own, from the arithmetic it does (see the op's header for why).
struct Tolerance {
  double abs = 0;
  double rel = 0;
  double terms_rel = 0;
};

// One IEEE operation per element, a selection or a copy: correctly rounded, so any engine gets the same bits.
constexpr Tolerance kExact{0, 0};

using ParamsPtr = std::shared_ptr<const OpParams>;

// How a sum-of-products op's magnitudes (Tolerance) are computed: its reference kernel, run under `params` on
// the absolute values of the node's inputs, times `scale`.
template <class P>
struct TermsRun {
  P params;
  double scale = 1;
};

// The same with the params type erased: what OpDef::hints.terms returns.
template <>
struct TermsRun<OpParams> {
  ParamsPtr params;
  double scale = 1;
};

// A kernel of an op with params P, in one of two forms: compile(params, args), called once per node and input
// shapes, returns a CompiledKernel or declines; or (ref_kernel) run(params, io), a kernel that takes every case
// and needs nothing prepared. Plain functions, not closures: a kernel that varies by a setting is one function
// per setting.
template <class P>
struct Kernel {
  using CompileFn = Compiled (*)(const std::shared_ptr<const P>& params, const KernelArgs& args);
  using RunFn = void (*)(const P& params, const KernelIO& io);
  const char* name;  // "ref", "dnnl", ...
  CompileFn compile = nullptr;
  RunFn run = nullptr;
};

// An optional hook of an op: a function (const P&, A...) -> R of the op's params type P, kept with P erased
// so that every op's hints have one type (OpHints). Set it to a function or a lambda without captures whose
// first parameter is const P&; registering the op checks that P is the op's params type (OpRegistry::add).
// Readers call it with a node's params: def->hints.flops(*node.params, in). Empty: the op has no such hook.
template <class Sig>
class Hook;
template <class R, class... A>
class Hook<R(A...)> {
 public:
  Hook() = default;
  template <class F, class Fn = decltype(+std::declval<F>()),
            class = std::enable_if_t<std::is_pointer_v<Fn> && std::is_function_v<std::remove_pointer_t<Fn>>>>
  Hook(F f) {  // NOLINT: implicit, so that `spec.hints.flops = conv_flops;` reads as an assignment
    set(+f);
  }

  explicit operator bool() const { return fn_ != nullptr; }
  R operator()(const OpParams& params, A... args) const { return call_(fn_, params, std::forward<A>(args)...); }
  // typeid of the P it was written for; null when empty.
  const std::type_info* params_type() const { return params_type_; }

 private:
  template <class P, class Result>
  void set(Result (*fn)(const P&, A...)) {
    static_assert(std::is_base_of_v<OpParams, P>, "a hook's first parameter is the op's params, const P&");
    fn_ = reinterpret_cast<void (*)()>(fn);
    params_type_ = &typeid(P);
    call_ = &call<P, Result>;
  }
  // The typed function called with its params cast back (checked) and, for TermsRun<P>, its result erased.
  template <class P, class Result>
  static R call(void (*fn)(), const OpParams& params, A... args) {
    const P* typed = dynamic_cast<const P*>(&params);
    require(typed != nullptr, "internal error: an op's hook was given params of another op");
    Result result = reinterpret_cast<Result (*)(const P&, A...)>(fn)(*typed, std::forward<A>(args)...);
    if constexpr (std::is_same_v<Result, TermsRun<P>>)
      return TermsRun<OpParams>{std::make_shared<const P>(std::move(result.params)), result.scale};
    else
      return result;
  }

  void (*fn_)() = nullptr;
  R (*call_)(void (*)(), const OpParams&, A...) = nullptr;
  const std::type_info* params_type_ = nullptr;
};

// What an op may tell the planner, compare() and the cost model beyond parse, infer and its kernels. Every
// member is optional: absent (an empty Hook, empty, false), the op does not have the property. An OpSpec
// sets them (spec.hints.flops = conv_flops;) and the registry's OpDef keeps them as they are (readers ask
// def->hints.NAME). A new hint is one member here; OpDef's check of the hooks' params types (engine/op.cc)
// names every member and fails to compile until the new one is named there too.
struct OpHints {
  // For ops whose output 0 is their inputs laid end to end along one axis (Concat): that axis, normalized.
  // Where the layouts allow, the plan has the producers write straight into their part of the output's
  // buffer and skips the kernel.
  Hook<size_t(const std::vector<ValueInfo>& in)> joins_inputs_along;
  // For ops whose output 0 is input 0 with its axes permuted (Transpose): output axis i is input axis
  // perm[i]. The plan asks input 0's producer for the layout in which output 0 is plain, so that the op is a
  // view where the producer can write it.
  Hook<std::vector<int64_t>(const std::vector<ValueInfo>& in)> permutes_axes;
  // "" or a warning for settings where engines are known to disagree (run at load, when the inputs' shapes
  // may still be partly unknown; see Graph::warnings).
  Hook<std::string(const std::vector<ValueInfo>& in)> caution;
  // Floating-point inputs whose data sets the output's shape (Resize's scales and roi). A plan needs that
  // data: a graph input feeding one is planned with its data, as integer graph inputs always are.
  std::vector<size_t> float_shape_inputs;
  // Ops whose kernels only copy elements (Slice, Concat, Transpose, ...): the plan runs one that copies less
  // than runtime/plan.cc's kOneThreadCopyBytes on the calling thread alone, where a copy is faster than a
  // fork-join.
  bool copies_only = false;
  // Ops whose tolerance has terms_rel: the reference kernel run on |inputs| gives each output element's
  // magnitude under the params and scale this returns (a TermsRun<P>, erased to TermsRun<OpParams>); absent,
  // under the node's own params, scale 1 (Conv: conv(|X|, |W|) + |B|). Gemm takes |alpha| and |beta|;
  // FusedConv drops its activation and scales by the activation's slope. Computed only to compare (verify,
  // `cnnx check`, tests), never in a normal run.
  Hook<TermsRun<OpParams>()> terms;
  // Ops whose work is sums of products (Conv, ConvTranspose, FusedConv, Gemm, MatMul, FusedMatMul, Einsum):
  // the floating-point operations of one run at these concrete input shapes, 2 per multiply-add (bias adds,
  // residual adds and activations are not counted). `cnnx bench` sets a model's time against the machine's
  // FMA peak with their sum (runtime/plan_cost.h). Required with a tolerance's terms_rel (OpRegistry::add).
  Hook<double(const std::vector<ValueInfo>& in)> flops;
  // Ops holding subgraphs (If, Loop): their kernels need the plan's SubgraphPlanner (CompileContext), so
  // they are never folded by running them at load, even on constant inputs (their infer may fold a branch).
  bool runs_subgraphs = false;
  // Ops whose output shapes depend on their inputs' data (NonZero, Compress): infer gives them when that data is
  // known. A plan without it plans the graph up to the first such node, runs the node with the data each run
  // gives, and plans the nodes after it per shape it meets (runtime/plan.h).
  bool shapes_from_data = false;
};

// The declaration of an op whose params are P (P derives from OpParams). Fields after `kernels` are optional.
template <class P>
struct OpSpec {
  const char* type;
  int since;  // first opset version of `domain` that has this op
  P (*parse)(const Node& node);
  std::vector<ValueInfo> (*infer)(const P& params, const std::vector<ValueInfo>& in);
  Tolerance tolerance;
  std::vector<Kernel<P>> kernels;
  const char* domain = "";  // "" for the default ONNX domain
  OpHints hints = {};       // set one by one: spec.hints.flops = conv_flops; spec.hints.copies_only = true; ...
};

// ---- what the registry keeps: an OpSpec with its params type erased (made only by OpRegistry::add) ----

class OpDef;

// Kernel `index` of an op, compiled with the op's own params type (checked).
struct KernelDef {
  std::string name;
  bool has_compile = false;  // false: the spec gave neither or both of compile and run (OpRegistry::add refuses it)
  const OpDef* op = nullptr;
  size_t index = 0;
  Compiled compile(const ParamsPtr& params, const KernelArgs& args) const;
};

// Params of `type`, or an internal error (a pass that gave a node another op's params).
template <class P>
const P& params_as(const OpParams& p, const std::string& type) {
  const P* typed = dynamic_cast<const P*>(&p);
  require(typed != nullptr, "internal error: op ", type, " was given params of another op");
  return *typed;
}

// An op as the core sees it: an OpSpec<P> with P erased. Its functions are kept as plain function pointers
// with P cast away, each beside a small typed trampoline (instantiated once per params type) that casts the
// function and its params back (checked). Made only by OpRegistry::add.
class OpDef {
 public:
  template <class P>
  explicit OpDef(OpSpec<P>&& spec);
  OpDef(const OpDef&) = delete;
  OpDef& operator=(const OpDef&) = delete;

  std::string domain;
  std::string type;
  int since = 1;
  Tolerance tolerance;
  std::vector<KernelDef> kernels;
  OpHints hints;

  ParamsPtr parse(const Node& node) const { return parse_(parse_fn_, node); }
  std::vector<ValueInfo> infer(const OpParams& params, const std::vector<ValueInfo>& in) const {
    return infer_(infer_fn_, params, in, type);
  }
  Compiled compile_kernel(size_t index, const ParamsPtr& params, const KernelArgs& args) const;

  const KernelDef& reference() const { return kernels.back(); }
  // True when `name` (Options::disabled_kernels) names kernel `k` of this op: "KERNEL" for that kernel of
  // every op, or "OP:KERNEL" for this op's alone (OP its type, or domain:type outside the default domain).
  bool names_kernel(const std::string& name, const KernelDef& k) const {
    return name == k.name || name == type + ":" + k.name ||
           (!domain.empty() && name == domain + ":" + type + ":" + k.name);
  }

 private:
  using Erased = void (*)();
  struct Functions {
    Erased compile = nullptr;
    Erased run = nullptr;
  };
  using Parse = ParamsPtr (*)(Erased, const Node&);
  using Infer = std::vector<ValueInfo> (*)(Erased, const OpParams&, const std::vector<ValueInfo>&, const std::string&);
  using Compile = Compiled (*)(Functions, const ParamsPtr&, const KernelArgs&, const std::string&);
  // What the typed constructor hands the untyped one (engine/op.cc), which throws unless every hook in
  // `hints` was written for `params`, the op's params type.
  struct Erasure {
    const char* domain;
    const char* type;
    int since;
    Tolerance tolerance;
    const std::type_info* params;
    Erased parse_fn;
    Parse parse;
    Erased infer_fn;
    Infer infer;
    Compile compile;
  };
  OpDef(const Erasure& e, OpHints&& hints);
  void add_kernel(const std::string& name, Functions fns);

  template <class P>
  static ParamsPtr parse_as(Erased fn, const Node& node) {
    // Owned through OpParams (whose destructor is virtual), so that every op shares one control-block type.
    return ParamsPtr(static_cast<const OpParams*>(new P(reinterpret_cast<decltype(OpSpec<P>::parse)>(fn)(node))));
  }
  template <class P>
  static std::vector<ValueInfo> infer_as(Erased fn, const OpParams& p, const std::vector<ValueInfo>& in,
                                         const std::string& type) {
    return reinterpret_cast<decltype(OpSpec<P>::infer)>(fn)(params_as<P>(p, type), in);
  }
  // Kernel::run's form: the typed call (per P) and the kernel that holds it (one, out of line: registering an
  // op instantiates only what depends on P).
  template <class P>
  static void run_as(Erased fn, const OpParams& params, const KernelIO& io) {
    reinterpret_cast<typename Kernel<P>::RunFn>(fn)(static_cast<const P&>(params), io);
  }
  static Compiled make_run_kernel(const ParamsPtr& p, Erased fn, void (*call)(Erased, const OpParams&, const KernelIO&));
  template <class P>
  static Compiled compile_as(Functions fns, const ParamsPtr& p, const KernelArgs& args, const std::string& type);

  Erased parse_fn_;
  Parse parse_;
  Erased infer_fn_;
  Infer infer_;
  std::vector<Functions> functions_;  // per kernel
  Compile compile_;
};

inline Compiled KernelDef::compile(const ParamsPtr& params, const KernelArgs& args) const {
  return op->compile_kernel(index, params, args);
}

template <class P>
OpDef::OpDef(OpSpec<P>&& spec)
    : OpDef(Erasure{spec.domain, spec.type, spec.since, spec.tolerance, &typeid(P),
                    reinterpret_cast<Erased>(spec.parse), &parse_as<P>, reinterpret_cast<Erased>(spec.infer),
                    &infer_as<P>, &compile_as<P>},
            std::move(spec.hints)) {
  static_assert(std::is_base_of_v<OpParams, P> && !std::is_same_v<P, OpParams>,
                "an op's params type derives from OpParams (NoParams for an op without attributes)");
  for (const Kernel<P>& k : spec.kernels)
    add_kernel(k.name, {reinterpret_cast<Erased>(k.compile), reinterpret_cast<Erased>(k.run)});
}

template <class P>
Compiled OpDef::compile_as(Functions fns, const ParamsPtr& p, const KernelArgs& args, const std::string& type) {
  params_as<P>(*p, type);
  if (fns.run) return make_run_kernel(p, fns.run, &run_as<P>);
  return reinterpret_cast<typename Kernel<P>::CompileFn>(fns.compile)(std::static_pointer_cast<const P>(p), args);
}

// The op's reference kernel compiled for plain inputs: it never declines.
std::unique_ptr<CompiledKernel> compile_reference(const OpDef& def, const ParamsPtr& params,
                                                  const std::vector<ValueInfo>& in, const std::vector<ValueInfo>& out);

// ---- helpers for declaring ops ----

// Params for ops without attributes.
struct NoParams : OpParams {};

// A kernel that always compiles to a function run(const P&, const KernelIO&): the form of most reference
// kernels. P is deduced from the function: ref_kernel(conv_ref).
template <class P>
Kernel<P> ref_kernel(void (*run)(const P& params, const KernelIO& io)) {
  return {"ref", nullptr, run};
}

// Checks the count of inputs present (omitted optional inputs count as present slots but may be null).
void require_inputs(const Node& node, size_t min, size_t max);
void require_outputs(const Node& node, size_t min, size_t max);
// True when input i exists and is not omitted.
bool has_input(const Node& node, size_t i);

// Input i's info; throws when absent. Shape-reading helpers throw when rank is unknown.
const ValueInfo& input(const std::vector<ValueInfo>& in, size_t i);
bool present(const std::vector<ValueInfo>& in, size_t i);
// Throws unless input i has one of the element types given.
void require_dtype(const std::vector<ValueInfo>& in, size_t i, std::initializer_list<DType> allowed,
                   const char* what = "input");
// Throws unless every input present is float32 (ops with float32 kernels only: Conv, Gemm, ...).
void require_float32(const std::vector<ValueInfo>& in);
// Reads an integer 1-D (or scalar) constant input as int64 values; nullopt-like: returns false when the
// data is not known yet (not constant at load time).
bool constant_ints(const std::vector<ValueInfo>& in, size_t i, std::vector<int64_t>& out);
// Element type of output 0 when it mirrors input 0.
ValueInfo same_as_input(const std::vector<ValueInfo>& in, size_t i = 0);

}  // namespace cnnx
