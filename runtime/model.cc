#include <list>
#include <mutex>

#include <cstdlib>

#include "dnnl/cpu_blocks.h"
#include "dnnl/prepared_weights.h"
#include "ops/builtin_ops.h"
#include "passes/pass.h"
#include "api/cnnx.h"
#include "runtime/model_access.h"
#include "runtime/onnx_import.h"
#include "runtime/plan.h"
#include "runtime/team.h"
#include <omp.h>

namespace cnnx {

namespace {
constexpr size_t kMaxCachedPlans = 8;

// What identifies a plan: each input's type and shape, and the data of those planned with their data.
std::string plan_key(const std::vector<Tensor>& inputs, const std::vector<bool>& with_data) {
  std::string key;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& t = inputs[i];
    key += std::to_string(int(t.dtype())) + ":" + to_string(t.shape());
    if (with_data[i]) key.append(static_cast<const char*>(t.raw()), t.bytes());
    key += ";";
  }
  return key;
}

// Per graph input: planned with its data, being integer (a shape argument, perhaps) or feeding a node's
// float shape argument (OpHints::float_shape_inputs: Resize's scales).
std::vector<bool> planned_with_data(const Graph& g) {
  std::vector<bool> with_data;
  for (int id : g.inputs) {
    const DType t = g.value(id).info.dtype;
    bool shape_argument = !is_floating(t);  // float16 and bfloat16 are data too
    for (const Node& node : g.nodes)
      for (size_t k : node.def->hints.float_shape_inputs)
        shape_argument = shape_argument || (k < node.inputs.size() && node.inputs[k] == id);
    with_data.push_back(shape_argument);
  }
  return with_data;
}

std::vector<TensorSpec> specs(const Graph& g, const std::vector<int>& ids) {
  std::vector<TensorSpec> out;
  for (int id : ids) {
    const Value& v = g.value(id);
    std::vector<std::string> dim_names(v.info.shape.size());
    auto declared = g.dim_params.find(id);
    if (declared != g.dim_params.end() && declared->second.size() == dim_names.size()) dim_names = declared->second;
    out.push_back({v.name, v.info.dtype, v.info.shape, v.info.rank_known, dim_names});
  }
  return out;
}
// What the plans compute in (api/tools_facade.h, PrecisionReport), decided once at load. `emulate`: run the
// bfloat16 plan on float32 kernels whatever the CPU (bfloat16_emulated).
PrecisionReport choose_precision(const Options& o, bool emulate) {
  PrecisionReport r;
  r.requested = o.precision;
  r.cpu_isa = dnnl_cpu_isa();
  r.cpu_native_bfloat16 = dnnl_cpu_has_native_bfloat16();
  if (o.precision == Precision::f32) return r;
  const char* env = std::getenv("CNNX_BFLOAT16");
  const std::string setting = env ? env : "";
  if (!setting.empty() && setting != "emulate")
    fail("CNNX_BFLOAT16='", setting, "' is not a setting (expected emulate, or unset)");
  const char* how = "each bfloat16 value and weight rounded once, float32 arithmetic";
  if (emulate || setting == "emulate" || o.backend == Backend::ref) {
    r.used = Precision::bf16;
    r.emulated = true;
    r.why = std::string("bfloat16 emulated (") + how +
            (o.backend == Backend::ref ? ", the reference kernels' bfloat16)" : ")");
    return r;
  }
  if (r.cpu_native_bfloat16) {
    r.used = Precision::bf16;
    r.why = "native bfloat16 (CPU ISA " + r.cpu_isa +
            "): oneDNN's bf16 convolutions and matrix products, float32 accumulation; the values between them "
            "rounded to bfloat16";
    return r;
  }
  r.why = "this CPU has no native bfloat16 (no AVX512_BF16 or AMX; CPU ISA " + r.cpu_isa +
          "): --precision bf16 runs float32 (CNNX_BFLOAT16=emulate computes bfloat16's roundings, slower)";
  return r;
}
}  // namespace

struct Model::State {
  // The plans for one set of inputs: `wide` for the whole team, `narrow` for the calling thread alone
  // (runtime/team.h), made when a run first goes narrow. oneDNN fixes a primitive's thread count when it is
  // created, so each team needs primitives of its own.
  struct Plans {
    std::shared_ptr<const Plan> wide, narrow;
  };

  Options options;
  std::shared_ptr<const Graph> graph;
  PrecisionReport precision;
  std::vector<TensorSpec> inputs, outputs;
  std::vector<bool> inputs_with_data;  // per input: planned with its data (planned_with_data)
  bool adaptive = false;               // the team adapts per run (runtime/team.h); false when pinned
  int wide_team = 1;                   // threads of a wide run (the plans' and the run's)
  // The weights the plans' kernels prepared, shared between the plans, and the mutex held while a plan is
  // built or checked: planning reads constants whose bytes a plan built meanwhile might release
  // (dnnl/prepared_weights.h), so the model plans one plan at a time and restores them first. Shared with the
  // models made from it that share its graph (ModelAccess::emulating_bfloat16), whose plans read the same
  // constants.
  struct Constants {
    PreparedWeights prepared;
    std::mutex mutex;
  };
  std::shared_ptr<Constants> constants = std::make_shared<Constants>();
  PreparedWeights& prepared = constants->prepared;
  std::mutex& constants_mutex = constants->mutex;
  std::mutex mutex;
  std::list<std::pair<std::string, Plans>> plans;  // most recent first

  State(std::shared_ptr<const Graph> g, const Options& o, bool emulate_bfloat16 = false,
        std::shared_ptr<Constants> shared = nullptr)
      : options(o), graph(std::move(g)), precision(choose_precision(o, emulate_bfloat16)),
        constants(shared ? std::move(shared) : std::make_shared<Constants>()) {
    inputs = specs(*graph, graph->inputs);
    outputs = specs(*graph, graph->outputs);
    inputs_with_data = planned_with_data(*graph);
    wide_team = options.threads > 0 ? options.threads : team_pinned(options.threads) ? omp_get_max_threads() : default_team();
    adaptive = options.backend == Backend::dnnl && !team_pinned(options.threads) && wide_team > 1;
  }

  std::shared_ptr<const Plan> plan(const std::vector<Tensor>& inputs, bool wide);
};

namespace {
// Checks the options a load can check, and gives the import its limits.
ImportLimits limits_of(const Options& o) {
  require(o.threads >= 0, "threads must be >= 0, got ", o.threads);
  require(o.max_loop_iterations >= 0, "max_loop_iterations must be >= 0, got ", o.max_loop_iterations);
  check_pass_names(o.disabled_passes);
  builtin_ops().check_disabled_kernels(o.disabled_kernels);
  ImportLimits limits;
  limits.max_model_bytes = o.max_model_bytes;
  limits.max_tensor_bytes = o.max_tensor_bytes;
  return limits;
}
}  // namespace

Model Model::load(const std::string& path, const Options& options) {
  return Model(std::make_shared<State>(std::make_shared<const Graph>(import_onnx_file(path, limits_of(options))), options));
}

Model Model::load_from_bytes(const void* data, size_t size, const Options& options) {
  return Model(std::make_shared<State>(std::make_shared<const Graph>(import_onnx_bytes(data, size, "", limits_of(options))), options));
}

const std::vector<TensorSpec>& Model::inputs() const { return state_->inputs; }
const std::vector<TensorSpec>& Model::outputs() const { return state_->outputs; }
const Options& Model::options() const { return state_->options; }

std::string Model::metadata(const std::string& key, const std::string& fallback) const {
  auto it = state_->graph->metadata.find(key);
  return it == state_->graph->metadata.end() ? fallback : it->second;
}

std::shared_ptr<const Plan> Model::State::plan(const std::vector<Tensor>& inputs, bool wide) {
  const std::vector<TensorSpec>& specs = this->inputs;
  require(inputs.size() == specs.size(), "the model takes ", specs.size(), " input", specs.size() == 1 ? "" : "s",
          ", got ", inputs.size());
  std::vector<ValueInfo> infos;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorSpec& s = specs[i];
    const Tensor& t = inputs[i];
    require(t.defined(), "input '", s.name, "' is empty");
    if (t.dtype() != s.dtype) fail("input '", s.name, "' must be ", dtype_name(s.dtype), ", got ", dtype_name(t.dtype()));
    if (s.shape_known) {
      bool fits = t.rank() == int64_t(s.shape.size());
      for (size_t d = 0; fits && d < s.shape.size(); ++d) fits = s.shape[d] < 0 || s.shape[d] == t.shape()[d];
      if (!fits) fail("input '", s.name, "' must have shape ", to_string(s.shape), ", got ", to_string(t.shape()));
    }
    infos.push_back(inputs_with_data[i] ? ValueInfo::of(t.clone()) : ValueInfo::of(t.dtype(), t.shape()));
  }
  std::string key = plan_key(inputs, inputs_with_data);
  auto member = wide ? &Plans::wide : &Plans::narrow;
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (auto it = plans.begin(); it != plans.end(); ++it)
      if (it->first == key) {
        plans.splice(plans.begin(), plans, it);
        if (it->second.*member) return it->second.*member;
        break;
      }
  }
  // Planning happens outside the plans' lock, one plan at a time; two threads may plan the same shapes once
  // each, harmlessly. It runs under the team that will run it: oneDNN fixes a primitive's thread count when
  // it is created.
  std::unique_lock<std::mutex> planning(constants_mutex);
  prepared.restore();
  std::shared_ptr<const Plan> plan =
      Plan::build(graph, infos, options.backend, options.disabled_passes, options.disabled_kernels,
                  {options.max_tensor_bytes, options.max_arena_bytes, options.max_loop_iterations}, {wide ? wide_team : 1, &prepared, precision.used, !precision.emulated});
  planning.unlock();
  std::lock_guard<std::mutex> lock(mutex);
  auto it = plans.begin();
  while (it != plans.end() && it->first != key) ++it;
  if (it == plans.end()) {
    plans.emplace_front(key, Plans{});
    if (plans.size() > kMaxCachedPlans) plans.pop_back();
    it = plans.begin();
  }
  if (!(it->second.*member)) it->second.*member = plan;
  return it->second.*member;
}

const Graph& ModelAccess::graph(const Model& model) { return *model.state_->graph; }

std::shared_ptr<const Plan> ModelAccess::plan(const Model& model, const std::vector<Tensor>& inputs) {
  return model.state_->plan(inputs, true);
}

int ModelAccess::team(const Model& model) { return model.state_->wide_team; }

const PrecisionReport& ModelAccess::precision(const Model& model) { return model.state_->precision; }

Model ModelAccess::emulating_bfloat16(const Model& model) {
  Options o = model.state_->options;
  o.precision = Precision::bf16;
  return Model(std::make_shared<Model::State>(model.state_->graph, o, true, model.state_->constants));
}

Model ModelAccess::from_graph(Graph graph, const Options& options) {
  limits_of(options);
  return Model(std::make_shared<Model::State>(std::make_shared<const Graph>(std::move(graph)), options));
}



std::vector<Tensor> Model::run(const std::vector<Tensor>& inputs) const { return run(inputs, nullptr); }

std::vector<Tensor> Model::run(const std::vector<Tensor>& inputs, RunInfo* info) const {
  if (!state_->options.verify) {
    TeamRun team(state_->adaptive, state_->wide_team);
    const std::shared_ptr<const Plan> plan = state_->plan(inputs, team.wide());
    if (info) info->threads = plan->threads();
    return plan->run(inputs);
  }
  if (info) info->threads = state_->wide_team;
  std::vector<Tensor> outputs;
  for (const NodeCheck& c : check(inputs, &outputs))
    require(c.within, "verify: node '", c.node, "' (", c.op_type, ") kernel ", c.kernel,
            " differs from the reference kernel beyond the op's tolerance: ", c.detail);
  return outputs;
}

std::vector<NodeCheck> Model::check(const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs) const {
  std::vector<NodeCheck> checks;
  std::shared_ptr<const Plan> plan = state_->plan(inputs, true);
  // The reference kernels beside the plan's read every constant: none released while they run.
  std::lock_guard<std::mutex> no_release(state_->constants_mutex);
  state_->prepared.restore();
  std::vector<Tensor> out = plan->run(inputs, &checks);
  if (outputs) *outputs = std::move(out);
  return checks;
}

std::map<std::string, Tensor> Model::run(const std::map<std::string, Tensor>& named) const {
  std::vector<Tensor> inputs;
  for (const TensorSpec& s : state_->inputs) {
    auto it = named.find(s.name);
    require(it != named.end(), "input '", s.name, "' is not given");
    inputs.push_back(it->second);
  }
  for (const auto& [name, t] : named) {
    bool known = false;
    for (const TensorSpec& s : state_->inputs) known = known || s.name == name;
    require(known, "the model has no input named '", name, "'");
  }
  std::vector<Tensor> outputs = run(inputs);
  std::map<std::string, Tensor> out;
  for (size_t i = 0; i < outputs.size(); ++i) out[state_->outputs[i].name] = outputs[i];
  return out;
}

}  // namespace cnnx
