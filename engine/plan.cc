#include "engine/plan.h"

#include "engine/compare.h"
#include "engine/node_eval.h"

namespace cnnx {

const char* backend_name(Backend b) { return b == Backend::dnnl ? "dnnl" : "ref"; }

Backend parse_backend(const std::string& name) {
  if (name == "dnnl") return Backend::dnnl;
  if (name == "ref") return Backend::ref;
  fail("unknown backend '", name, "' (expected dnnl or ref)");
}

namespace {

// The first kernel of the op that runs the node on this backend; records why earlier ones declined.
const KernelDef& choose_kernel(const Node& node, const std::vector<ValueInfo>& in, Backend backend,
                               std::vector<std::string>& declined) {
  for (const KernelDef& k : node.def->kernels) {
    if (backend == Backend::ref && k.name != "ref") {
      declined.push_back(k.name + ": --backend ref");
      continue;
    }
    std::string reason = k.declines(*node.params, in);
    if (reason.empty()) return k;
    declined.push_back(k.name + ": " + reason);
  }
  fail("no kernel runs this node: ", declined.empty() ? "" : declined.back());
}

}  // namespace

std::shared_ptr<const Plan> Plan::build(std::shared_ptr<const Graph> graph, const std::vector<ValueInfo>& inputs,
                                        Backend backend) {
  auto plan = std::make_shared<Plan>();
  const Graph& g = *graph;
  plan->graph_ = graph;
  plan->backend_ = backend;
  plan->infos_.resize(g.values.size());
  for (size_t i = 0; i < g.values.size(); ++i)
    if (g.values[i].info.constant) plan->infos_[i] = g.values[i].info;
  require(inputs.size() == g.inputs.size(), "expected ", g.inputs.size(), " inputs, got ", inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) plan->infos_[size_t(g.inputs[i])] = inputs[i];

  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& node = g.nodes[n];
    std::vector<ValueInfo> in;
    for (int id : node.inputs) in.push_back(id >= 0 ? plan->infos_[size_t(id)] : ValueInfo{});
    std::vector<ValueInfo> out = infer_node(node, in);
    bool folded = true;
    for (size_t i = 0; i < out.size(); ++i) {
      if (node.outputs[i] < 0) continue;
      with_node_context(node, [&] {
        require(out[i].concrete(), "could not infer the shape of output '", g.value(node.outputs[i]).name, "'");
      });
      folded = folded && out[i].constant;
      plan->infos_[size_t(node.outputs[i])] = out[i];
    }
    if (folded) continue;
    PlanStep step;
    step.node = int(n);
    step.in = in;
    step.out = out;
    with_node_context(node, [&] {
      const KernelDef& k = choose_kernel(node, in, backend, step.declined);
      step.kernel = k.name;
      step.exec = k.compile(node.params, in, out);
      if (k.name != "ref") step.ref_exec = node.def->kernels.back().compile(node.params, in, out);
    });
    plan->steps_.push_back(std::move(step));
  }

  plan->last_use_.assign(g.values.size(), -1);
  for (size_t s = 0; s < plan->steps_.size(); ++s)
    for (int id : g.nodes[size_t(plan->steps_[s].node)].inputs)
      if (id >= 0) plan->last_use_[size_t(id)] = int(s);
  for (int id : g.outputs) plan->last_use_[size_t(id)] = int(plan->steps_.size());  // kept to the end
  return plan;
}

namespace {

// Runs the reference kernel on the step's inputs and compares with what the chosen kernel wrote.
NodeCheck check_step(const Node& node, const PlanStep& step, const KernelIO& io) {
  const Tolerance tol = node.def->tolerance;
  NodeCheck c{node.name, node.op_type, step.kernel, 0, 0, tol.abs, tol.rel, true, ""};
  std::vector<Tensor> want(io.out.size());
  KernelIO ref_io{io.in, {}};
  for (size_t i = 0; i < io.out.size(); ++i) {
    if (io.out[i]) want[i] = Tensor(io.out[i]->dtype(), io.out[i]->shape());
    ref_io.out.push_back(io.out[i] ? &want[i] : nullptr);
  }
  step.ref_exec->run(ref_io);
  for (size_t i = 0; i < io.out.size(); ++i) {
    if (!io.out[i]) continue;
    Difference d = compare(*io.out[i], want[i], tol);
    c.max_abs = std::max(c.max_abs, d.max_abs);
    c.max_rel = std::max(c.max_rel, d.max_rel);
    if (!d.within && c.within) c.detail = "output " + std::to_string(i) + ": " + d.detail;
    c.within = c.within && d.within;
  }
  return c;
}

}  // namespace

std::vector<Tensor> Plan::run(const std::vector<Tensor>& inputs, std::vector<NodeCheck>* checks) const {
  const Graph& g = *graph_;
  require(inputs.size() == g.inputs.size(), "expected ", g.inputs.size(), " inputs, got ", inputs.size());
  std::vector<Tensor> values(g.values.size());
  for (size_t i = 0; i < inputs.size(); ++i) values[size_t(g.inputs[i])] = inputs[i];
  for (size_t i = 0; i < infos_.size(); ++i)
    if (infos_[i].constant) values[i] = *infos_[i].constant;

  for (size_t s = 0; s < steps_.size(); ++s) {
    const PlanStep& step = steps_[s];
    const Node& node = g.nodes[size_t(step.node)];
    KernelIO io;
    for (int id : node.inputs) io.in.push_back(id >= 0 ? &values[size_t(id)] : nullptr);
    with_node_context(node, [&] {
      for (size_t i = 0; i < node.outputs.size(); ++i) {
        int id = node.outputs[i];
        if (id >= 0) values[size_t(id)] = Tensor(step.out[i].dtype, step.out[i].shape);
        io.out.push_back(id >= 0 ? &values[size_t(id)] : nullptr);
      }
      step.exec->run(io);
      if (checks && step.ref_exec) checks->push_back(check_step(node, step, io));
    });
    for (int id : node.inputs)
      if (id >= 0 && last_use_[size_t(id)] == int(s)) values[size_t(id)] = Tensor();
  }
  std::vector<Tensor> outputs;
  for (int id : g.outputs) {
    // Constants belong to the plan and inputs to the caller: hand out copies the caller may change.
    bool shared = infos_[size_t(id)].constant || g.value(id).producer < 0;
    outputs.push_back(shared ? values[size_t(id)].clone() : values[size_t(id)]);
  }
  return outputs;
}

}  // namespace cnnx
