#include "ops/control/loop.h"

#include <limits>

#include "engine/subgraph.h"
#include "ops/control/subgraph_io.h"

namespace cnnx {

namespace {

// The infos the body is planned for: iteration_num and cond as it declares them (one element; [] when it
// does not say), carried values as v_initial without their data (they change per iteration), captured
// values as they are. With `cond_true`, cond carries the data `true` (to ask whether the body keeps it).
// The shape of the body's input i (0: iteration_num, 1: cond) as it declares it: one element; [] when it does
// not say.
Shape declared_scalar_shape(const Graph& body, size_t i) {
  const ValueInfo& declared = body.values[size_t(body.inputs[i])].info;
  return declared.concrete() && checked_numel(declared.shape) == 1 ? declared.shape : Shape{};
}

std::vector<ValueInfo> body_inputs(const LoopParams& p, const std::vector<ValueInfo>& in, bool cond_true) {
  std::vector<ValueInfo> b;
  for (size_t i = 0; i < 2; ++i)
    b.push_back(ValueInfo::of(i == 0 ? DType::i64 : DType::boolean, declared_scalar_shape(*p.body, i)));
  if (cond_true) {
    Tensor t(DType::boolean, b[1].shape);
    *static_cast<uint8_t*>(t.raw()) = 1;
    b[1] = ValueInfo::of(t);
  }
  for (size_t j = 0; j < p.carried; ++j) b.push_back(ValueInfo::of(in[2 + j].dtype, in[2 + j].shape));
  for (size_t i = 2 + p.carried; i < in.size(); ++i) b.push_back(in[i]);
  return b;
}

bool is_constant_true(const ValueInfo& v) { return v.constant && condition_value(*v.constant); }

// The number of iterations when it is known before the loop runs, else -1.
int64_t known_iterations(const LoopParams& p, const std::vector<ValueInfo>& in) {
  if (present(in, 1) && in[1].constant && !condition_value(*in[1].constant)) return 0;
  if (!present(in, 0) || !in[0].constant) return -1;
  const int64_t m = in[0].constant->int_at(0);
  require(m >= 0, "input 0 (M) is ", m, "; a trip count cannot be negative");
  if (m == 0) return 0;
  if (present(in, 1) && !is_constant_true(in[1])) return -1;
  const std::vector<ValueInfo> out = infer_graph_outputs(*p.body, body_inputs(p, in, true));
  return is_constant_true(out[0]) ? m : -1;
}

// Iteration i may start: fewer than `most` ran before it (Options::max_loop_iterations).
void require_iteration_allowed(int64_t i, int64_t most) {
  require(i < most, "the loop ran ", most, " iterations, the most a Loop may run (Options::max_loop_iterations)");
}

struct LoopKernel final : CompiledKernel {
  std::shared_ptr<const PlannedSubgraph> body;
  size_t carried = 0, scans = 0;
  int64_t max_iterations = 0;
  Shape counter_shape, cond_shape;
  void run(const KernelIO& io) const override {
    int64_t trip = std::numeric_limits<int64_t>::max();
    if (io.in[0]) {
      trip = io.in[0]->int_at(0);
      require(trip >= 0, "input 0 (M) is ", trip, "; a trip count cannot be negative");
    }
    bool cond = io.in[1] ? condition_value(*io.in[1]) : true;
    std::vector<Tensor> in(io.in.size());
    in[0] = Tensor(DType::i64, counter_shape);
    in[1] = Tensor(DType::boolean, cond_shape);
    for (size_t i = 2; i < io.in.size(); ++i) in[i] = *io.in[i];
    std::vector<size_t> row_bytes(scans);
    int64_t rows = -1;
    for (size_t k = 0; k < scans; ++k)
      if (const Tensor* scan = io.out[carried + k]) {
        rows = scan->dim(0);
        row_bytes[k] = rows ? scan->bytes() / size_t(rows) : 0;
      }
    int64_t i = 0;
    for (; i < trip && cond; ++i) {
      require_iteration_allowed(i, max_iterations);
      require(rows < 0 || i < rows, "the loop runs more than the ", rows, " iterations its scan outputs were planned for");
      *in[0].data<int64_t>() = i;
      *static_cast<uint8_t*>(in[1].raw()) = 1;
      const std::vector<Tensor> out = body->run(in);
      cond = condition_value(out[0]);
      for (size_t j = 0; j < carried; ++j) in[2 + j] = out[1 + j];
      for (size_t k = 0; k < scans; ++k)
        if (io.out[carried + k]) copy_into(out[1 + carried + k], *io.out[carried + k], size_t(i) * row_bytes[k]);
    }
    require(rows < 0 || i == rows, "the loop ran ", i, " iterations; its scan outputs were planned for ", rows);
    for (size_t j = 0; j < carried; ++j)
      if (io.out[j]) copy_into(in[2 + j], *io.out[j]);
  }
};

Compiled compile_loop(const std::shared_ptr<const LoopParams>& p, const KernelArgs& args) {
  if (!args.context.subgraphs) return Compiled::decline("its body is planned by a plan (CompileContext::subgraphs)");
  auto k = std::make_unique<LoopKernel>();
  const std::vector<ValueInfo> inputs = body_inputs(*p, args.in, false);
  try {
    k->body = args.context.subgraphs->plan(*p->body, inputs);
  } catch (const Error& e) {
    fail("body: ", e.what());
  }
  k->carried = p->carried;
  k->scans = p->scans;
  k->max_iterations = args.context.subgraphs->max_loop_iterations();
  k->counter_shape = inputs[0].shape;
  k->cond_shape = inputs[1].shape;
  return k;
}

}  // namespace

LoopParams parse_loop(const Node& node) {
  node.attrs.allow_only({"body"});
  LoopParams p;
  p.body = node.attrs.require_graph("body");
  const Graph& g = *p.body;
  const size_t declared = g.inputs.size() - g.captured;
  require(declared >= 2, "attribute 'body' declares ", declared,
          " inputs; a Loop body takes iteration_num, cond and the loop-carried values");
  p.carried = declared - 2;
  require(node.inputs.size() == 2 + p.carried + g.captured, "expects ", 2 + p.carried,
          " inputs (M, cond and one per loop-carried value of its body), got ", node.inputs.size() - g.captured);
  require(g.outputs.size() >= 1 + p.carried, "attribute 'body' has ", g.outputs.size(), " outputs; it needs cond and ",
          p.carried, " loop-carried values");
  p.scans = g.outputs.size() - 1 - p.carried;
  require(node.outputs.size() == p.carried + p.scans, "expects ", p.carried + p.scans,
          " outputs (loop-carried values, then scan outputs), got ", node.outputs.size());
  for (size_t j = 0; j < p.carried; ++j)
    require(has_input(node, 2 + j), "input ", 2 + j, " (loop-carried value ", j, ") is required but omitted");
  return p;
}

std::vector<ValueInfo> infer_loop(const LoopParams& p, const std::vector<ValueInfo>& in) {
  if (present(in, 0)) require_one_element(in[0], DType::i64, "input 0 (M)");
  if (present(in, 1)) require_one_element(in[1], DType::boolean, "input 1 (cond)");
  std::vector<ValueInfo> body_out;
  int64_t iterations = -1;
  try {
    body_out = infer_graph_outputs(*p.body, body_inputs(p, in, false));
    if (p.scans) iterations = known_iterations(p, in);
  } catch (const Error& e) {
    fail("body: ", e.what());
  }
  if (body_out[0].rank_known) require_one_element(body_out[0], DType::boolean, "the body's output 0 (cond)");
  // Shapes from data: a carried value whose shape the body changes (Mask R-CNN's masks, concatenated one per
  // detection) or computes from data, a scan row of such a shape, or scan outputs whose number of rows the plan
  // cannot know. The body cannot be planned once; the plan ends at the node (plan.h: its infos are not
  // concrete), and its tail runs the loop with every input known (run_loop_with_data).
  bool from_data = p.scans && iterations < 0;
  for (size_t j = 0; j < p.carried; ++j) {
    const ValueInfo &v = in[2 + j], &b = body_out[1 + j];
    require(b.dtype == DType::undefined || b.dtype == v.dtype, "loop-carried value ", j, " is ", dtype_name(v.dtype),
            " but the body gives ", dtype_name(b.dtype));
    from_data = from_data || (v.rank_known && (!b.rank_known || b.shape != v.shape));
  }
  for (size_t k = 0; k < p.scans; ++k) from_data = from_data || !body_out[1 + p.carried + k].concrete();
  std::vector<ValueInfo> out;
  for (size_t j = 0; j < p.carried; ++j) {
    const ValueInfo &v = in[2 + j], &b = body_out[1 + j];
    if (b.rank_known && v.rank_known && b.shape == v.shape) {
      out.push_back(ValueInfo::of(v.dtype, v.shape));
    } else if (b.rank_known && v.rank_known && b.rank() == v.rank()) {
      out.push_back(ValueInfo::of(v.dtype, Shape(v.shape.size(), kUnknownDim)));  // later iterations may change any dim
    } else {
      out.push_back(ValueInfo::unknown(v.dtype));
    }
  }
  for (size_t k = 0; k < p.scans; ++k) {
    const ValueInfo& b = body_out[1 + p.carried + k];
    if (!b.rank_known) {
      out.push_back(ValueInfo::unknown(b.dtype));
      continue;
    }
    Shape shape{from_data ? kUnknownDim : iterations};
    shape.insert(shape.end(), b.shape.begin(), b.shape.end());
    out.push_back(ValueInfo::of(b.dtype, shape));
  }
  return out;
}

Kernel<LoopParams> loop_kernel() { return {"ref", compile_loop, nullptr}; }

std::vector<Tensor> run_loop_with_data(const LoopParams& p, const std::vector<const Tensor*>& in, GraphRunner& runner) {
  const Graph& g = *p.body;
  int64_t trip = std::numeric_limits<int64_t>::max();
  if (in[0]) {
    require_one_element(ValueInfo::of(*in[0]), DType::i64, "input 0 (M)");
    trip = in[0]->int_at(0);
    require(trip >= 0, "input 0 (M) is ", trip, "; a trip count cannot be negative");
  }
  bool cond = true;
  if (in.size() > 1 && in[1]) {
    require_one_element(ValueInfo::of(*in[1]), DType::boolean, "input 1 (cond)");
    cond = condition_value(*in[1]);
  }
  std::vector<Tensor> b(in.size());
  b[0] = Tensor(DType::i64, declared_scalar_shape(g, 0));
  b[1] = Tensor(DType::boolean, declared_scalar_shape(g, 1));
  *static_cast<uint8_t*>(b[1].raw()) = 1;
  for (size_t i = 2; i < in.size(); ++i) b[i] = *in[i];
  std::vector<std::vector<Tensor>> rows(p.scans);
  int64_t row_bytes = 0;  // of every scan row so far
  for (int64_t i = 0; i < trip && cond; ++i) {
    require_iteration_allowed(i, runner.max_loop_iterations());
    Tensor counter(DType::i64, declared_scalar_shape(g, 0));  // new each time: the body's values may keep it
    *counter.data<int64_t>() = i;
    b[0] = counter;
    std::vector<Tensor> out;
    try {
      out = runner.run(g, b);
    } catch (const Error& e) {
      fail("body, iteration ", i, ": ", e.what());
    }
    require_one_element(ValueInfo::of(out[0]), DType::boolean, "the body's output 0 (cond)");
    cond = condition_value(out[0]);
    for (size_t j = 0; j < p.carried; ++j) {
      require(out[1 + j].dtype() == in[2 + j]->dtype(), "loop-carried value ", j, " is ",
              dtype_name(in[2 + j]->dtype()), " but the body gives ", dtype_name(out[1 + j].dtype()), " at iteration ", i);
      b[2 + j] = out[1 + j];
    }
    for (size_t k = 0; k < p.scans; ++k) {
      const Tensor& row = out[1 + p.carried + k];
      if (!rows[k].empty())
        require(row.shape() == rows[k][0].shape() && row.dtype() == rows[k][0].dtype(), "scan output ", k, " is ",
                to_string(rows[k][0].shape()), " at iteration 0 but ", to_string(row.shape()), " at iteration ", i,
                "; the rows of a scan output must have one shape");
      row_bytes = checked_add(row_bytes, int64_t(row.bytes()), "scan output size");
      require(row_bytes <= runner.max_tensor_bytes(), "scan outputs of ", row_bytes, " bytes at iteration ", i,
              ", beyond the tensor limit of ", runner.max_tensor_bytes(), " (Options::max_tensor_bytes)");
      // The runner may reuse the row's buffer next iteration (it does not while the row is held here).
      rows[k].push_back(row);
    }
  }
  std::vector<Tensor> result;
  for (size_t j = 0; j < p.carried; ++j) result.push_back(b[2 + j]);
  for (size_t k = 0; k < p.scans; ++k) {
    // With no rows, the row shape the body infers for the inputs it was given (captured values with their
    // data), when that needs no iteration.
    Shape row_shape;
    DType dtype = DType::undefined;
    if (rows[k].empty()) {
      std::vector<ValueInfo> infos;
      for (size_t i = 0; i < b.size(); ++i)
        infos.push_back(i < 2 + p.carried ? ValueInfo::of(b[i].dtype(), b[i].shape()) : ValueInfo::of(b[i]));
      const ValueInfo planned = infer_graph_outputs(g, infos, runner.max_tensor_bytes())[1 + p.carried + k];
      require(planned.concrete(), "scan output ", k, " has no rows and its row shape is not known without an iteration");
      row_shape = planned.shape;
      dtype = planned.dtype;
    } else {
      row_shape = rows[k][0].shape();
      dtype = rows[k][0].dtype();
    }
    Shape shape{int64_t(rows[k].size())};
    shape.insert(shape.end(), row_shape.begin(), row_shape.end());
    Tensor stacked(dtype, shape);
    for (size_t r = 0; r < rows[k].size(); ++r) copy_into(rows[k][r], stacked, r * rows[k][r].bytes());
    result.push_back(stacked);
  }
  return result;
}

}  // namespace cnnx
