// The tools facade (api/tools_facade.h): the graph, plans and counters of the layers below, turned into the
// plain reports cnnx's own front ends read.
#include "api/tools_facade.h"

#include <algorithm>
#include <iterator>

#include "dnnl/cpu_blocks.h"
#include "dnnl/prepared_weights.h"
#include "engine/graph_builder.h"
#include "ops/builtin_ops.h"
#include "ops/softmax/softmax.h"
#include "runtime/model_access.h"
#include "runtime/onnx_import.h"
#include "runtime/plan.h"
#include "runtime/plan_cost.h"

namespace cnnx {

namespace {

ValueReport value_report(const std::string& name, const ValueInfo& info) {
  return {name, info.dtype, info.shape, info.rank_known, info.constant != nullptr, ""};
}

// Values per batch item (the product of the dims past the first), or -1 when one is unknown.
int64_t values_per_item(const ValueInfo& v) {
  if (!v.rank_known || v.rank() < 1) return -1;
  int64_t n = 1;
  for (size_t d = 1; d < v.shape.size(); ++d) {
    if (v.shape[d] < 0) return -1;
    n *= v.shape[d];
  }
  return n;
}

// Nodes whose first output is their first input's values in the same order.
bool passes_values_through(const Node& n, int output) {
  static const char* const ops[] = {"Identity", "Dropout", "Reshape", "Flatten", "Squeeze", "Unsqueeze"};
  return n.domain.empty() && !n.inputs.empty() && n.inputs[0] >= 0 && !n.outputs.empty() && n.outputs[0] == output &&
         std::any_of(std::begin(ops), std::end(ops), [&](const char* op) { return n.op_type == op; });
}

}  // namespace

ModelReport model_report(const Model& model) {
  const Graph& g = ModelAccess::graph(model);
  ModelReport r;
  r.producer = g.producer;
  r.graph_name = g.name;
  r.domain = g.domain;
  r.description = g.description;
  r.graph_description = g.graph_description;
  r.model_version = g.model_version;
  r.metadata = g.metadata;
  r.opsets = g.opsets;
  for (int id : g.inputs) r.inputs.push_back(value_report(g.value(id).name, g.value(id).info));
  for (int id : g.outputs) r.outputs.push_back(value_report(g.value(id).name, g.value(id).info));
  for (const Node& n : g.nodes) r.nodes.push_back({n.name, n.op_type});
  r.warnings = g.warnings;
  const PrecisionReport& precision = ModelAccess::precision(model);
  if (precision.used != precision.requested) r.warnings.push_back(precision.why);
  return r;
}

PrecisionReport precision_report(const Model& model) { return ModelAccess::precision(model); }

Model bfloat16_emulated(const Model& model) { return ModelAccess::emulating_bfloat16(model); }

int run_team(const Model& model) { return ModelAccess::team(model); }

bool output_is_softmax(const Model& model, size_t output) {
  const Graph& g = ModelAccess::graph(model);
  int id = g.outputs.at(output);
  const int64_t per_item = values_per_item(g.value(id).info);
  for (;;) {
    const Value& v = g.value(id);
    if (v.producer < 0 || per_item < 0) return false;
    const Node& n = g.nodes[size_t(v.producer)];
    if (passes_values_through(n, id)) {
      id = n.inputs[0];
      continue;
    }
    if (n.op_type != "Softmax" || !n.domain.empty()) return false;
    const auto& p = params_as<SoftmaxParams>(*n.params, n.op_type);
    const ValueInfo& x = g.value(n.inputs[0]).info;
    if (values_per_item(x) != per_item || x.rank() < 2) return false;
    const int64_t axis = p.axis < 0 ? p.axis + x.rank() : p.axis;
    if (axis < 1) return false;  // normalized across the batch
    for (int64_t d = 1; d < x.rank(); ++d) {
      const bool normalized = p.coerce_2d ? d >= axis : d == axis;
      if (!normalized && x.shape[size_t(d)] != 1) return false;
    }
    return true;
  }
}

PlanView::PlanView(std::shared_ptr<const Plan> plan) : plan_(std::move(plan)) {}

Backend PlanView::backend() const { return plan_->backend(); }
Precision PlanView::precision() const { return plan_->precision(); }
size_t PlanView::arena_bytes() const { return plan_->arena_bytes(); }

std::vector<StepReport> PlanView::steps() const {
  const Graph& g = plan_->graph();
  std::vector<StepReport> out;
  for (const PlanStep& step : plan_->steps()) {
    StepReport r;
    r.reorder = step.node < 0;
    r.kernel = step.kernel;
    r.declined = step.declined;
    r.view = step.view;
    r.one_thread = step.one_thread;
    if (r.reorder) {
      r.name = g.value(step.inputs[0]).name;
    } else {
      const Node& node = g.nodes[size_t(step.node)];
      r.name = node.name;
      r.op_type = node.op_type;
      r.note = node.note;
      r.precision = node.precision;
      r.precision_why = node.precision_why;
      r.joined_in_place = step.view && node.def->hints.joins_inputs_along;
    }
    for (int id : step.outputs) {
      if (id < 0) continue;
      ValueReport v = value_report(g.value(id).name, plan_->info(id));
      const ValueSlot& slot = plan_->slot(id);
      if (!is_plain(slot.layout)) v.layout = slot.layout.name();
      r.outputs.push_back(std::move(v));
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<PassReportLine> PlanView::passes() const {
  std::vector<PassReportLine> out;
  for (const PassReport& r : plan_->pass_reports()) out.push_back({r.pass, r.summary(), r.declined});
  return out;
}

PlanWork PlanView::work() const {
  const PlanCost cost = plan_cost(*plan_);
  return {cost.flop, cost.weight_bytes};
}

std::vector<Tensor> PlanView::run(const std::vector<Tensor>& inputs, std::vector<double>* step_ms) const {
  return plan_->run(inputs, nullptr, step_ms);
}

PlanView plan_of(const Model& model, const std::vector<Tensor>& inputs) {
  return PlanView(ModelAccess::plan(model, inputs));
}

PreparedWeightTotals prepared_weight_totals() {
  const PreparedWeightCounts c = prepared_weight_counts();
  return {c.made, c.shared, c.kept, c.made_bytes, c.shared_bytes};
}

CpuReport cpu_report() { return {dnnl_cpu_isa(), cpu_channel_block()}; }

Tensor read_tensor_proto_file(const std::string& path) { return import_tensor_file(path); }

// A ModelSketch records what it is given and replays it into a GraphBuilder (engine/graph_builder.h) when
// built, so that values get their ids in the order the sketch named them.
struct ModelSketch::Entry {
  enum Kind { opset, input, ints, node, output };
  explicit Entry(Kind k) : kind(k) {}
  Kind kind;
  std::string name, type, domain;
  Shape shape;
  std::vector<int64_t> values;
  std::vector<std::string> ins, outs;
  Attributes attrs;
  int version = 0;
};

ModelSketch::ModelSketch(int opset) { this->opset("", opset); }

ModelSketch& ModelSketch::opset(const std::string& domain, int version) {
  Entry e(Entry::opset);
  e.domain = domain;
  e.version = version;
  entries_.push_back(std::make_shared<const Entry>(std::move(e)));
  return *this;
}

ModelSketch& ModelSketch::input(const std::string& name, Shape shape) {
  Entry e(Entry::input);
  e.name = name;
  e.shape = std::move(shape);
  entries_.push_back(std::make_shared<const Entry>(std::move(e)));
  return *this;
}

ModelSketch& ModelSketch::ints(const std::string& name, const std::vector<int64_t>& values) {
  Entry e(Entry::ints);
  e.name = name;
  e.values = values;
  entries_.push_back(std::make_shared<const Entry>(std::move(e)));
  return *this;
}

ModelSketch& ModelSketch::node(const std::string& type, const std::vector<std::string>& ins,
                               const std::vector<std::string>& outs, const std::string& name, Attributes attrs,
                               const std::string& domain) {
  Entry e(Entry::node);
  e.type = type;
  e.ins = ins;
  e.outs = outs;
  e.name = name;
  e.attrs = std::move(attrs);
  e.domain = domain;
  entries_.push_back(std::make_shared<const Entry>(std::move(e)));
  return *this;
}

ModelSketch& ModelSketch::output(const std::string& name) {
  Entry e(Entry::output);
  e.name = name;
  entries_.push_back(std::make_shared<const Entry>(std::move(e)));
  return *this;
}

Model ModelSketch::build(const Options& options) const {
  GraphBuilder b;
  b.g.opsets.clear();
  for (const auto& e : entries_) {
    switch (e->kind) {
      case Entry::opset: b.g.opsets[e->domain] = e->version; break;
      case Entry::input: b.input(e->name, e->shape); break;
      case Entry::ints: b.ints(e->name, e->values); break;
      case Entry::node: b.node(e->type, e->ins, e->outs, e->name, e->attrs, e->domain); break;
      case Entry::output: b.output(e->name); break;
    }
  }
  build_graph(b.g, builtin_ops(), options.max_tensor_bytes);
  return ModelAccess::from_graph(std::move(b.g), options);
}

PlanView plan_apart(const Model& model, const std::vector<Tensor>& inputs, Backend backend,
                    const std::vector<std::string>& disabled_passes) {
  std::vector<ValueInfo> infos;
  for (const Tensor& t : inputs) infos.push_back(ValueInfo::of(t.dtype(), t.shape()));
  const Graph& g = ModelAccess::graph(model);
  return PlanView(Plan::build(std::make_shared<const Graph>(g), infos, backend, disabled_passes));
}

}  // namespace cnnx
