#include "runtime/data_run.h"

#include <algorithm>
#include <cstring>

#include "engine/compare.h"
#include "engine/float16_compute.h"
#include "engine/node_eval.h"
#include "ops/control/if.h"
#include "ops/control/loop.h"

namespace cnnx {

namespace {

ValueInfo without_data(const ValueInfo& v) { return v.dtype == DType::undefined ? v : ValueInfo::of(v.dtype, v.shape); }

// True when `kept` (infos without data) has the types and shapes of `now` (infos with or without data).
bool same_shapes(const std::vector<ValueInfo>& kept, const std::vector<ValueInfo>& now) {
  if (kept.size() != now.size()) return false;
  for (size_t i = 0; i < kept.size(); ++i)
    if (kept[i].dtype != now[i].dtype || kept[i].shape != now[i].shape) return false;
  return true;
}

// The data of every output the fold gave (engine/node_eval.h); an output it could not compute is an error.
std::vector<Tensor> folded_outputs(const Node& node, const std::vector<ValueInfo>& out) {
  std::vector<Tensor> result(node.outputs.size());
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    if (node.outputs[i] < 0) continue;
    with_node_context(node, [&] {
      require(out[i].constant != nullptr, "output ", i, " could not be computed from its inputs' data");
    });
    result[i] = *out[i].constant;
  }
  return result;
}

}  // namespace

struct DataRun::Kept {
  std::vector<ValueInfo> in, out;  // the shapes it was compiled for, without data
  bool needs_data = false;         // its kernel compiles only with the inputs' data: made anew per run
  std::unique_ptr<CompiledKernel> kernel;
  std::vector<std::shared_ptr<Tensor>> buffers;  // per output: the last one handed out
};

DataRun::DataRun(const PlanLimits& limits, std::vector<NodeCheck>* checks) : limits_(limits), checks_(checks) {}
DataRun::~DataRun() = default;

std::vector<Tensor> DataRun::run(const Graph& g, const std::vector<Tensor>& inputs) {
  require(inputs.size() == g.inputs.size(), "the subgraph takes ", g.inputs.size(), " inputs, got ", inputs.size());
  std::vector<Tensor> values(g.values.size());
  for (size_t id = 0; id < g.values.size(); ++id)
    if (g.values[id].info.constant) values[id] = *g.values[id].info.constant;
  for (size_t i = 0; i < inputs.size(); ++i) values[size_t(g.inputs[i])] = inputs[i];
  std::vector<const Tensor*> in;
  for (const Node& node : g.nodes) {
    in.clear();
    for (int id : node.inputs) {
      if (id >= 0 && !values[size_t(id)].defined())
        fail(node.label(), ": internal error: input '", g.values[size_t(id)].name, "' has no data");
      in.push_back(id >= 0 ? &values[size_t(id)] : nullptr);
    }
    std::vector<Tensor> out = run_node(node, in);
    for (size_t i = 0; i < node.outputs.size(); ++i)
      if (node.outputs[i] >= 0) values[size_t(node.outputs[i])] = std::move(out[i]);
  }
  std::vector<Tensor> outputs;
  for (int id : g.outputs) outputs.push_back(values[size_t(id)]);
  return outputs;
}

std::vector<Tensor> DataRun::run_node(const Node& node, const std::vector<const Tensor*>& in) {
  if (node.def->hints.runs_subgraphs) {
    if (const auto* loop = dynamic_cast<const LoopParams*>(node.params.get()))
      return with_node_context(node, [&] { return run_loop_with_data(*loop, in, *this); });
    if (const auto* branch = dynamic_cast<const IfParams*>(node.params.get()))
      return with_node_context(node, [&] { return run_if_with_data(*branch, in, *this); });
  }
  std::vector<ValueInfo> infos;
  infos.reserve(in.size());
  for (const Tensor* t : in) infos.push_back(t ? ValueInfo::of(*t) : ValueInfo{});
  // Other subgraph ops (Scan) and float16 nodes computed in float32: folded as the plan folds constants.
  if (node.def->hints.runs_subgraphs || computes_float16_in_float32(node, infos))
    return folded_outputs(node, infer_node(node, infos, limits_.max_tensor_bytes));
  std::vector<ValueInfo> out = with_node_context(node, [&] {
    std::vector<ValueInfo> o = node.def->infer(*node.params, infos);
    require(o.size() >= node.outputs.size(), "shape inference gave ", o.size(), " outputs for ", node.outputs.size());
    o.resize(node.outputs.size());
    return o;
  });
  bool given = true;  // infer gave every output's data (Shape, Constant, NonMaxSuppression)
  for (size_t i = 0; i < out.size(); ++i) given = given && (node.outputs[i] < 0 || out[i].constant);
  if (given) return folded_outputs(node, out);
  std::vector<Tensor> got = run_kernel(node, in, infos, out);
  if (checks_) check(node, infos, out, got);
  return got;
}

std::vector<Tensor> DataRun::run_kernel(const Node& node, const std::vector<const Tensor*>& in,
                                        const std::vector<ValueInfo>& infos, const std::vector<ValueInfo>& out) {
  return with_node_context(node, [&] {
    for (size_t i = 0; i < out.size(); ++i) {
      if (node.outputs[i] < 0) continue;
      require(out[i].concrete(), "could not infer the shape of output ", i, " from its inputs' data");
      const int64_t bytes = checked_mul(checked_numel(out[i].shape), int64_t(dtype_size(out[i].dtype)), "output size");
      if (bytes > limits_.max_tensor_bytes)
        fail("output ", i, " ", to_string(out[i].shape), " would take ", bytes, " bytes, beyond the tensor limit of ",
             limits_.max_tensor_bytes, " (Options::max_tensor_bytes)");
    }
    std::unique_ptr<Kept>& kept = kept_[&node];
    if (!kept || !same_shapes(kept->in, infos) || !same_shapes(kept->out, out)) {
      kept = std::make_unique<Kept>();
      for (const ValueInfo& v : infos) kept->in.push_back(without_data(v));
      for (const ValueInfo& v : out) kept->out.push_back(without_data(v));
      kept->buffers.resize(out.size());
      try {
        kept->kernel = compile_reference(*node.def, node.params, kept->in, kept->out);
      } catch (const Error&) {
        kept->needs_data = true;  // e.g. an output size read from an input at compile time
      }
    }
    std::unique_ptr<CompiledKernel> with_data;
    if (kept->needs_data) with_data = compile_reference(*node.def, node.params, infos, kept->out);
    KernelIO io;
    io.in = in;
    std::vector<Tensor> result(out.size());
    for (size_t i = 0; i < out.size(); ++i) {
      if (node.outputs[i] < 0) {
        io.out.push_back(nullptr);
        continue;
      }
      std::shared_ptr<Tensor>& buffer = kept->buffers[i];
      if (buffer && buffer.use_count() == 1)
        std::memset(buffer->raw(), 0, buffer->bytes());  // reference kernels get zero-filled outputs (engine/op.h)
      else
        buffer = std::make_shared<Tensor>(out[i].dtype, out[i].shape);
      result[i] = Tensor::adopt(out[i].dtype, out[i].shape, std::shared_ptr<void>(buffer, buffer->raw()));
      io.out.push_back(&result[i]);
    }
    (with_data ? *with_data : *kept->kernel).run(io);
    return result;
  });
}

void DataRun::check(const Node& node, const std::vector<ValueInfo>& infos, const std::vector<ValueInfo>& out,
                    const std::vector<Tensor>& got) {
  const std::vector<ValueInfo> want = infer_node(node, infos, limits_.max_tensor_bytes);
  const Tolerance tol = node.def->tolerance;
  auto [at, fresh] = check_of_.emplace(&node, checks_->size());
  if (fresh)
    checks_->push_back({node.name, node.op_type, "ref (kept)", 0, 0, tol.abs, tol.rel, tol.terms_rel, 0, true, ""});
  NodeCheck& c = (*checks_)[at->second];
  std::vector<const Tensor*> inputs;
  for (const ValueInfo& v : infos) inputs.push_back(v.constant.get());
  const std::vector<Tensor> magnitudes = term_magnitudes(*node.def, node.params, infos, out, inputs);
  for (size_t i = 0; i < got.size(); ++i) {
    if (node.outputs[i] < 0) continue;
    with_node_context(node, [&] { require(want[i].constant != nullptr, "verify: output ", i, " did not fold"); });
    const Difference d = compare(got[i], *want[i].constant, tol, magnitudes.empty() ? nullptr : &magnitudes[i]);
    c.max_abs = std::max(c.max_abs, d.max_abs);
    c.max_rel = std::max(c.max_rel, d.max_rel);
    c.max_ratio = std::max(c.max_ratio, d.max_ratio);
    if (!d.within && c.within) c.detail = "output " + std::to_string(i) + ": " + d.detail;
    c.within = c.within && d.within;
  }
}

}  // namespace cnnx
