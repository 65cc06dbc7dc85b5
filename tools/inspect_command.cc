// cnnx inspect MODEL: inputs, outputs, opsets, op histogram, load-time warnings and the plan: per step the
// kernel chosen (with the reasons the others declined), output shapes and layouts, fusions and reorders,
// in a bfloat16 plan each node's precision and why, and the arena size.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>

#include "tools/commands.h"

namespace cnnx::tools {

namespace {

struct InspectOptions : ModelArgs {
  int64_t batch = 1;
  std::vector<std::string> shapes;  // NAME=D0,D1,...
};

std::string describe(const ValueReport& v) {
  std::string s = dtype_name(v.dtype);
  s += v.rank_known ? to_string(v.shape) : std::string("[?]");
  if (v.constant) s += " const";
  return s;
}

// Why nothing runs for a step, if it does not: a view, or a Concat whose producers wrote into its buffer.
std::string view_note(const StepReport& step) {
  if (!step.view) return "";
  return step.joined_in_place ? " (joined in place: inputs written into it)" : " (view: no copy)";
}

// The planned graph: the instruction set oneDNN runs here (what layouts and fast paths were chosen for), one
// line per step (kernel, output shapes and layouts, what a pass made it from, why faster kernels declined),
// then the arena.
void print_plan(const PlanView& plan) {
  const std::vector<StepReport> steps = plan.steps();
  size_t reorders = 0, same_bytes = 0;
  const CpuReport cpu = cpu_report();
  const bool bf16 = plan.precision() == Precision::bf16;
  std::cout << "plan (" << steps.size() << " steps, backend " << backend_name(plan.backend()) << ", precision "
            << precision_name(plan.precision()) << "; oneDNN runs " << cpu.isa << " code here, channel blocks of "
            << cpu.channel_block << "):\n";
  for (const StepReport& step : steps) {
    std::string outs;
    for (const ValueReport& v : step.outputs)
      outs += (outs.empty() ? "" : ", ") + describe(v) + (v.layout.empty() ? "" : " " + v.layout);
    if (step.reorder) {
      // A reorder between layouts of the same bytes shares its input's buffer and copies nothing.
      if (step.view) ++same_bytes;
      else ++reorders;
      std::cout << "  " << std::left << std::setw(28) << ("reorder " + step.name) << " " << std::setw(20)
                << "(reorder)" << " -> " << outs << view_note(step) << "\n";
      continue;
    }
    std::cout << "  " << std::left << std::setw(28) << step.name << " " << std::setw(20) << step.op_type << " -> "
              << outs << "  kernel " << step.kernel << view_note(step)
              << (step.one_thread && !step.view ? " (1 thread)" : "");
    if (bf16) std::cout << "  " << precision_name(step.precision) << " (" << step.precision_why << ")";
    if (!step.note.empty()) std::cout << "  {" << step.note << "}";
    for (const std::string& why : step.declined) std::cout << "  [declined " << why << "]";
    std::cout << "\n";
  }
  std::cout << "reorders: " << reorders;
  if (same_bytes) std::cout << " (and " << same_bytes << " between layouts of the same bytes: views, no copy)";
  std::cout << "\narena: " << plan.arena_bytes() << " bytes (" << std::fixed
            << std::setprecision(1) << double(plan.arena_bytes()) / (1 << 20) << " MiB)\n";
}

int inspect(const InspectOptions& o) {
  Model model = Model::load(o.model, engine_options(o));
  const ModelReport g = model_report(model);
  std::cout << "model: " << o.model << (g.producer.empty() ? "" : "  (producer " + g.producer + ")") << "\n";
  std::cout << "opsets:";
  for (const auto& [domain, version] : g.opsets) std::cout << " " << (domain.empty() ? "ai.onnx" : domain) << "=" << version;
  std::cout << "\ninputs:\n";
  for (const ValueReport& v : g.inputs) std::cout << "  " << v.name << ": " << describe(v) << "\n";
  std::cout << "outputs:\n";
  for (const ValueReport& v : g.outputs) std::cout << "  " << v.name << ": " << describe(v) << "\n";
  std::map<std::string, int> histogram;
  for (const NodeReport& n : g.nodes) ++histogram[n.op_type];
  std::cout << "ops (" << g.nodes.size() << " nodes):";
  for (const auto& [op, count] : histogram) std::cout << " " << op << "x" << count;
  std::cout << "\n";
  for (const std::string& w : g.warnings) std::cout << "warning: " << w << "\n";
  const PrecisionReport precision = precision_report(model);
  if (precision.requested == Precision::bf16 && precision.used == Precision::bf16) std::cout << precision.why << "\n";
  std::cout << "graph passes:";
  for (const std::string& pass : graph_pass_names()) std::cout << " " << pass;
  std::cout << " (turn one off with --disable-pass NAME)\n";

  // Plan for concrete input shapes (--shape, or the declared shape with the batch dim set to --batch) to show
  // kernels and shapes; an input with other unknown dims is an error naming it (planning with 1 would fail
  // inside some op). Without a declared rank or a --shape, kernels are chosen at run time.
  for (const ValueReport& input : g.inputs) {
    const std::string& name = input.name;
    auto names_it = [&](const std::string& shape) { return shape.rfind(name + "=", 0) == 0; };
    bool given = std::any_of(o.shapes.begin(), o.shapes.end(), names_it);
    if (!input.rank_known && !given) {
      std::cout << "(input '" << name << "' has no declared shape: kernels are chosen at run time; give --shape "
                << name << "=... to see them)\nnodes:\n";
      for (const NodeReport& node : g.nodes)
        std::cout << "  " << std::left << std::setw(28) << node.name << " " << std::setw(20) << node.op_type << "\n";
      return 0;
    }
  }
  std::vector<Tensor> probe;
  std::vector<Shape> shapes = planning_shapes(model, o.shapes, o.batch);
  for (size_t i = 0; i < shapes.size(); ++i) probe.emplace_back(model.inputs()[i].dtype, shapes[i]);
  const PlanView plan = plan_of(model, probe);
  std::cout << "graph passes applied:\n";
  for (const PassReportLine& r : plan.passes()) {
    std::cout << "  " << std::left << std::setw(28) << r.pass << " " << r.summary << "\n";
    for (const std::string& why : r.declined) std::cout << "    left alone: " << why << "\n";
  }
  print_plan(plan);
  return 0;
}

}  // namespace

Command add_inspect_command(CLI::App& app) {
  auto o = std::make_shared<InspectOptions>();
  CLI::App* sub =
      add_model_command(app, "inspect", "Show a model's inputs, outputs, ops and the kernel of every node", *o);
  add_backend_option(sub, o->backend, "Kernels to plan with");
  add_precision_option(sub, o->precision);
  add_disable_options(sub, o->disabled_passes, o->disabled_kernels);
  add_shape_options(sub, o->shapes, o->batch, "an input to plan for", " when planning", CLI::PositiveNumber);
  return {sub, [o] { return inspect(*o); }};
}

}  // namespace cnnx::tools
