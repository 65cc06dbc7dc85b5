#include "ops/control/if.h"

#include "engine/subgraph.h"
#include "ops/control/subgraph_io.h"

namespace cnnx {

namespace {

const char* branch_name(bool cond) { return cond ? "then_branch" : "else_branch"; }

// A branch's inputs: the values it reads from the enclosing scopes, the node's inputs after cond.
std::vector<ValueInfo> captured_infos(const std::vector<ValueInfo>& in) { return {in.begin() + 1, in.end()}; }

struct IfKernel final : CompiledKernel {
  std::shared_ptr<const PlannedSubgraph> then_plan, else_plan;  // null: the branch a constant cond excludes
  void run(const KernelIO& io) const override {
    const bool cond = condition_value(*io.in[0]);
    const PlannedSubgraph* branch = (cond ? then_plan : else_plan).get();
    require(branch != nullptr, "internal error: the ", branch_name(cond), " was not planned");
    std::vector<Tensor> in;
    for (size_t i = 1; i < io.in.size(); ++i) in.push_back(*io.in[i]);
    const std::vector<Tensor> out = branch->run(in);
    for (size_t i = 0; i < io.out.size(); ++i)
      if (io.out[i]) copy_into(out[i], *io.out[i]);
  }
};

Compiled compile_if(const std::shared_ptr<const IfParams>& p, const KernelArgs& args) {
  if (!args.context.subgraphs) return Compiled::decline("its branches are planned by a plan (CompileContext::subgraphs)");
  const ValueInfo& cond = args.in[0];
  const std::vector<ValueInfo> captured = captured_infos(args.in);
  auto k = std::make_unique<IfKernel>();
  for (bool branch : {true, false}) {
    if (cond.constant && condition_value(*cond.constant) != branch) continue;
    try {
      (branch ? k->then_plan : k->else_plan) =
          args.context.subgraphs->plan(*(branch ? p->then_branch : p->else_branch), captured);
    } catch (const Error& e) {
      fail(branch_name(branch), ": ", e.what());
    }
  }
  return k;
}

}  // namespace

IfParams parse_if(const Node& node) {
  node.attrs.allow_only({"then_branch", "else_branch"});
  IfParams p;
  p.then_branch = node.attrs.require_graph("then_branch");
  p.else_branch = node.attrs.require_graph("else_branch");
  for (bool branch : {true, false}) {
    const Graph& g = *(branch ? p.then_branch : p.else_branch);
    require(g.inputs.size() == g.captured, "attribute '", branch_name(branch), "' declares ",
            g.inputs.size() - g.captured, " inputs; If's branches take none");
    require(g.outputs.size() == node.outputs.size(), "attribute '", branch_name(branch), "' has ",
            g.outputs.size(), " outputs; the node has ", node.outputs.size());
  }
  require(has_input(node, 0), "input 0 (cond) is required but omitted");
  require(node.inputs.size() == 1 + p.then_branch->captured, "expects 1 input (cond), got ",
          node.inputs.size() - p.then_branch->captured);
  return p;
}

std::vector<ValueInfo> infer_if(const IfParams& p, const std::vector<ValueInfo>& in) {
  const ValueInfo& cond = input(in, 0);
  require_one_element(cond, DType::boolean, "input 0 (cond)");
  const std::vector<ValueInfo> captured = captured_infos(in);
  auto infer_branch = [&](bool branch) {
    try {
      return infer_graph_outputs(*(branch ? p.then_branch : p.else_branch), captured);
    } catch (const Error& e) {
      fail(branch_name(branch), ": ", e.what());
    }
  };
  if (cond.constant) return infer_branch(condition_value(*cond.constant));
  std::vector<ValueInfo> then_out = infer_branch(true), else_out = infer_branch(false);
  bool inputs_concrete = true;
  for (const ValueInfo& v : in) inputs_concrete = inputs_concrete && (v.dtype == DType::undefined || v.concrete());
  std::vector<ValueInfo> out;
  for (size_t i = 0; i < then_out.size(); ++i) {
    const ValueInfo &a = then_out[i], &b = else_out[i];
    require(a.dtype == b.dtype || a.dtype == DType::undefined || b.dtype == DType::undefined, "output ", i,
            " is ", dtype_name(a.dtype), " in then_branch but ", dtype_name(b.dtype), " in else_branch");
    const DType dtype = a.dtype != DType::undefined ? a.dtype : b.dtype;
    if (!a.rank_known || !b.rank_known || a.rank() != b.rank()) {
      require(!inputs_concrete || !a.rank_known || !b.rank_known, "output ", i, " has shape ", to_string(a.shape),
              " in then_branch but ", to_string(b.shape), " in else_branch; cnnx plans one shape per output");
      out.push_back(ValueInfo::unknown(dtype));
      continue;
    }
    Shape shape = a.shape;
    for (size_t d = 0; d < shape.size(); ++d)
      if (a.shape[d] != b.shape[d]) shape[d] = kUnknownDim;
    require(!inputs_concrete || shape == a.shape, "output ", i, " has shape ", to_string(a.shape),
            " in then_branch but ", to_string(b.shape), " in else_branch; cnnx plans one shape per output");
    out.push_back(ValueInfo::of(dtype, shape));
  }
  return out;
}

Kernel<IfParams> if_kernel() { return {"ref", compile_if, nullptr}; }

std::vector<Tensor> run_if_with_data(const IfParams& p, const std::vector<const Tensor*>& in, GraphRunner& runner) {
  require_one_element(ValueInfo::of(*in[0]), DType::boolean, "input 0 (cond)");
  const bool cond = condition_value(*in[0]);
  std::vector<Tensor> captured;
  for (size_t i = 1; i < in.size(); ++i) captured.push_back(*in[i]);
  try {
    return runner.run(*(cond ? p.then_branch : p.else_branch), captured);
  } catch (const Error& e) {
    fail(branch_name(cond), ": ", e.what());
  }
}

}  // namespace cnnx
