#include "ops/control/scan.h"

#include <cstring>

#include "engine/subgraph.h"
#include "ops/control/subgraph_io.h"

namespace cnnx {

namespace {

// Slice `t` along `axis` of `all` (its dim there T) copied into `slice` (`all` without that axis), or back.
struct AxisSlices {
  size_t outer = 1, inner_bytes = 0;
  int64_t length = 0;
  AxisSlices(const Shape& all, int64_t axis, DType dtype)
      : outer(size_t(numel_range(all, 0, size_t(axis)))),
        inner_bytes(size_t(numel_range(all, size_t(axis) + 1, all.size())) * dtype_size(dtype)),
        length(all[size_t(axis)]) {}
  void take(const Tensor& all, int64_t t, Tensor& slice) const {
    for (size_t o = 0; o < outer; ++o)
      std::memcpy(static_cast<char*>(slice.raw()) + o * inner_bytes,
                  static_cast<const char*>(all.raw()) + (o * size_t(length) + size_t(t)) * inner_bytes, inner_bytes);
  }
  void put(const Tensor& slice, int64_t t, Tensor& all) const {
    for (size_t o = 0; o < outer; ++o)
      std::memcpy(static_cast<char*>(all.raw()) + (o * size_t(length) + size_t(t)) * inner_bytes,
                  static_cast<const char*>(slice.raw()) + o * inner_bytes, inner_bytes);
  }
};

Shape without_axis(Shape s, int64_t axis) {
  s.erase(s.begin() + axis);
  return s;
}

// Scan input j's axis, normalized against its rank.
int64_t input_axis(const ScanParams& p, size_t j, int64_t rank) {
  return normalize_axis(p.input_axes[j], rank, "scan_input_axes");
}

// The infos the body is planned for: states without their data, scan inputs' slices, captured values.
std::vector<ValueInfo> body_inputs(const ScanParams& p, const std::vector<ValueInfo>& in) {
  std::vector<ValueInfo> b;
  for (size_t i = 0; i < p.states; ++i) b.push_back(ValueInfo::of(in[i].dtype, in[i].shape));
  for (size_t j = 0; j < p.scan_inputs; ++j) {
    const ValueInfo& x = in[p.states + j];
    b.push_back(ValueInfo::of(x.dtype, without_axis(x.shape, input_axis(p, j, x.rank()))));
  }
  for (size_t i = p.states + p.scan_inputs; i < in.size(); ++i) b.push_back(in[i]);
  return b;
}

struct ScanKernel final : CompiledKernel {
  std::shared_ptr<const ScanParams> params;
  std::shared_ptr<const PlannedSubgraph> body;
  std::vector<AxisSlices> in_slices, out_slices;
  std::vector<Shape> slice_shapes;  // per scan input
  int64_t length = 0;
  void run(const KernelIO& io) const override {
    const ScanParams& p = *params;
    std::vector<Tensor> in(io.in.size());
    for (size_t i = 0; i < p.states; ++i) in[i] = *io.in[i];
    for (size_t j = 0; j < p.scan_inputs; ++j) in[p.states + j] = Tensor(io.in[p.states + j]->dtype(), slice_shapes[j]);
    for (size_t i = p.states + p.scan_inputs; i < io.in.size(); ++i) in[i] = *io.in[i];
    for (int64_t t = 0; t < length; ++t) {
      for (size_t j = 0; j < p.scan_inputs; ++j)
        in_slices[j].take(*io.in[p.states + j], p.input_reversed[j] ? length - 1 - t : t, in[p.states + j]);
      const std::vector<Tensor> out = body->run(in);
      for (size_t i = 0; i < p.states; ++i) in[i] = out[i];
      for (size_t k = 0; k < p.scan_outputs; ++k)
        if (Tensor* y = io.out[p.states + k]) out_slices[k].put(out[p.states + k], p.output_reversed[k] ? length - 1 - t : t, *y);
    }
    for (size_t i = 0; i < p.states; ++i)
      if (io.out[i]) copy_into(in[i], *io.out[i]);
  }
};

Compiled compile_scan(const std::shared_ptr<const ScanParams>& p, const KernelArgs& args) {
  if (!args.context.subgraphs) return Compiled::decline("its body is planned by a plan (CompileContext::subgraphs)");
  auto k = std::make_unique<ScanKernel>();
  k->params = p;
  const std::vector<ValueInfo> inputs = body_inputs(*p, args.in);
  try {
    k->body = args.context.subgraphs->plan(*p->body, inputs);
  } catch (const Error& e) {
    fail("body: ", e.what());
  }
  for (size_t j = 0; j < p->scan_inputs; ++j) {
    const ValueInfo& x = args.in[p->states + j];
    k->in_slices.emplace_back(x.shape, input_axis(*p, j, x.rank()), x.dtype);
    k->slice_shapes.push_back(inputs[p->states + j].shape);
    k->length = k->in_slices.back().length;
  }
  for (size_t k_out = 0; k_out < p->scan_outputs; ++k_out) {
    const ValueInfo& y = args.out[p->states + k_out];
    k->out_slices.emplace_back(y.shape, normalize_axis(p->output_axes[k_out], y.rank(), "scan_output_axes"), y.dtype);
  }
  return k;
}

std::vector<bool> directions(const Node& node, const char* name, size_t count) {
  const std::vector<int64_t> d = node.attrs.get_ints(name, std::vector<int64_t>(count, 0));
  require(d.size() == count, "attribute '", name, "' has ", d.size(), " values; expected ", count);
  std::vector<bool> reversed;
  for (int64_t v : d) {
    require(v == 0 || v == 1, "attribute '", name, "' holds ", v, "; directions are 0 (forward) or 1 (reverse)");
    reversed.push_back(v == 1);
  }
  return reversed;
}

}  // namespace

ScanParams parse_scan(const Node& node) {
  require(node.opset >= 9, "Scan-8 (a batch axis and sequence_lens) is not supported; opset 9 on is");
  node.attrs.allow_only({"body", "num_scan_inputs", "scan_input_axes", "scan_input_directions", "scan_output_axes",
                         "scan_output_directions"});
  ScanParams p;
  p.body = node.attrs.require_graph("body");
  const Graph& g = *p.body;
  const size_t declared = g.inputs.size() - g.captured;
  const int64_t m = node.attrs.require_int("num_scan_inputs");
  require(m >= 1 && size_t(m) <= declared, "attribute 'num_scan_inputs' is ", m, "; the body declares ", declared,
          " inputs");
  p.scan_inputs = size_t(m);
  p.states = declared - p.scan_inputs;
  require(node.inputs.size() == declared + g.captured, "expects ", declared,
          " inputs (the body's states, then its scan inputs), got ", node.inputs.size() - g.captured);
  for (size_t i = 0; i < declared; ++i) require(has_input(node, i), "input ", i, " is required but omitted");
  require(g.outputs.size() >= p.states, "attribute 'body' has ", g.outputs.size(), " outputs; it needs ", p.states,
          " states");
  p.scan_outputs = g.outputs.size() - p.states;
  require(node.outputs.size() == g.outputs.size(), "expects ", g.outputs.size(),
          " outputs (states, then scan outputs), got ", node.outputs.size());
  p.input_axes = node.attrs.get_ints("scan_input_axes", std::vector<int64_t>(p.scan_inputs, 0));
  p.output_axes = node.attrs.get_ints("scan_output_axes", std::vector<int64_t>(p.scan_outputs, 0));
  require(p.input_axes.size() == p.scan_inputs, "attribute 'scan_input_axes' has ", p.input_axes.size(),
          " values; expected ", p.scan_inputs);
  require(p.output_axes.size() == p.scan_outputs, "attribute 'scan_output_axes' has ", p.output_axes.size(),
          " values; expected ", p.scan_outputs);
  p.input_reversed = directions(node, "scan_input_directions", p.scan_inputs);
  p.output_reversed = directions(node, "scan_output_directions", p.scan_outputs);
  return p;
}

std::vector<ValueInfo> infer_scan(const ScanParams& p, const std::vector<ValueInfo>& in) {
  int64_t length = kUnknownDim;
  for (size_t j = 0; j < p.scan_inputs; ++j) {
    const ValueInfo& x = in[p.states + j];
    const int64_t t = x.shape[size_t(input_axis(p, j, x.rank()))];
    require(t < 0 || length < 0 || t == length, "scan input ", j, " has length ", t, " along its axis; scan input 0 has ",
            length);
    if (t >= 0) length = t;
  }
  std::vector<ValueInfo> body_out;
  try {
    body_out = infer_graph_outputs(*p.body, body_inputs(p, in));
  } catch (const Error& e) {
    fail("body: ", e.what());
  }
  std::vector<ValueInfo> out;
  for (size_t i = 0; i < p.states; ++i) {
    const ValueInfo &v = in[i], &b = body_out[i];
    require(b.dtype == DType::undefined || b.dtype == v.dtype, "state ", i, " is ", dtype_name(v.dtype),
            " but the body gives ", dtype_name(b.dtype));
    require(!b.rank_known || b.shape == v.shape, "state ", i, " has shape ", to_string(v.shape), " but the body gives ",
            to_string(b.shape), "; cnnx plans one shape per state");
    out.push_back(ValueInfo::of(v.dtype, v.shape));
  }
  for (size_t k = 0; k < p.scan_outputs; ++k) {
    const ValueInfo& b = body_out[p.states + k];
    if (!b.rank_known) {
      out.push_back(ValueInfo::unknown(b.dtype));
      continue;
    }
    Shape shape = b.shape;
    const int64_t axis = normalize_axis(p.output_axes[k], b.rank() + 1, "scan_output_axes");
    shape.insert(shape.begin() + axis, length);
    out.push_back(ValueInfo::of(b.dtype, shape));
  }
  return out;
}

Kernel<ScanParams> scan_kernel() { return {"ref", compile_scan, nullptr}; }

}  // namespace cnnx
