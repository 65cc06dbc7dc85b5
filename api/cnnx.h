// cnnx public C++ API (installed as <cnnx/cnnx.h>). No protobuf or oneDNN types appear here.
//
//   cnnx::Model model = cnnx::Model::load("classifier.onnx");
//   cnnx::Tensor x(cnnx::DType::f32, {1, 3, 224, 224});         // owns its buffer
//   cnnx::Tensor y = model.run({x})[0];                          // safe to call from many threads at once
//
// Loading parses and validates the whole model; every problem is a cnnx::Error whose message names the
// node ("node 'conv1' (Conv): ...") or tensor. The first run for a set of input shapes (and data of the
// inputs that set shapes: integer ones, Resize's scales) makes a plan for them (shapes inferred, constants
// folded, kernels chosen); plans are cached, immutable and shared by all threads, while each run keeps its
// own buffers. A Model is a cheap handle: copies share the same model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/backend.h"
#include "engine/error.h"
#include "engine/limits.h"
#include "engine/precision.h"
#include "engine/tensor.h"

namespace cnnx {

constexpr int64_t kDefaultMaxLoopIterations = int64_t(1) << 16;  // Options::max_loop_iterations

struct Options {
  Backend backend = Backend::dnnl;
  // Threads per run for the dnnl backend (reference kernels use the calling thread). 0 (the default): up to
  // the cores the process may use (OpenMP's default team, capped by the CPU affinity mask and a container's
  // cgroup CPU quota, rounded up), adapting per run (runtime/team.h): a run uses the calling thread
  // alone while other runs of the process are in flight or while other processes keep every core busy,
  // and the whole team otherwise. N > 0, or OMP_NUM_THREADS in the environment, pins the team: every run
  // uses exactly that many, concurrent runs included (k runs at once use k x N), and repeated runs give the
  // same bits. A one-thread team and the full one may differ in the last bits (within each op's tolerance):
  // pin the team where identical bits matter.
  int threads = 0;
  // bf16: the plan marks convolutions, matmuls, pooling and the elementwise ops between them bfloat16 (their
  // weights and the values they store rounded to bfloat16 once, float32 accumulation); graph inputs and outputs,
  // Softmax, normalization statistics, reductions and ops without bfloat16 kernels stay float32 (`cnnx inspect`
  // says why per node). On the dnnl backend, where the CPU has AVX512_BF16 or AMX, the bf16 convolutions and
  // matrix products with constant weights run oneDNN's bf16 kernels (weights held in bfloat16); on other CPUs a
  // bf16 model runs float32 and says so (precision_report in api/tools_facade.h; one load-time warning). The
  // ref backend, or CNNX_BFLOAT16=emulate in the environment at load, runs the bfloat16 plan with each bfloat16
  // value rounded in float32 kernels: the numbers the native run gives, up to accumulation order.
  Precision precision = Precision::f32;
  bool verify = false;    // run the reference kernel beside every node and fail past its tolerance
  int64_t max_model_bytes = (int64_t(1) << 31) - 1;   // larger files are refused before parsing
  int64_t max_tensor_bytes = kDefaultMaxTensorBytes;        // any one initializer, constant or intermediate
  int64_t max_arena_bytes = kDefaultMaxArenaBytes;        // the intermediates of one run together (planned
                                                      // once per input shape, checked before allocating)
  // The iterations any one Loop node may run; past them the run is an error naming the node. ONNX allows
  // endless loops (no trip count, a condition that stays true): a hostile model's would hang its caller.
  // Detectors run one iteration per detection (hundreds); raise it for a model that loops longer.
  int64_t max_loop_iterations = kDefaultMaxLoopIterations;
  // Graph passes to skip, by name (graph_pass_names(); `cnnx inspect` lists them). For comparing results and
  // speed with and without a rewrite; an unknown name is an error at load.
  std::vector<std::string> disabled_passes;
  // Kernels to skip, as "OP:KERNEL" (one op's: "Concat:channels-last") or "KERNEL" (every op's: "dnnl"); each
  // node then runs the next kernel in its op's list that takes it (`cnnx inspect` names each node's kernel
  // and why the earlier ones declined). OP is the op as planned, after the graph passes: a Conv fused with
  // its activation is a FusedConv. A Concat joined in place runs no kernel whichever it was given. For
  // comparing a fast path with the kernel it replaces, or going around one. Reference kernels ("ref")
  // cannot be; an unknown name is an error at load.
  std::vector<std::string> disabled_kernels;
};

// The names of every graph pass, in the order they run: what Options::disabled_passes takes (all of them:
// the graph as the model file writes it, each node on its own kernel).
std::vector<std::string> graph_pass_names();  // defined in passes/pass.cc

// What one run did.
struct RunInfo {
  int threads = 0;  // the team it ran with (1: the calling thread alone; see Options::threads)
};

// A graph input or output: element type and shape (kUnknownDim for dims bound at run time, such as the
// batch).
struct TensorSpec {
  std::string name;
  DType dtype = DType::undefined;
  Shape shape;
  bool shape_known = true;
  std::vector<std::string> dim_names;  // per dim of `shape`: the model's symbolic name ("batch") or ""
};

// One node's result from a verified run: its output against the reference kernel's on the same inputs.
struct NodeCheck {
  std::string node, op_type, kernel;
  double max_abs = 0, max_rel = 0;   // the largest differences over the node's outputs
  double tol_abs = 0, tol_rel = 0;   // the op's tolerance
  double tol_terms_rel = 0;          // its part scaling each element's sum |terms| (sums of products)
  double max_ratio = 0;              // the largest difference / its element's tolerance (1: at the bound)
  bool within = true;
  std::string detail;                // the worst element, when not within
};

class Model {
 public:
  // From a file; external data is looked up (and confined) in the file's folder.
  static Model load(const std::string& path, const Options& options = {});
  // From memory; a model with external data is refused.
  static Model load_from_bytes(const void* data, size_t size, const Options& options = {});

  const std::vector<TensorSpec>& inputs() const;   // the inputs to feed, in order
  const std::vector<TensorSpec>& outputs() const;  // what run() returns, in order
  const Options& options() const;
  // The model's metadata_props value for `key`, or `fallback`.
  std::string metadata(const std::string& key, const std::string& fallback = "") const;

  // Runs the model on inputs in inputs() order. Throws cnnx::Error naming the tensor when an input's
  // element type, rank or a fixed dim does not match. Thread-safe.
  std::vector<Tensor> run(const std::vector<Tensor>& inputs) const;
  // The same, telling what the run did.
  std::vector<Tensor> run(const std::vector<Tensor>& inputs, RunInfo* info) const;
  // The same with inputs and outputs by name; every input must be given.
  std::map<std::string, Tensor> run(const std::map<std::string, Tensor>& inputs) const;
  // Runs the model and, beside every node that did not run its reference kernel, the reference kernel on
  // the same inputs; one entry per such node, in execution order. (Options::verify makes run() do this and
  // throw a cnnx::Error naming the first node past its tolerance.)
  std::vector<NodeCheck> check(const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs = nullptr) const;

 private:
  // The loaded graph and the plans stay inside the library: runtime/model_access.h reaches them for cnnx's
  // own tools (api/tools_facade.h) and the tests.
  friend class ModelAccess;
  struct State;
  explicit Model(std::shared_ptr<State> state) : state_(std::move(state)) {}
  std::shared_ptr<State> state_;
};

}  // namespace cnnx
