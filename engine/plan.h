// A Plan is a graph made ready for one set of concrete input shapes: every value's shape known, constant
// subgraphs folded, and for every remaining node the chosen kernel (with the reasons the ones before it
// declined) compiled once. A Plan is immutable; run() keeps its state per call, so many threads may run
// one plan at once.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/cnnx.h"
#include "engine/graph.h"
#include "engine/op.h"

namespace cnnx {

const char* backend_name(Backend b);
Backend parse_backend(const std::string& name);  // throws on anything but "dnnl" / "ref"

struct PlanStep {
  int node = -1;                       // index into Graph::nodes
  std::string kernel;                  // the chosen kernel's name
  std::vector<std::string> declined;   // "dnnl: <reason>" for every kernel tried before it
  std::vector<ValueInfo> in, out;      // concrete
  std::unique_ptr<CompiledKernel> exec;
  std::unique_ptr<CompiledKernel> ref_exec;  // the reference kernel, when `exec` is another (for checks)
};

class Plan {
 public:
  // Plans `graph` for inputs with these infos (concrete shapes; integer inputs carry their data, which
  // the plan treats as constant). Throws cnnx::Error naming the node whose shapes or attributes do not fit.
  static std::shared_ptr<const Plan> build(std::shared_ptr<const Graph> graph,
                                           const std::vector<ValueInfo>& inputs, Backend backend);

  // Runs the plan. `inputs` are in graph-input order and must match the infos the plan was built for.
  // With `checks`, also runs the reference kernel beside every other kernel and appends what it found.
  std::vector<Tensor> run(const std::vector<Tensor>& inputs, std::vector<NodeCheck>* checks = nullptr) const;

  const Graph& graph() const { return *graph_; }
  const std::vector<PlanStep>& steps() const { return steps_; }
  const ValueInfo& info(int value_id) const { return infos_[size_t(value_id)]; }
  Backend backend() const { return backend_; }

 private:
  std::shared_ptr<const Graph> graph_;
  Backend backend_ = Backend::ref;
  std::vector<ValueInfo> infos_;   // per value id
  std::vector<PlanStep> steps_;    // nodes left to run, in order
  std::vector<int> last_use_;      // per value id: last step that reads it, -1 if none
};

}  // namespace cnnx
