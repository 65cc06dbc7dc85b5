// The tools facade: what cnnx's own front ends (tools/, python/, classify/, lab/) need of the library beyond
// the public API (api/cnnx.h), handed out as plain values, so that a front end includes api/ and nothing
// else (tests/layering/check_layering.py fails on one that does). For cnnx's own front ends only: not
// installed, no promise of stability, changed with the tools. Implemented in runtime/tools_facade.cc (the
// backend names in runtime/plan.cc, the .npy files in engine/npy.cc), which reads the model's insides
// through runtime/model_access.h.
//
// What it offers, and who asks:
//   - backend names: parsing --backend / Python's backend=, and printing them;
//   - a model's description (ModelReport): the file's metadata, opsets, the graph's inputs and outputs as
//     declared, its nodes and load-time warnings (cnnx inspect, cnnx run's warnings, Python's metadata and
//     modelmeta);
//   - the team of a run, as the model decided it at load (run_team: classify decodes images on it);
//   - whether an output already is a softmax (output_is_softmax: classify never softmaxes twice);
//   - one plan seen from outside (PlanView): its steps (kernel, why earlier kernels declined, outputs and
//     their layouts), what each graph pass did, its arena, its work (FLOP, weight bytes), and runs of it with
//     per-step times (cnnx inspect, cnnx bench --profile);
//   - the prepared-weight counts of the process (cnnx bench);
//   - tensor files: .npy read and written, ONNX TensorProto .pb read (cnnx run, check).
// And for the pooling lab (lab/) alone, a narrow way to build and plan graphs: ModelSketch (a model written in
// code, completed and checked as a loaded one) and plan_apart (a plan of it on a backend and without passes of
// the lab's choosing, outside the model's cache); with them the pooling geometry, re-exported as it is
// (ops/pool/pool_geometry.h, and engine/attributes.h, the attributes a window is read from). Why: the lab
// compares the spellings of global average pooling (GlobalAveragePool, AveragePool, ReduceMean, ...) that no
// model file at hand holds, across backends and with the passes off and on, and explains AveragePool windows
// with the one derivation of them that shape inference and the kernels use; writing ONNX bytes by hand or
// copying the geometry would be a second truth.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/cnnx.h"
#include "engine/attributes.h"       // re-exported for the lab (see above)
#include "ops/pool/pool_geometry.h"  // re-exported for the lab (see above)

namespace cnnx {

class Plan;

// Backend names: backend_name and parse_backend (engine/backend.h, through api/cnnx.h).

// A value of the graph: as declared (a model's inputs and outputs) or as planned (a step's outputs).
struct ValueReport {
  std::string name;
  DType dtype = DType::undefined;
  Shape shape;               // dims may be kUnknownDim when declared so
  bool rank_known = false;   // false: nothing is known about the shape
  bool constant = false;     // its data is known before running
  std::string layout;        // in a plan: "" when plain, else the name of the blocked layout a kernel chose
};

struct NodeReport {
  std::string name, op_type;
};

// What a loaded model is: what the file says about itself and its graph as loaded (before any pass).
struct ModelReport {
  std::string producer, graph_name, domain, description, graph_description;
  int64_t model_version = 0;
  std::map<std::string, std::string> metadata;  // metadata_props
  std::map<std::string, int> opsets;            // domain ("" is ai.onnx) -> version
  std::vector<ValueReport> inputs, outputs;
  std::vector<NodeReport> nodes;                // in execution order
  std::vector<std::string> warnings;            // settings where engines are known to disagree
};
ModelReport model_report(const Model& model);

// The whole team of a run of `model`, decided at load: Options::threads when > 0, else OMP_NUM_THREADS's pin,
// else the cores the process may use (runtime/team.h). An adaptive run uses it or the calling thread alone.
int run_team(const Model& model);

// True when output number `output` is a Softmax over each batch item's values (found through the ops that pass
// values through: Identity, Dropout, Reshape, Flatten, Squeeze, Unsqueeze), as the graph was loaded.
bool output_is_softmax(const Model& model, size_t output);

// What a model's plans compute in, decided once at load from Options::precision, the backend, the CPU and
// CNNX_BFLOAT16 (api/cnnx.h, Options::precision).
struct PrecisionReport {
  Precision requested = Precision::f32;
  Precision used = Precision::f32;  // the plans' (passes/bfloat16_plan.h when bf16)
  bool emulated = false;            // bf16 computed by float32 kernels on rounded values
  std::string cpu_isa;              // oneDNN's ("avx2", "avx512_core_bf16", ...)
  bool cpu_native_bfloat16 = false; // AVX512_BF16 or AMX
  std::string why;                  // how bf16 runs, or why it does not ("" for fp32 asked)
};
PrecisionReport precision_report(const Model& model);
// A model sharing `model`'s graph and options that runs the bfloat16 plan emulated (PrecisionReport::emulated)
// whatever the CPU: what `cnnx check --precision bf16` measures the accuracy cost with.
Model bfloat16_emulated(const Model& model);

// Per graph output and per node output, how far a run of `other` is from a run of `reference` (the same graph
// in another precision) on the same inputs. Errors are max |other - reference| over the value; `rel` divides
// by max |reference| (0 when that is 0); `growth` is a node's rel minus the largest rel of the values it reads
// (how much error the node itself added).
struct ValueError {
  std::string name, node, op_type;  // node and op_type "" for a graph output's row
  std::string precision;            // the node's in `other`'s plan ("bf16", "fp32")
  double max_abs = 0, rel = 0, growth = 0;
};
struct PrecisionComparison {
  std::vector<ValueError> outputs;            // per graph output, in order
  std::vector<ValueError> nodes;              // per node output of both plans, in `other`'s execution order
  std::vector<Tensor> reference, other;       // the two runs' outputs
};
PrecisionComparison compare_precisions(const Model& reference, const Model& other, const std::vector<Tensor>& inputs);

// One step of a plan.
struct StepReport {
  bool reorder = false;          // a reorder the plan inserted: no node; `name` is the value it converts
  std::string name, op_type;     // the node's (op_type as planned: a Conv fused with its activation is a
                                 // FusedConv); op_type "" for a reorder
  std::string kernel;            // the chosen kernel's name ("reorder" for a reorder)
  std::vector<std::string> declined;  // "dnnl: <reason>" for every kernel tried before it
  std::vector<ValueReport> outputs;   // concrete, with their layouts (omitted optional outputs left out)
  bool view = false;             // nothing runs: its output already is its inputs' bytes
  bool joined_in_place = false;  // a view because its producers wrote into its buffer (a Concat)
  bool one_thread = false;       // small: compiled and run on the calling thread alone
  std::string note;              // what a graph pass made the node from ("" for the model's own nodes)
  Precision precision = Precision::f32;  // what it computes in
  std::string precision_why;     // in a bfloat16 plan, why (passes/bfloat16_plan.h)
};

// What one graph pass did to the plan's graph.
struct PassReportLine {
  std::string pass;
  std::string summary;                // "12 LayerNormalization from 96 nodes (...)", "no match", "disabled"
  std::vector<std::string> declined;  // near matches left alone, and why
};

// What one run of a plan asks of the machine: the FLOP of its sum-of-products steps (2 per multiply-add; Conv,
// Gemm, MatMul, ...) and the bytes of the constants its steps read, each once.
struct PlanWork {
  double flop = 0;
  int64_t weight_bytes = 0;
};

// One plan, seen and run from outside. Cheap to copy: copies share the plan.
class PlanView {
 public:
  explicit PlanView(std::shared_ptr<const Plan> plan);

  Backend backend() const;
  Precision precision() const;
  size_t arena_bytes() const;
  std::vector<StepReport> steps() const;        // in order
  std::vector<PassReportLine> passes() const;   // in the order they ran
  PlanWork work() const;
  // Runs the plan on inputs in graph-input order, on the team it was made for (plan_of: the model's whole
  // team; plan_apart: the calling thread's OpenMP team when it was made). With `step_ms`, adds each step's wall time (ms) to its entry (resized
  // to steps().size()).
  std::vector<Tensor> run(const std::vector<Tensor>& inputs, std::vector<double>* step_ms = nullptr) const;

 private:
  std::shared_ptr<const Plan> plan_;
};

// The plan `model` runs these inputs with, made on first use and cached as a run makes it (the plan for the
// model's whole team). Once a plan is made, the data of large constants its kernels took in their own layouts
// is released until the next plan or check restores it (dnnl/prepared_weights.h).
PlanView plan_of(const Model& model, const std::vector<Tensor>& inputs);

// What the prepared weights of every plan in the process came to: buffers made, requests served with an
// earlier buffer (another plan's, such as the one-thread twin's), requests served by the constant as it is.
struct PreparedWeightTotals {
  int64_t made = 0, shared = 0, kept = 0;
  int64_t made_bytes = 0, shared_bytes = 0;
};
PreparedWeightTotals prepared_weight_totals();

// The instruction set oneDNN's kernels run with on this CPU ("avx512_core", "avx2", ...; ONEDNN_MAX_CPU_ISA
// lowers it) and the channel block of its blocked layouts there (16 or 8): what layouts and fast paths are
// chosen for.
struct CpuReport {
  std::string isa;
  int64_t channel_block = 0;
};
CpuReport cpu_report();

// Tensor files. (read_npy and write_npy are defined in engine/npy.cc.)
Tensor read_npy(const std::string& path);
void write_npy(const std::string& path, const Tensor& t);
Tensor read_tensor_proto_file(const std::string& path);  // one serialized ONNX TensorProto (input_0.pb)

// ---- for the pooling lab (lab/) only; see the top of this file ----

// A model written in code: values by name (the first use of a name makes the value), nodes in the order given.
//   ModelSketch s(18);
//   s.input("x", {1, 3, 8, 8}).ints("axes", {2, 3}).node("ReduceMean", {"x", "axes"}, {"y"}, "mean").output("y");
//   Model model = s.build();
class ModelSketch {
 public:
  explicit ModelSketch(int opset = 13);               // the default domain's opset
  ModelSketch& opset(const std::string& domain, int version);
  ModelSketch& input(const std::string& name, Shape shape);  // a float32 graph input
  ModelSketch& ints(const std::string& name, const std::vector<int64_t>& values);  // a 1-D int64 initializer
  // A node reading `ins` and writing `outs`; an empty `name` becomes the op type and the node's index.
  ModelSketch& node(const std::string& type, const std::vector<std::string>& ins, const std::vector<std::string>& outs,
                    const std::string& name = "", Attributes attrs = {}, const std::string& domain = "");
  ModelSketch& output(const std::string& name);
  // Completes and checks the graph as loading a model does (ops resolved, params parsed, shapes inferred, the
  // load-time warnings); throws cnnx::Error as that would.
  Model build(const Options& options = {}) const;

 private:
  struct Entry;
  std::vector<std::shared_ptr<const Entry>> entries_;  // in the order given
};

// A plan of `model`'s graph for inputs of these types and shapes (their data is not read), on `backend` and
// without the graph passes named in `disabled_passes`, whatever the model's options say; made now, outside the
// model's cache, under the calling thread's OpenMP team, which its runs use too.
PlanView plan_apart(const Model& model, const std::vector<Tensor>& inputs, Backend backend,
                    const std::vector<std::string>& disabled_passes = {});

}  // namespace cnnx
