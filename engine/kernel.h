// What a kernel is: compiled once for one node and one set of concrete input shapes (KernelArgs), then run
// any number of times on tensors of those shapes (KernelIO). Declared per op in engine/op.h (Kernel<P>).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/layout.h"
#include "engine/precision.h"
#include "engine/tensor.h"
#include "engine/value_info.h"

namespace cnnx {

class HotBufferPacking;     // engine/hot_buffer.h
class PreparedWeights;      // dnnl/prepared_weights.h
class PreparedWeightBatch;  // dnnl/prepared_weights.h
class DnnlRunState;         // dnnl/run_state.h
class SubgraphPlanner;      // engine/subgraph.h

// What a kernel may use while it compiles, besides its node's infos (KernelArgs::context). The planner makes
// one per step; kernels keep none of it. Null members mean "none": each kernel then prepares its own weights,
// at once, in ordinary allocations (how tests and one-off compiles run).
struct CompileContext {
  int threads = 1;                      // the team its runs get (oneDNN picks implementations for it)
  // bf16: the node is bf16 in a native bfloat16 plan, and its kernel may compute in bfloat16 on values rounded as
  // passes/bfloat16_plan.h says; f32 otherwise, emulated plans included. In a native bfloat16 plan, values arrive
  // in bfloat16 layouts where reads_bfloat16_storage says so (LayerNormalization's too, a float32 node), in
  // float32 ones otherwise.
  Precision precision = Precision::f32;
  HotBufferPacking* packing = nullptr;  // small buffers it keeps share huge pages with the plan's others
  PreparedWeights* weights = nullptr;   // weights prepared by the model's other plans, to share
  PreparedWeightBatch* batch = nullptr; // reorders of constant weights, put off and run together by the plan
  const SubgraphPlanner* subgraphs = nullptr;  // plans the subgraphs of If and Loop; they decline without it
  // Native bfloat16 plans only (passes/bfloat16_plan.h output_read_rounded): output 0 is read only through its
  // rounding to bfloat16, so the kernel may store it in bfloat16 (a bfloat16 layout, dnnl/layouts.h), rounding
  // to nearest even; the rounding step then views it.
  bool store_bfloat16 = false;
};

// What a kernel may use while it runs, besides its tensors (KernelIO::context): the state of one run of a
// plan, used by that run alone. Null members mean "none": a oneDNN kernel then makes its stream and
// scratchpad for that run (tests, one-off runs).
struct RunContext {
  DnnlRunState* dnnl = nullptr;  // oneDNN's stream, scratchpad and kept memory objects (dnnl/run_state.h)
};

// Tensors a kernel reads and writes in one run, and the run's context. Omitted optional inputs are nullptr.
// Outputs are allocated by the caller with the shapes infer gave. A context of nullptr is an empty one.
struct KernelIO {
  std::vector<const Tensor*> in;
  std::vector<Tensor*> out;
  RunContext* context = nullptr;

  // Input i, or nullptr when the node omits it (optional inputs past the last one given).
  const Tensor* optional_in(size_t i) const { return i < in.size() ? in[i] : nullptr; }
};

// A kernel ready to run for one node and one set of input shapes. `run` gets tensors of exactly the shapes it
// was compiled for (Plan::run checks the graph inputs once; every other value is planned), so it does not
// re-check them. `run` may be called from many threads at once: everything mutable lives in KernelIO (its
// tensors and its run's context).
class CompiledKernel {
 public:
  virtual ~CompiledKernel() = default;
  virtual void run(const KernelIO& io) const = 0;
  // The layouts run() expects its inputs in and writes its outputs in; nullptr (the default) means plain.
  virtual const KernelLayouts* layouts() const { return nullptr; }
  // An input whose buffer run() may also take as output 0 (same layout and size), or -1. The plan gives
  // both one buffer when that input is not read after this step; run() sees io.out[0] over io.in[k].
  virtual int in_place_input() const { return -1; }
  // True when output 0 is input 0's bytes as they are, only read through other layouts (a Transpose whose
  // output layout is its input's, permuted): the plan may give both one buffer and skip run(). run() still
  // copies when it is called (an input the arena does not hold).
  virtual bool views_input() const { return false; }
  // False for an input run() never reads: a constant the kernel copied at compile time (weights prepared in
  // its primitive's layout). The plan may then release that constant's bytes (engine/releasable_pages.h).
  virtual bool reads_input_at_run(size_t /*input*/) const { return true; }
};

inline const CompileContext kNoCompileContext{};

// What a kernel is asked to run: the node's concrete input and output infos, and the layouts on offer.
// `offered.in`: the layout each input will arrive in (engine/layout.h), one per input. A kernel that works
// on blocked layouts chooses from it and reports its choice through CompiledKernel::layouts(); the plan
// reorders inputs that arrive otherwise. Other kernels ignore it and get plain inputs.
// `offered.out`: empty, or per output the layout its readers would like (plain: no wish). A kernel that can
// write that layout as fast as its own choice should; the plan reorders otherwise.
// `context`: what the kernel may use while it compiles (the default: nothing shared).
struct KernelArgs {
  const std::vector<ValueInfo>& in;
  const std::vector<ValueInfo>& out;
  const KernelLayouts& offered;
  const CompileContext& context = kNoCompileContext;
};

// A kernel's one answer for a node: compiled and ready to run, or the reason it declines.
class Compiled {
 public:
  template <class K>
  Compiled(std::unique_ptr<K> kernel) : kernel_(std::move(kernel)) {}  // NOLINT: a kernel converts
  static Compiled decline(std::string reason) {
    Compiled c;
    c.reason_ = std::move(reason);
    return c;
  }
  explicit operator bool() const { return kernel_ != nullptr; }
  const std::string& reason() const { return reason_; }  // "" when compiled
  std::unique_ptr<CompiledKernel> take() { return std::move(kernel_); }

 private:
  Compiled() = default;
  std::unique_ptr<CompiledKernel> kernel_;
  std::string reason_;
};

}  // namespace cnnx
