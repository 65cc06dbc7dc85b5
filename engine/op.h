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
//
// Reference kernels ("ref") get their outputs zero-filled before each run (the plan does it); every other
// kernel must write every byte of its outputs.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
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
// terms_rel and say how the magnitude is computed (OpSpec::terms); for the others it is 0.
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

// A kernel of an op with params P: compile(params, args) is called once per node and input shapes.
template <class P>
struct Kernel {
  std::string name;  // "ref", "dnnl", ...
  std::function<Compiled(const std::shared_ptr<const P>& params, const KernelArgs& args)> compile;
};

// The declaration of an op whose params are P (P derives from OpParams). Fields after `kernels` are optional.
template <class P>
struct OpSpec {
  const char* type;
  int since;  // first opset version of `domain` that has this op
  std::function<P(const Node& node)> parse;
  std::function<std::vector<ValueInfo>(const P& params, const std::vector<ValueInfo>& in)> infer;
  Tolerance tolerance;
  std::vector<Kernel<P>> kernels;
  const char* domain = "";  // "" for the default ONNX domain
  // For ops whose output 0 is their inputs laid end to end along one axis (Concat): that axis, normalized.
  // Where the layouts allow, the plan has the producers write straight into their part of the output's
  // buffer and skips the kernel.
  std::function<size_t(const P& params, const std::vector<ValueInfo>& in)> joins_inputs_along = {};
  // For ops whose output 0 is input 0 with its axes permuted (Transpose): output axis i is input axis
  // perm[i]. The plan asks input 0's producer for the layout in which output 0 is plain, so that the op is a
  // view where the producer can write it.
  std::function<std::vector<int64_t>(const P& params, const std::vector<ValueInfo>& in)> permutes_axes = {};
  // "" or a warning for settings where engines are known to disagree (run at load, when the inputs' shapes
  // may still be partly unknown; see Graph::warnings).
  std::function<std::string(const P& params, const std::vector<ValueInfo>& in)> caution = {};
  // Floating-point inputs whose data sets the output's shape (Resize's scales and roi). A plan needs that
  // data: a graph input feeding one is planned with its data, as integer graph inputs always are.
  std::vector<size_t> float_shape_inputs = {};
  // Ops whose kernels only copy elements (Slice, Concat, Transpose, ...): the plan runs one that copies less
  // than runtime/plan.cc's kOneThreadCopyBytes on the calling thread alone, where a copy is faster than a
  // fork-join.
  bool copies_only = false;
  // Ops whose tolerance has terms_rel: the reference kernel run on |inputs| gives each output element's
  // magnitude under the params and scale this returns; absent, under the node's own params, scale 1 (Conv:
  // conv(|X|, |W|) + |B|). Gemm takes |alpha| and |beta|; FusedConv drops its activation and scales by the
  // activation's slope. Computed only to compare (verify, `cnnx check`, tests), never in a normal run.
  std::function<TermsRun<P>(const P& params)> terms = {};
  // Ops whose work is sums of products (Conv, ConvTranspose, FusedConv, Gemm, MatMul, FusedMatMul, Einsum):
  // the floating-point operations of one run at these concrete input shapes, 2 per multiply-add (bias adds,
  // residual adds and activations are not counted). `cnnx bench` sets a model's time against the machine's
  // FMA peak with their sum (runtime/plan_cost.h).
  std::function<double(const P& params, const std::vector<ValueInfo>& in)> flops = {};
};

// ---- what the registry keeps: an OpSpec with its params type erased (made only by OpRegistry::add) ----

struct KernelDef {
  std::string name;
  std::function<Compiled(const ParamsPtr&, const KernelArgs&)> compile;
};

struct OpDef {
  std::string domain;
  std::string type;
  int since = 1;
  std::function<ParamsPtr(const Node& node)> parse;
  std::function<std::vector<ValueInfo>(const OpParams&, const std::vector<ValueInfo>& in)> infer;
  Tolerance tolerance;
  std::vector<KernelDef> kernels;
  std::function<size_t(const OpParams&, const std::vector<ValueInfo>& in)> joins_inputs_along;
  std::function<std::vector<int64_t>(const OpParams&, const std::vector<ValueInfo>& in)> permutes_axes;
  std::function<std::string(const OpParams&, const std::vector<ValueInfo>& in)> caution;
  std::vector<size_t> float_shape_inputs;
  bool copies_only = false;
  // OpSpec::terms with the params erased: (params, scale); absent for ops without one.
  std::function<std::pair<ParamsPtr, double>(const OpParams&)> terms;
  std::function<double(const OpParams&, const std::vector<ValueInfo>& in)> flops;  // OpSpec::flops, or absent

  const KernelDef& reference() const { return kernels.back(); }
  // True when `name` (Options::disabled_kernels) names kernel `k` of this op: "KERNEL" for that kernel of
  // every op, or "OP:KERNEL" for this op's alone (OP its type, or domain:type outside the default domain).
  bool names_kernel(const std::string& name, const KernelDef& k) const {
    return name == k.name || name == type + ":" + k.name ||
           (!domain.empty() && name == domain + ":" + type + ":" + k.name);
  }
};

// Params of `type`, or an internal error (a pass that gave a node another op's params).
template <class P>
const P& params_as(const OpParams& p, const std::string& type) {
  const P* typed = dynamic_cast<const P*>(&p);
  require(typed != nullptr, "internal error: op ", type, " was given params of another op");
  return *typed;
}

template <class P>
OpDef erase_params(OpSpec<P> spec) {
  static_assert(std::is_base_of_v<OpParams, P>, "an op's params type derives from OpParams");
  // Every erased function holds the one typed spec; only the casts are written here.
  const auto typed = std::make_shared<const OpSpec<P>>(std::move(spec));
  OpDef d;
  d.domain = typed->domain;
  d.type = typed->type;
  d.since = typed->since;
  d.tolerance = typed->tolerance;
  d.float_shape_inputs = typed->float_shape_inputs;
  d.copies_only = typed->copies_only;
  d.parse = [typed](const Node& node) -> ParamsPtr { return std::make_shared<const P>(typed->parse(node)); };
  d.infer = [typed](const OpParams& p, const std::vector<ValueInfo>& in) {
    return typed->infer(params_as<P>(p, typed->type), in);
  };
  for (size_t i = 0; i < typed->kernels.size(); ++i)
    d.kernels.push_back({typed->kernels[i].name, [typed, i](const ParamsPtr& p, const KernelArgs& args) {
                           params_as<P>(*p, typed->type);
                           return typed->kernels[i].compile(std::static_pointer_cast<const P>(p), args);
                         }});
  if (typed->permutes_axes)
    d.permutes_axes = [typed](const OpParams& p, const std::vector<ValueInfo>& in) {
      return typed->permutes_axes(params_as<P>(p, typed->type), in);
    };
  if (typed->joins_inputs_along)
    d.joins_inputs_along = [typed](const OpParams& p, const std::vector<ValueInfo>& in) {
      return typed->joins_inputs_along(params_as<P>(p, typed->type), in);
    };
  if (typed->terms)
    d.terms = [typed](const OpParams& p) -> std::pair<ParamsPtr, double> {
      TermsRun<P> run = typed->terms(params_as<P>(p, typed->type));
      return {std::make_shared<const P>(std::move(run.params)), run.scale};
    };
  if (typed->flops)
    d.flops = [typed](const OpParams& p, const std::vector<ValueInfo>& in) {
      return typed->flops(params_as<P>(p, typed->type), in);
    };
  if (typed->caution)
    d.caution = [typed](const OpParams& p, const std::vector<ValueInfo>& in) {
      return typed->caution(params_as<P>(p, typed->type), in);
    };
  return d;
}

// The op's reference kernel compiled for plain inputs: it never declines.
std::unique_ptr<CompiledKernel> compile_reference(const OpDef& def, const ParamsPtr& params,
                                                  const std::vector<ValueInfo>& in, const std::vector<ValueInfo>& out);

// ---- helpers for declaring ops ----

// Params for ops without attributes.
struct NoParams : OpParams {};

// A kernel that always compiles to a function run(const P&, const KernelIO&): the form of most reference
// kernels.
template <class P, class F>
Kernel<P> ref_kernel(F run) {
  struct Compiled_ : CompiledKernel {
    std::shared_ptr<const P> params;
    F fn;
    Compiled_(std::shared_ptr<const P> p, F f) : params(std::move(p)), fn(std::move(f)) {}
    void run(const KernelIO& io) const override { fn(*params, io); }
  };
  return {"ref", [run](const std::shared_ptr<const P>& p, const KernelArgs&) -> Compiled {
            return std::make_unique<Compiled_>(p, run);
          }};
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
// Reads an integer 1-D (or scalar) constant input as int64 values; nullopt-like: returns false when the
// data is not known yet (not constant at load time).
bool constant_ints(const std::vector<ValueInfo>& in, size_t i, std::vector<int64_t>& out);
// Element type of output 0 when it mirrors input 0.
ValueInfo same_as_input(const std::vector<ValueInfo>& in, size_t i = 0);

}  // namespace cnnx
