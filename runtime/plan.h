// A Plan is a graph made ready for one set of concrete input shapes, built in four steps (Plan::build calls
// one function for each part, in runtime/plan.cc):
//   1. shapes: every value's shape inferred, constant subgraphs folded (on the plan's own copy of the graph);
//   2. passes: graph rewrites (passes/pass.h), e.g. BatchNormalization folded into Conv, activations fused;
//   3. kernels, then layouts: for every node the first kernel that does not decline (the reasons of those
//      that did are kept), compiled once and offered the layouts its inputs arrive in and its outputs'
//      readers wish; values take the layouts their kernels chose, with reorder steps inserted where a
//      reader wants another layout and at the graph outputs;
//   4. memory (runtime/memory_plan.h): every intermediate value gets an offset in one arena, values whose
//      lifetimes do not overlap sharing bytes. Views share their input's bytes, kernels working in place
//      their input's, and a Concat whose parts can be contiguous runs of its output (plain, every dim before
//      the axis 1) is joined in place: its producers write into their parts of its buffer and the Concat
//      does not run.
// A Plan is immutable; run() keeps its state per call (arenas are pooled), so many threads may run one plan
// at once.
// Shapes from data: a node whose output shapes depend on data the plan does not have (OpHints::
// shapes_from_data: NonZero on computed values) ends the planned part. The plan computes what the rest reads;
// each run then infers the node with that data (which runs its reference kernel) and runs the nodes after it
// with a plan made for the shapes it gave, made the first time a run meets them and kept (a few per plan).
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "api/cnnx.h"
#include "engine/graph.h"
#include "engine/op.h"
#include "passes/pass.h"

namespace cnnx {

class PreparedWeights;  // dnnl/prepared_weights.h

struct PlanStep {
  int node = -1;                       // index into graph().nodes; -1 for a reorder the plan inserted
  std::string kernel;                  // the chosen kernel's name; "reorder" for inserted reorders
  std::vector<std::string> declined;   // "dnnl: <reason>" for every kernel tried before it
  std::vector<int> inputs, outputs;    // value ids (a reordered copy is a value of its own)
  std::vector<ValueInfo> in, out;      // concrete
  KernelLayouts layouts;               // of in and out; plain ones are zero descriptors
  std::unique_ptr<CompiledKernel> exec;
  std::unique_ptr<CompiledKernel> ref_exec;  // the reference kernel, when `exec` is another (for checks)
  bool view = false;                   // the output already is its inputs' bytes (a Reshape's view, or a
                                       // Concat joined in place); nothing runs. Verify checks those bytes
                                       // against the kernel, which cannot see parts that overlap.
  bool one_thread = false;             // small: compiled and run on the calling thread alone
};

// Where a value lives while a plan runs.
struct ValueSlot {
  enum Kind { none, constant, input, output, arena } kind = none;
  size_t offset = 0, bytes = 0;  // within the arena; bytes exact (layout.get_size() when blocked)
  Layout layout;                 // zero: plain
};

// Bounds on what one plan may allocate and run (Options::max_tensor_bytes, Options::max_arena_bytes,
// Options::max_loop_iterations).
struct PlanLimits {
  int64_t max_tensor_bytes = kDefaultMaxTensorBytes;  // any one intermediate value
  int64_t max_arena_bytes = kDefaultMaxArenaBytes;  // all intermediates of one run together
  int64_t max_loop_iterations = kDefaultMaxLoopIterations;  // any one Loop node's iterations per run
};

// What a plan is built for beyond its graph and shapes: the team its runs use (0: the calling thread's
// OpenMP team as it is set), decided by the caller (runtime/team.h: a model's wide or narrow team), and the
// model's prepared weights to share with its other plans (null: the plan prepares its own).
struct PlanContext {
  int threads = 0;
  PreparedWeights* weights = nullptr;
  Precision precision = Precision::f32;  // bf16: the bfloat16 plan (passes/bfloat16_plan.h) after the passes
  bool native_bfloat16 = false;  // with bf16: its bf16 nodes' kernels may compute in bfloat16 (CompileContext)
};

// Shown each value a node step wrote, made plain, right after the step (views and joins included).
using StepObserver = std::function<void(const Node& node, int value, const Tensor& plain)>;

class Plan {
 public:
  Plan();
  ~Plan();
  // Plans `graph` for inputs with these infos (concrete shapes; integer inputs and those feeding a float
  // shape argument (OpHints::float_shape_inputs) carry their data, which the plan treats as constant), skipping
  // the graph passes named in `disabled_passes` and the kernels in `disabled_kernels` (Options::disabled_kernels,
  // names checked by the caller). Throws cnnx::Error naming the node whose shapes or attributes do not fit, or
  // the value that would pass `limits`.
  static std::shared_ptr<const Plan> build(std::shared_ptr<const Graph> graph, const std::vector<ValueInfo>& inputs,
                                           Backend backend, const std::vector<std::string>& disabled_passes = {},
                                           const std::vector<std::string>& disabled_kernels = {},
                                           const PlanLimits& limits = {}, const PlanContext& context = {});

  // Runs the plan. `inputs` are in graph-input order and must match the infos the plan was built for.
  // Reference kernels get their outputs zero-filled first (engine/op.h; zero_fill_for_reference in plan.cc).
  // With `checks`, also runs the reference kernel beside every other kernel and appends what it found.
  // With `step_ms`, adds each step's wall time (ms) to its entry (resized to steps().size()).
  // With `observe`, shows it every value a node step wrote (compare_precisions in api/tools_facade.h).
  std::vector<Tensor> run(const std::vector<Tensor>& inputs, std::vector<NodeCheck>* checks = nullptr,
                          std::vector<double>* step_ms = nullptr, const StepObserver* observe = nullptr) const;

  // The graph as planned: the model's graph after folding and passes, plus the values reorders write.
  const Graph& graph() const { return *graph_; }
  const std::vector<PlanStep>& steps() const { return steps_; }
  // What each graph pass changed (or that it was disabled), in the order they ran.
  const std::vector<PassReport>& pass_reports() const { return pass_reports_; }
  const ValueInfo& info(int value_id) const { return graph_->values[size_t(value_id)].info; }
  const ValueSlot& slot(int value_id) const { return slots_[size_t(value_id)]; }
  size_t arena_bytes() const { return arena_bytes_; }
  // The team every run of the plan uses: oneDNN fixes a primitive's thread count when it is created, so a
  // plan runs with the team it was built for (steps planned one-thread excepted).
  int threads() const { return threads_; }
  Backend backend() const { return backend_; }
  Precision precision() const { return precision_; }

 private:
  struct Arena;
  struct Tail;  // the nodes from one whose shapes come from data on (see the file comment)
  std::unique_ptr<Arena> acquire_arena() const;
  std::vector<Tensor> run_tail(const std::vector<Tensor>& handed, std::vector<NodeCheck>* checks) const;
  void release_arena(std::unique_ptr<Arena> arena) const;

  std::shared_ptr<Graph> graph_;
  Backend backend_ = Backend::ref;
  Precision precision_ = Precision::f32;
  std::vector<PlanStep> steps_;    // in order
  std::vector<PassReport> pass_reports_;
  std::vector<ValueSlot> slots_;   // per value id
  std::vector<int> outputs_;       // value ids holding the graph outputs (plain)
  size_t arena_bytes_ = 0;
  int threads_ = 1;
  std::vector<std::shared_ptr<void>> pins_;  // on the releasable constants its steps (and its tail) read at run time
  std::unique_ptr<Tail> tail_;
  mutable std::mutex arenas_mutex_;
  mutable std::vector<std::unique_ptr<Arena>> free_arenas_;
};

}  // namespace cnnx
