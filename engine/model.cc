#include "engine/model.h"

#include <cstring>
#include <list>
#include <mutex>

namespace cnnx {

namespace {
constexpr size_t kMaxCachedPlans = 8;

// What identifies a plan: each input's type and shape, and the data of integer inputs (shape arguments).
std::string plan_key(const std::vector<Tensor>& inputs) {
  std::string key;
  for (const Tensor& t : inputs) {
    key += std::to_string(int(t.dtype())) + ":" + to_string(t.shape());
    if (t.dtype() != DType::f32 && t.dtype() != DType::f64)
      key.append(static_cast<const char*>(t.raw()), t.bytes());
    key += ";";
  }
  return key;
}
}  // namespace

struct Model::State {
  ModelOptions options;
  std::mutex mutex;
  std::list<std::pair<std::string, std::shared_ptr<const Plan>>> plans;  // most recent first
};

Model::Model(std::shared_ptr<const Graph> graph, const ModelOptions& options)
    : graph_(std::move(graph)), state_(std::make_shared<State>()) {
  state_->options = options;
}

const ModelOptions& Model::options() const { return state_->options; }

Model Model::load(const std::string& path, const ModelOptions& options) {
  return Model(std::make_shared<const Graph>(import_onnx_file(path, options.limits)), options);
}

Model Model::load_bytes(const void* data, size_t size, const ModelOptions& options) {
  return Model(std::make_shared<const Graph>(import_onnx_bytes(data, size, "", options.limits)), options);
}

std::vector<std::string> Model::input_names() const {
  std::vector<std::string> names;
  for (int id : graph_->inputs) names.push_back(graph_->value(id).name);
  return names;
}

std::vector<std::string> Model::output_names() const {
  std::vector<std::string> names;
  for (int id : graph_->outputs) names.push_back(graph_->value(id).name);
  return names;
}

std::shared_ptr<const Plan> Model::plan_for(const std::vector<Tensor>& inputs) const {
  const Graph& g = *graph_;
  require(inputs.size() == g.inputs.size(), "the model takes ", g.inputs.size(), " input",
          g.inputs.size() == 1 ? "" : "s", ", got ", inputs.size());
  std::vector<ValueInfo> infos;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Value& v = g.value(g.inputs[i]);
    const Tensor& t = inputs[i];
    require(t.defined(), "input '", v.name, "' is empty");
    require(t.dtype() == v.info.dtype, "input '", v.name, "' must be ", dtype_name(v.info.dtype), ", got ",
            dtype_name(t.dtype()));
    if (v.info.rank_known) {
      require(t.rank() == v.info.rank(), "input '", v.name, "' must have shape ", to_string(v.info.shape),
              ", got ", to_string(t.shape()));
      for (size_t d = 0; d < t.shape().size(); ++d)
        require(v.info.shape[d] < 0 || v.info.shape[d] == t.shape()[d], "input '", v.name,
                "' must have shape ", to_string(v.info.shape), ", got ", to_string(t.shape()));
    }
    bool is_float = t.dtype() == DType::f32 || t.dtype() == DType::f64;
    infos.push_back(is_float ? ValueInfo::of(t.dtype(), t.shape()) : ValueInfo::of(t.clone()));
  }
  std::string key = plan_key(inputs);
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    for (auto it = state_->plans.begin(); it != state_->plans.end(); ++it)
      if (it->first == key) {
        state_->plans.splice(state_->plans.begin(), state_->plans, it);
        return it->second;
      }
  }
  // Planning happens outside the lock; two threads may plan the same shapes once each, harmlessly.
  std::shared_ptr<const Plan> plan = Plan::build(graph_, infos, state_->options.backend);
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->plans.emplace_front(key, plan);
  if (state_->plans.size() > kMaxCachedPlans) state_->plans.pop_back();
  return plan;
}

std::vector<Tensor> Model::run(const std::vector<Tensor>& inputs) const {
  return plan_for(inputs)->run(inputs);
}

}  // namespace cnnx
