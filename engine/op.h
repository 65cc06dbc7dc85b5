// How an op is declared: once, with its params parser, shape inference, tolerance and an ordered kernel list.
//
//   parse   (node attributes, opset) -> validated Params struct. Runs once at load. Kernels never read
//           attributes; they read Params.
//   infer   (Params, input ValueInfos) -> output ValueInfos. Runs at load (dims may be unknown) and again
//           when a plan is made for concrete input shapes. An output may carry its data when it is known
//           without running (Shape, Constant).
//   kernels in order of preference; the planner takes the first whose `declines` returns "" and records the
//           reasons of those before it. "ref" is last and runs every float32 case of the op.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/graph.h"
#include "engine/layout.h"
#include "engine/tensor.h"
#include "engine/value_info.h"

namespace cnnx {

// The domain of ops that graph passes make (FusedConv, ChannelShuffle, ...); models cannot use them.
constexpr const char* kInternalDomain = "cnnx.internal";

struct OpParams {
  virtual ~OpParams() = default;
};

// How far a kernel's output may be from the exact result: |got - want| <= abs + rel * |want|.
// Each op states its own, from the arithmetic it does (see the op's header for why).
struct Tolerance {
  double abs = 0;
  double rel = 0;
};

// Tensors a kernel reads and writes in one run. Omitted optional inputs are nullptr. Outputs are allocated
// by the caller with the shapes infer gave.
struct KernelIO {
  std::vector<const Tensor*> in;
  std::vector<Tensor*> out;
};

// A kernel ready to run for one node and one set of input shapes. `run` gets tensors of exactly the shapes it
// was compiled for (Plan::run checks the graph inputs once; every other value is planned), so it does not
// re-check them. `run` may be called from many threads at once: everything mutable lives in KernelIO.
class CompiledKernel {
 public:
  virtual ~CompiledKernel() = default;
  virtual void run(const KernelIO& io) const = 0;
  // The layouts run() expects its inputs in and writes its outputs in; nullptr (the default) means plain.
  virtual const KernelLayouts* layouts() const { return nullptr; }
  // An input whose buffer run() may also take as output 0 (same layout and size), or -1. The plan gives
  // both one buffer when that input is not read after this step; run() sees io.out[0] over io.in[k].
  virtual int in_place_input() const { return -1; }
};

using ParamsPtr = std::shared_ptr<const OpParams>;

struct KernelDef {
  std::string name;  // "ref", "dnnl", ...
  // "" when this kernel runs the node; otherwise why it declines (shown by `cnnx inspect`).
  std::function<std::string(const OpParams&, const std::vector<ValueInfo>& in)> declines;
  // `offered.in`: the layout each input will arrive in (see engine/layout.h), one per input. A kernel that
  // works on blocked layouts chooses from it and reports its choice through CompiledKernel::layouts(); the
  // plan reorders inputs that arrive otherwise. Other kernels ignore it and get plain inputs.
  // `offered.out`: empty, or per output the layout its readers would like (zero: no wish). A kernel that can
  // write that layout as fast as its own choice should; the plan reorders otherwise.
  std::function<std::unique_ptr<CompiledKernel>(const ParamsPtr&, const std::vector<ValueInfo>& in,
                                                const std::vector<ValueInfo>& out, const KernelLayouts& offered)>
      compile;
};

struct OpDef {
  std::string domain;  // "" for the default ONNX domain
  std::string type;
  int since = 1;  // first opset version of `domain` that has this op
  std::function<ParamsPtr(const Node& node)> parse;
  std::function<std::vector<ValueInfo>(const OpParams&, const std::vector<ValueInfo>& in)> infer;
  Tolerance tolerance;
  std::vector<KernelDef> kernels;
  // Output 0 holds input 0's elements in the same order, only the shape differs (Reshape, Flatten,
  // Squeeze, Unsqueeze): the plan may give it input 0's buffer and skip the kernel.
  bool output_views_input = false;
  // Optional, for ops whose output 0 is their inputs laid end to end along one axis (Concat): that axis,
  // normalized. Where the layouts allow, the plan has the producers write straight into their part of the
  // output's buffer and skips the kernel.
  std::function<size_t(const OpParams&, const std::vector<ValueInfo>& in)> joins_inputs_along;
  // Optional: "" or a warning for settings where engines are known to disagree (run at load, when the
  // inputs' shapes may still be partly unknown; see Graph::warnings).
  std::function<std::string(const OpParams&, const std::vector<ValueInfo>& in)> caution;
};

// ---- helpers for declaring ops ----

// Params for ops without attributes.
struct NoParams : OpParams {};

// A reference kernel from a function run(const P&, const KernelIO&); supports every case of its op.
template <class P, class F>
KernelDef ref_kernel(F run) {
  struct Compiled : CompiledKernel {
    std::shared_ptr<const P> params;
    F fn;
    Compiled(std::shared_ptr<const P> p, F f) : params(std::move(p)), fn(std::move(f)) {}
    void run(const KernelIO& io) const override { fn(*params, io); }
  };
  KernelDef k;
  k.name = "ref";
  k.declines = [](const OpParams&, const std::vector<ValueInfo>&) { return std::string(); };
  k.compile = [run](const ParamsPtr& p, const std::vector<ValueInfo>&, const std::vector<ValueInfo>&,
                    const KernelLayouts&) {
    return std::unique_ptr<CompiledKernel>(new Compiled(std::static_pointer_cast<const P>(p), run));
  };
  return k;
}

// Parse function for typed params: parse(const Node&) -> P.
template <class P, class F>
std::function<ParamsPtr(const Node&)> parser(F parse) {
  return [parse](const Node& node) -> ParamsPtr { return std::make_shared<const P>(parse(node)); };
}

// Infer function over typed params: infer(const P&, in) -> outputs.
template <class P, class F>
std::function<std::vector<ValueInfo>(const OpParams&, const std::vector<ValueInfo>&)> inferer(F infer) {
  return [infer](const OpParams& p, const std::vector<ValueInfo>& in) {
    return infer(static_cast<const P&>(p), in);
  };
}

// A default-domain op in one call: parse(const Node&) -> P and infer(const P&, in) -> outputs.
template <class P, class Parse, class Infer>
OpDef define_op(const char* type, int since, Parse parse, Infer infer, Tolerance tolerance,
                std::vector<KernelDef> kernels) {
  OpDef d;
  d.type = type;
  d.since = since;
  d.parse = parser<P>(parse);
  d.infer = inferer<P>(infer);
  d.tolerance = tolerance;
  d.kernels = std::move(kernels);
  return d;
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
