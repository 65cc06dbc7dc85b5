// cnnx inspect MODEL: inputs, outputs, opsets, op histogram, load-time warnings and the plan: per step the
// kernel chosen (with the reasons the others declined), output shapes and layouts, fusions and reorders,
// and the arena size.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>

#include "engine/op.h"
#include "passes/pass.h"
#include "tools/commands.h"

namespace cnnx::tools {

namespace {

struct InspectOptions {
  std::string model;
  std::string backend = "dnnl";
  int64_t batch = 1;
  std::vector<std::string> shapes;  // NAME=D0,D1,...
  std::vector<std::string> disabled_passes;
  std::vector<std::string> disabled_kernels;
};

std::string describe(const ValueInfo& v) {
  std::string s = dtype_name(v.dtype);
  s += v.rank_known ? to_string(v.shape) : std::string("[?]");
  if (v.constant) s += " const";
  return s;
}

std::string layout_of_value(const Plan& plan, int id) {
  const ValueSlot& slot = plan.slot(id);
  return is_plain(slot.layout) ? "" : " " + slot.layout.name();
}

// Why nothing runs for a step, if it does not: a view, or a Concat whose producers wrote into its buffer.
std::string view_note(const Graph& g, const PlanStep& step) {
  if (!step.view) return "";
  return g.nodes[size_t(step.node)].def->hints.joins_inputs_along ? " (joined in place: inputs written into it)"
                                                            : " (view: no copy)";
}

// The planned graph: one line per step (kernel, output shapes and layouts, what a pass made it from, why
// faster kernels declined), then the arena.
void print_plan(const Plan& plan) {
  const Graph& g = plan.graph();
  size_t reorders = 0;
  std::cout << "plan (" << plan.steps().size() << " steps, backend " << backend_name(plan.backend()) << "):\n";
  for (const PlanStep& step : plan.steps()) {
    std::string outs;
    for (int id : step.outputs)
      if (id >= 0) outs += (outs.empty() ? "" : ", ") + describe(plan.info(id)) + layout_of_value(plan, id);
    if (step.node < 0) {
      ++reorders;
      const std::string& from = g.value(step.inputs[0]).name;
      std::cout << "  " << std::left << std::setw(28) << ("reorder " + from) << " " << std::setw(20) << "(reorder)"
                << " -> " << outs << "\n";
      continue;
    }
    const Node& node = g.nodes[size_t(step.node)];
    std::cout << "  " << std::left << std::setw(28) << node.name << " " << std::setw(20) << node.op_type << " -> "
              << outs << "  kernel " << step.kernel << view_note(g, step)
              << (step.one_thread && !step.view ? " (1 thread)" : "");
    if (!node.note.empty()) std::cout << "  {" << node.note << "}";
    for (const std::string& why : step.declined) std::cout << "  [declined " << why << "]";
    std::cout << "\n";
  }
  std::cout << "reorders: " << reorders << "\narena: " << plan.arena_bytes() << " bytes (" << std::fixed
            << std::setprecision(1) << double(plan.arena_bytes()) / (1 << 20) << " MiB)\n";
}

int inspect(const InspectOptions& o) {
  Options mo;
  mo.backend = parse_backend(o.backend);
  mo.disabled_passes = o.disabled_passes;
  mo.disabled_kernels = o.disabled_kernels;
  Model model = Model::load(o.model, mo);
  const Graph& g = model.graph();
  std::cout << "model: " << o.model << (g.producer.empty() ? "" : "  (producer " + g.producer + ")") << "\n";
  std::cout << "opsets:";
  for (const auto& [domain, version] : g.opsets) std::cout << " " << (domain.empty() ? "ai.onnx" : domain) << "=" << version;
  std::cout << "\ninputs:\n";
  for (int id : g.inputs) std::cout << "  " << g.value(id).name << ": " << describe(g.value(id).info) << "\n";
  std::cout << "outputs:\n";
  for (int id : g.outputs) std::cout << "  " << g.value(id).name << ": " << describe(g.value(id).info) << "\n";
  std::map<std::string, int> histogram;
  for (const Node& n : g.nodes) ++histogram[n.op_type];
  std::cout << "ops (" << g.nodes.size() << " nodes):";
  for (const auto& [op, count] : histogram) std::cout << " " << op << "x" << count;
  std::cout << "\n";
  for (const std::string& w : g.warnings) std::cout << "warning: " << w << "\n";
  std::cout << "graph passes:";
  for (const GraphPass& p : graph_passes()) std::cout << " " << p.name;
  std::cout << " (turn one off with --disable-pass NAME)\n";

  // Plan for concrete input shapes (--shape, or the declared shape with the batch dim set to --batch) to show
  // kernels and shapes; an input with other unknown dims is an error naming it (planning with 1 would fail
  // inside some op). Without a declared rank or a --shape, kernels are chosen at run time.
  for (int id : g.inputs) {
    const std::string& name = g.value(id).name;
    auto names_it = [&](const std::string& shape) { return shape.rfind(name + "=", 0) == 0; };
    bool given = std::any_of(o.shapes.begin(), o.shapes.end(), names_it);
    if (!g.value(id).info.rank_known && !given) {
      std::cout << "(input '" << name << "' has no declared shape: kernels are chosen at run time; give --shape "
                << name << "=... to see them)\nnodes:\n";
      for (const Node& node : g.nodes)
        std::cout << "  " << std::left << std::setw(28) << node.name << " " << std::setw(20) << node.op_type << "\n";
      return 0;
    }
  }
  std::vector<Tensor> probe;
  std::vector<Shape> shapes = planning_shapes(model, o.shapes, o.batch);
  for (size_t i = 0; i < shapes.size(); ++i) probe.emplace_back(model.inputs()[i].dtype, shapes[i]);
  std::shared_ptr<const Plan> plan = model.plan_for(probe);
  std::cout << "graph passes applied:\n";
  for (const PassReport& r : plan->pass_reports()) {
    std::cout << "  " << std::left << std::setw(20) << r.pass << " " << r.summary() << "\n";
    for (const std::string& why : r.declined) std::cout << "    left alone: " << why << "\n";
  }
  print_plan(*plan);
  return 0;
}

}  // namespace

Command add_inspect_command(CLI::App& app) {
  auto o = std::make_shared<InspectOptions>();
  CLI::App* sub = app.add_subcommand("inspect", "Show a model's inputs, outputs, ops and the kernel of every node");
  sub->add_option("model", o->model, "ONNX model file")->required();
  sub->add_option("--backend", o->backend, "Kernels to plan with: dnnl or ref")->check(CLI::IsMember({"dnnl", "ref"}));
  add_disable_options(sub, o->disabled_passes, o->disabled_kernels);
  sub->add_option("--shape", o->shapes, "NAME=D0,D1,...: the shape of an input to plan for");
  sub->add_option("--batch", o->batch, "Value for an unknown batch (first) dim when planning")->check(CLI::PositiveNumber);
  return {sub, [o] { return inspect(*o); }};
}

}  // namespace cnnx::tools
