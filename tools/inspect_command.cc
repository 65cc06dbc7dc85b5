// cnnx inspect MODEL: inputs, outputs, opsets, op histogram and, per node, shapes and the kernel chosen
// (with the reasons the others declined).
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>

#include "engine/op.h"
#include "tools/commands.h"

namespace cnnx::tools {

namespace {

struct InspectOptions {
  std::string model;
  std::string backend = "dnnl";
  int64_t batch = 1;
};

std::string describe(const ValueInfo& v) {
  std::string s = dtype_name(v.dtype);
  s += v.rank_known ? to_string(v.shape) : std::string("[?]");
  if (v.constant) s += " const";
  return s;
}

int inspect(const InspectOptions& o) {
  Options mo;
  mo.backend = parse_backend(o.backend);
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

  // Plan for the declared input shapes, unknown dims set to --batch, to show kernels and concrete shapes.
  std::vector<Tensor> probe;
  for (int id : g.inputs) {
    const ValueInfo& v = g.value(id).info;
    if (!v.rank_known) {
      std::cout << "(input '" << g.value(id).name << "' has no declared shape: kernels are chosen at run time)\n";
      probe.clear();
      break;
    }
    Shape s = v.shape;
    for (int64_t& d : s)
      if (d < 0) d = o.batch;
    probe.emplace_back(v.dtype, s);
  }
  std::shared_ptr<const Plan> plan;
  if (probe.size() == g.inputs.size()) plan = model.plan_for(probe);
  std::map<int, const PlanStep*> step_of;
  if (plan)
    for (const PlanStep& s : plan->steps()) step_of[s.node] = &s;

  std::cout << "nodes:\n";
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& node = g.nodes[n];
    std::cout << "  " << std::left << std::setw(28) << node.name << " " << std::setw(20) << node.op_type;
    std::string outs;
    for (int id : node.outputs)
      if (id >= 0) outs += (outs.empty() ? "" : ", ") + describe(plan ? plan->info(id) : g.value(id).info);
    std::cout << " -> " << outs;
    auto it = step_of.find(int(n));
    if (it != step_of.end()) {
      std::cout << "  kernel " << it->second->kernel;
      for (const std::string& why : it->second->declined) std::cout << "  [declined " << why << "]";
    } else if (plan) {
      std::cout << "  folded at plan time";
    }
    std::cout << "\n";
  }
  return 0;
}

}  // namespace

Command add_inspect_command(CLI::App& app) {
  auto o = std::make_shared<InspectOptions>();
  CLI::App* sub = app.add_subcommand("inspect", "Show a model's inputs, outputs, ops and the kernel of every node");
  sub->add_option("model", o->model, "ONNX model file")->required();
  sub->add_option("--backend", o->backend, "Kernels to plan with: dnnl or ref")->check(CLI::IsMember({"dnnl", "ref"}));
  sub->add_option("--batch", o->batch, "Value for unknown input dims when planning")->check(CLI::PositiveNumber);
  return {sub, [o] { return inspect(*o); }};
}

}  // namespace cnnx::tools
