#include "runtime/plan.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <omp.h>

#include <list>
#include <optional>
#include <unordered_set>

#include "engine/compare.h"
#include "engine/deferred_folding.h"
#include "dnnl/layouts.h"
#include "dnnl/run_state.h"
#include "dnnl/prepared_weights.h"
#include "engine/hot_buffer.h"
#include "engine/node_eval.h"
#include "engine/releasable_pages.h"
#include "engine/subgraph.h"
#include "dnnl/thread_scope.h"
#include "passes/bfloat16_plan.h"
#include "ops/cast/round_to_float16.h"
#include "passes/pass.h"
#include "runtime/data_run.h"
#include "runtime/memory_plan.h"

namespace cnnx {

// One run's state, reused by later runs (one at a time): the memory for the intermediate values (64-byte
// aligned), the tensors every step reads and writes (per value id: the arena's values over their bytes and
// the plan's constants, made once; graph inputs and outputs set for each run and dropped after it), each
// step's KernelIO over them, and the run's context: oneDNN's stream, scratchpad and the memory objects the
// kernels made over them (dnnl/run_state.h).
// Made once, they spare each run ~1 us of allocations per step on the calling thread.
struct Plan::Arena {
  Arena(const Plan& plan) : buffer(allocate_hot_buffer(plan.arena_bytes_)) {
    const Graph& g = *plan.graph_;
    values.resize(g.values.size());
    for (size_t id = 0; id < plan.slots_.size(); ++id) {
      const ValueSlot& slot = plan.slots_[id];
      const ValueInfo& vi = g.values[id].info;
      if (slot.kind == ValueSlot::constant) values[id] = *vi.constant;
      if (slot.kind == ValueSlot::arena) values[id] = Tensor::borrow(vi.dtype, vi.shape, data() + slot.offset);
    }
    for (const PlanStep& step : plan.steps_) {
      KernelIO& step_io = io.emplace_back();
      for (int id : step.inputs) step_io.in.push_back(id >= 0 ? &values[size_t(id)] : nullptr);
      for (int id : step.outputs) step_io.out.push_back(id >= 0 ? &values[size_t(id)] : nullptr);
      step_io.context = &context;
    }
  }
  char* data() const { return static_cast<char*>(buffer.get()); }
  std::shared_ptr<void> buffer;
  std::vector<Tensor> values;
  std::vector<KernelIO> io;  // per step
  DnnlRunState dnnl;
  RunContext context{&dnnl};
};

// The unplanned part of a plan (plan.h): `node`, whose output shapes come from data, and the graph of the
// nodes after it, whose inputs are the values the plan hands on (`reads`, its graph's outputs), then `node`'s
// outputs, and whose outputs are the model's; with what it takes to plan that graph, and the plans made so far
// per shape of `node`'s outputs.
struct Plan::Tail {
  Node node;
  std::shared_ptr<const Graph> rest;
  std::vector<int> reads;
  Backend backend = Backend::ref;
  std::vector<std::string> disabled_passes, disabled_kernels;
  PlanLimits limits;
  PlanContext context;
  std::mutex mutex;
  std::list<std::pair<std::string, std::shared_ptr<const Plan>>> plans;  // most recently used first
};

Plan::Plan() = default;
Plan::~Plan() = default;

namespace {

// Steps reading and writing less than this run on the calling thread alone. Splitting them costs an OpenMP fork-join
// (a few microseconds, and on a loaded machine a wait for a descheduled thread's next time slice) for
// work that takes a few microseconds on one core. oneDNN fixes a primitive's thread count when it is
// created, so such steps are compiled single-threaded too.
constexpr int64_t kOneThreadBytes = 64 << 10;
// The same for steps that only copy (OpHints::copies_only, the plan's reorders): at 20-100 GB/s from the
// caches, 512 KiB is 5-25 us on one core. Split over 2 threads, shufflenet's Slices (225 KiB) took 2.4 us
// instead of 1.2 and its ChannelShuffles (300 KiB, two oneDNN reorders) 6.6 instead of 5.8.
constexpr int64_t kOneThreadCopyBytes = 512 << 10;

// Counts inputs too: a global pool reads a large plane into a few bytes.
bool small_step(const std::vector<ValueInfo>& in, const std::vector<ValueInfo>& out, int64_t one_thread_bytes) {
  int64_t bytes = 0;
  for (const auto* list : {&in, &out})
    for (const ValueInfo& v : *list)
      if (v.dtype != DType::undefined && v.concrete()) bytes += checked_numel(v.shape) * int64_t(dtype_size(v.dtype));
  return bytes < one_thread_bytes;
}

// The first kernel of the op that compiles for the node on this backend and is not disabled; records why
// earlier ones declined.
std::unique_ptr<CompiledKernel> compile_first(const Node& node, const KernelArgs& args, Backend backend,
                                              const std::vector<std::string>& disabled_kernels, std::string& chosen,
                                              std::vector<std::string>& declined) {
  for (const KernelDef& k : node.def->kernels) {
    if (backend == Backend::ref && k.name != "ref") {
      declined.push_back(k.name + ": --backend ref");
      continue;
    }
    auto disabled = std::find_if(disabled_kernels.begin(), disabled_kernels.end(),
                                 [&](const std::string& name) { return node.def->names_kernel(name, k); });
    if (disabled != disabled_kernels.end() && k.name != "ref") {
      declined.push_back(k.name + ": disabled (--disable-kernel " + *disabled + ")");
      continue;
    }
    Compiled c = k.compile(node.params, args);
    if (c) {
      chosen = k.name;
      return c.take();
    }
    declined.push_back(k.name + ": " + c.reason());
  }
  fail("no kernel runs this node: ", declined.empty() ? "" : declined.back());
}

// A value's bytes in the plain layout (overflow is an error).
int64_t plain_bytes(const ValueInfo& v) {
  return checked_mul(checked_numel(v.shape), int64_t(dtype_size(v.dtype)), "value size");
}

// Step 1: concrete shapes for every value of the plan's graph; nodes whose outputs are all constant are
// folded away (their outputs keep their data). Returns the nodes from the first whose output shapes come
// from data the plan does not have (OpHints::shapes_from_data) on, left out of `g` (split_tail); none else.
std::vector<Node> infer_concrete(Graph& g, const std::vector<ValueInfo>& inputs, int64_t max_tensor_bytes) {
  require(inputs.size() == g.inputs.size(), "expected ", g.inputs.size(), " inputs, got ", inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) g.values[size_t(g.inputs[i])].info = inputs[i];
  std::vector<Node> kept, rest;
  for (Node& node : g.nodes) {
    if (!rest.empty()) {
      rest.push_back(std::move(node));
      continue;
    }
    std::vector<ValueInfo> in;
    for (int id : node.inputs) in.push_back(id >= 0 ? g.values[size_t(id)].info : ValueInfo{});
    defer_dequantized_constant(node, in);
    std::vector<ValueInfo> out = infer_node(node, in, max_tensor_bytes);
    const bool inputs_concrete = std::all_of(in.begin(), in.end(), [](const ValueInfo& v) {
      return v.dtype == DType::undefined || v.concrete();
    });
    const bool outputs_concrete = std::all_of(out.begin(), out.end(), [](const ValueInfo& v) {
      return v.dtype == DType::undefined || v.concrete();
    });
    // An If whose branch computes a shape from data (a detector's batched NMS under `if boxes.numel() > 0`)
    // ends the planned part too: each run infers it with the data, which runs its branch.
    if ((node.def->hints.shapes_from_data || node.def->hints.runs_subgraphs) && inputs_concrete && !outputs_concrete) {
      rest.push_back(std::move(node));
      continue;
    }
    bool folded = true;
    for (size_t i = 0; i < out.size(); ++i) {
      if (node.outputs[i] < 0) continue;
      // Every value within the tensor limit before any kernel is compiled: a kernel may size its own tables by
      // its output (Resize's taps per output cell).
      with_node_context(node, [&] {
        const std::string& name = g.value(node.outputs[i]).name;
        if (!out[i].concrete())
          fail("could not infer the shape of output '", name, "'",
               out[i].rank_known ? " (" + to_string(out[i].shape) + ")" : std::string(),
               ": it depends on data the plan does not have (cnnx plans one shape per value)");
        const int64_t bytes = plain_bytes(out[i]);
        if (bytes > max_tensor_bytes)
          fail("value '", name, "' ", to_string(out[i].shape), " takes ", bytes, " bytes, beyond the tensor limit of ",
               max_tensor_bytes, " (Options::max_tensor_bytes)");
      });
      folded = folded && out[i].constant;
      g.values[size_t(node.outputs[i])].info = out[i];
    }
    if (!folded) kept.push_back(std::move(node));
  }
  g.nodes = std::move(kept);
  return rest;
}

// Step 2b: the folded nodes kept for the passes go (their outputs keep their data).
void drop_folded(Graph& g) {
  std::vector<Node> kept;
  for (Node& node : g.nodes) {
    bool folded = true;
    for (int id : node.outputs) folded = folded && (id < 0 || g.values[size_t(id)].info.constant);
    if (!folded) kept.push_back(std::move(node));
  }
  g.nodes = std::move(kept);
  for (Value& v : g.values) v.producer = -1;
  for (size_t n = 0; n < g.nodes.size(); ++n)
    for (int id : g.nodes[n].outputs)
      if (id >= 0) g.values[size_t(id)].producer = int(n);
}

// The values defined before `rest` (graph inputs and the outputs of g's nodes, constants aside) that `rest` or
// the graph's outputs read, in the order first read: what a plan hands its tail.
std::vector<int> tail_reads(const Graph& g, const std::vector<Node>& rest) {
  std::vector<bool> before(g.values.size(), false), listed(g.values.size(), false);
  for (int id : g.inputs) before[size_t(id)] = true;
  for (const Node& node : g.nodes)
    for (int id : node.outputs)
      if (id >= 0) before[size_t(id)] = true;
  std::vector<int> reads;
  auto read = [&](int id) {
    if (id < 0 || !before[size_t(id)] || listed[size_t(id)] || g.values[size_t(id)].info.constant) return;
    listed[size_t(id)] = true;
    reads.push_back(id);
  };
  for (const Node& node : rest)
    for (int id : node.inputs) read(id);
  for (int id : g.outputs) read(id);
  return reads;
}

// Where a Concat joining along `axis` can be joined in place (its inputs written straight into its output's
// buffer), the byte offset of each input's part in it; empty when it cannot. Each part must be a run of the
// output's bytes laid out as the input's own: plain, with every dim before the axis 1; or channel-blocked
// (nChw8c, ...) along the channels with N = 1 and whole blocks in every part, where [C / b][spatial][b] puts
// channel c0 (a multiple of b) at c0 * spatial elements, as plain does. The plan wishes no blocked layout for
// this (see wished_layouts), but AVX2 machines' convolutions pick nChw8c of their own accord: DenseNet's
// Concats are then joins, not copies.
std::vector<size_t> join_offsets(size_t axis, const std::vector<ValueInfo>& in, const ValueInfo& out,
                                 const std::vector<Layout>& in_layouts, const Layout& out_layout) {
  const Shape& y = out.shape;
  // bfloat16 storage (dnnl/layouts.h) is never joined: the offsets below count the value type's bytes.
  if (stores_bfloat16(out_layout)) return {};
  for (const Layout& l : in_layouts)
    if (stores_bfloat16(l)) return {};
  const int64_t block = channel_block(out_layout, y);
  if (!is_plain(out_layout) && !(block > 0 && axis == 1)) return {};
  for (size_t a = 0; a < axis; ++a)
    if (y[a] != 1) return {};
  const size_t slice = size_t(numel_range(y, axis + 1, y.size())) * dtype_size(out.dtype);  // bytes per index
  std::vector<size_t> offsets;
  size_t along = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const bool run = block > 0 ? channel_block(in_layouts[i], in[i].shape) == block && in[i].shape[1] % block == 0
                               : is_plain(in_layouts[i]);
    if (!run) return {};
    offsets.push_back(along * slice);
    along += size_t(in[i].shape[axis]);
  }
  return offsets;
}

// The layout the plan would like each value in: for a float32 value read only by a Transpose, the layout in
// which the Transpose's output is plain (a producer writing it makes the Transpose a view: attention's head
// merge after its last MatMul). Concats are not wished channel-blocked, which would let them be joined in
// place at batch 1: since channels-last Concats copy each pixel's parts with one memcpy
// (ops/tensor/concat_channels_last.cc), the copies cost less than running their producers and readers
// channel-blocked, where oneDNN's convolutions are slower than channels-last (densenet121 0.91-0.94x and
// densenet169 0.93-0.95x without the joins; bench/README.md, "DenseNet without joins").
std::vector<Layout> wished_layouts(const Graph& g) {
  std::vector<Layout> wished(g.values.size());
  const std::vector<std::vector<int>> consumers = consumers_of(g);
  for (const Node& node : g.nodes) {
    if (!node.def->hints.permutes_axes || node.inputs.empty() || node.inputs[0] < 0) continue;
    const int x = node.inputs[0];
    const ValueInfo& in = g.values[size_t(x)].info;
    if (in.dtype != DType::f32 || !used_once(g, consumers, x)) continue;
    wished[size_t(x)] = transposed_plain_layout(in.shape, node.def->hints.permutes_axes(*node.params, {in}));
  }
  return wished;
}

// Step 3, kernels: per node in order, the first kernel that compiles for its concrete inputs (compile_first),
// offered the layouts its inputs arrive in (their producers' choices) and those its outputs' readers wish
// (wished_layouts). `layouts` (per value, plain to begin with) takes each output's chosen layout. The steps
// read and write the node's own values; plan_reorders gives them copies where they want other layouts.
std::vector<PlanStep> plan_kernels(const Graph& g, Backend backend, const std::vector<std::string>& disabled_kernels,
                                   int64_t max_tensor_bytes, const CompileContext& plan_context,
                                   std::vector<Layout>& layouts) {
  const std::vector<Layout> wished =
      backend == Backend::dnnl ? wished_layouts(g) : std::vector<Layout>(g.values.size());
  const std::vector<std::vector<int>> consumers = consumers_of(g);
  std::vector<PlanStep> steps;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& node = g.nodes[n];
    PlanStep step;
    step.node = int(n);
    step.inputs = node.inputs;
    step.outputs = node.outputs;
    // bfloat16 storage (dnnl/layouts.h) only for the kernels that read it; the plan reorders for the others.
    const bool native_plan = plan_context.precision == Precision::bf16;
    const bool reads_storage = native_plan && reads_bfloat16_storage(node);
    KernelLayouts offered;
    for (int id : node.inputs) {
      step.in.push_back(id >= 0 ? g.values[size_t(id)].info : ValueInfo{});
      const Layout arriving = id >= 0 ? layouts[size_t(id)] : Layout();
      offered.in.push_back(reads_storage ? arriving : float32_layout(arriving));
    }
    for (int id : node.outputs) offered.out.push_back(id >= 0 ? wished[size_t(id)] : Layout());
    with_node_context(node, [&] {
      // Passes made new nodes from shapes they computed: infer again so a wrong rewrite fails here.
      step.out = infer_node(node, step.in, max_tensor_bytes);
      for (size_t i = 0; i < node.outputs.size(); ++i) {
        const int id = node.outputs[i];
        if (id >= 0 && step.out[i].shape != g.values[size_t(id)].info.shape)
          fail("output '", g.values[size_t(id)].name, "' was planned with shape ",
               to_string(g.values[size_t(id)].info.shape), " but infers ", to_string(step.out[i].shape));
      }
      step.one_thread = small_step(step.in, step.out, node.def->hints.copies_only ? kOneThreadCopyBytes : kOneThreadBytes);
      CompileContext context = plan_context;
      context.threads = step.one_thread ? 1 : plan_context.threads;
      if (node.precision != Precision::bf16) context.precision = Precision::f32;
      context.store_bfloat16 = native_plan && output_read_rounded(g, consumers, node);
      ThreadScope threads(context.threads);
      step.exec = compile_first(node, {step.in, step.out, offered, context}, backend, disabled_kernels, step.kernel,
                                step.declined);
      if (step.kernel != "ref") step.ref_exec = compile_reference(*node.def, node.params, step.in, step.out);
    });
    step.layouts.in.resize(node.inputs.size());
    step.layouts.out.resize(node.outputs.size());
    if (const KernelLayouts* chosen = step.exec->layouts()) step.layouts = *chosen;
    for (size_t i = 0; i < node.outputs.size(); ++i)
      if (node.outputs[i] >= 0) layouts[size_t(node.outputs[i])] = step.layouts.out[i];
    steps.push_back(std::move(step));
  }
  return steps;
}

// A step copying value `id`, held in layout `from`, to value `copy` in layout `to`.
PlanStep reorder_step(const Graph& g, int id, int copy, const Layout& from, const Layout& to, int threads) {
  PlanStep step;
  step.kernel = "reorder";
  step.inputs = {id};
  step.outputs = {copy};
  step.in = step.out = {g.values[size_t(copy)].info};
  step.one_thread = small_step(step.in, step.out, kOneThreadCopyBytes);
  try {
    ThreadScope team(step.one_thread ? 1 : threads);
    step.exec = make_reorder(from, to, g.values[size_t(id)].info.shape, g.values[size_t(id)].info.dtype);
  } catch (const Error& e) {
    fail("value '", g.values[size_t(id)].name, "': ", e.what());
  }
  step.layouts = *step.exec->layouts();
  return step;
}

// Step 3, layouts: the steps in run order, with a reorder step before each that wants an input in another
// layout than it arrives in, and at the end for each graph output not plain. One copy per value and layout
// serves all its readers. Copies are values added to `g`, their layouts appended to `layouts`. `outputs`
// gets the values holding the graph outputs, plain.
std::vector<PlanStep> plan_reorders(Graph& g, std::vector<PlanStep> node_steps, std::vector<Layout>& layouts,
                                    std::vector<int>& outputs, int threads) {
  std::vector<PlanStep> steps;
  std::map<std::pair<int, std::string>, int> copies;  // (value, target layout) -> the copy
  auto in_layout = [&](int id, const Layout& to) -> int {
    const Layout from = layouts[size_t(id)];  // a copy: layouts grows below
    if (from == to) return id;
    const ValueInfo info = g.values[size_t(id)].info;
    require(info.dtype == DType::f32 || info.dtype == DType::u8 || info.dtype == DType::i8, "value '",
            g.values[size_t(id)].name, "' (", dtype_name(info.dtype), ") cannot be reordered to a oneDNN layout");
    const std::string key = is_plain(to) ? std::string("plain") : to.name();
    auto [it, fresh] = copies.insert({{id, key}, -1});
    if (!fresh) return it->second;
    it->second = add_value(g, g.values[size_t(id)].name + "@" + key, ValueInfo::of(info.dtype, info.shape));
    layouts.push_back(to);
    steps.push_back(reorder_step(g, id, it->second, from, to, threads));
    return it->second;
  };
  for (PlanStep& step : node_steps) {
    for (size_t i = 0; i < step.inputs.size(); ++i)
      if (step.inputs[i] >= 0) step.inputs[i] = in_layout(step.inputs[i], step.layouts.in[i]);
    steps.push_back(std::move(step));
  }
  for (int id : g.outputs) outputs.push_back(in_layout(id, Layout()));
  return steps;
}

// Step 4 in part: where each value lives, but for the arena (plan_arena): constants, graph inputs and the
// values holding graph outputs (when no constant or input), in the layouts step 3 chose.
std::vector<ValueSlot> value_slots(const Graph& g, const std::vector<Layout>& layouts,
                                   const std::vector<int>& outputs) {
  std::vector<ValueSlot> slots(g.values.size());
  for (size_t id = 0; id < g.values.size(); ++id) {
    slots[id].layout = layouts[id];
    if (g.values[id].info.constant) slots[id].kind = ValueSlot::constant;
  }
  for (int id : g.inputs) slots[size_t(id)].kind = ValueSlot::input;
  for (int id : outputs)
    if (slots[size_t(id)].kind == ValueSlot::none) slots[size_t(id)].kind = ValueSlot::output;
  return slots;
}

// Step 4 in part: the values the arena holds (written by a step, and no constant, graph input or graph
// output) with their exact sizes, every one within the tensor limit (graph outputs too: they are allocated
// per run outside the arena, bounded all the same).
void size_arena_values(const Graph& g, const std::vector<int>& first, std::vector<ValueSlot>& slots,
                       int64_t max_tensor_bytes) {
  for (size_t id = 0; id < g.values.size(); ++id) {
    ValueSlot& slot = slots[id];
    const ValueInfo& info = g.values[id].info;
    if (slot.kind == ValueSlot::output) {
      const int64_t bytes = plain_bytes(info);
      if (bytes > max_tensor_bytes)
        fail("graph output '", g.values[id].name, "' ", to_string(info.shape), " takes ", bytes,
             " bytes, beyond the tensor limit of ", max_tensor_bytes, " (Options::max_tensor_bytes)");
    }
    if (slot.kind != ValueSlot::none || first[id] < 0) continue;
    slot.kind = ValueSlot::arena;
    const int64_t bytes = is_plain(slot.layout)
                              ? plain_bytes(info)
                              : int64_t(slot.layout.desc()->bytes());
    if (bytes > max_tensor_bytes)
      fail("value '", g.values[id].name, "' ", to_string(info.shape), " takes ", bytes,
           " bytes, beyond the tensor limit of ", max_tensor_bytes, " (Options::max_tensor_bytes)");
    slot.bytes = size_t(bytes);
  }
}

// Step 4 in part: what the steps ask to share, where it is sound in itself (runtime/memory_plan.h), in
// buffer numbers (`buffer`: per value id, -1 outside the arena). Views: kernels whose output is their input's
// bytes (CompiledKernel::views_input: Reshape and the like, a Transpose of a dense layout, a reorder between
// layouts of the same bytes). Joins: a
// Concat whose parts are runs of its output (join_offsets). In place: a kernel's in_place_input().
std::vector<ShareRequest> share_requests(const Graph& g, const std::vector<PlanStep>& steps,
                                         const std::vector<ValueSlot>& slots, const std::vector<int>& buffer) {
  auto in_arena = [&](int id) { return id >= 0 && buffer[size_t(id)] >= 0; };
  // Two values may share a buffer when both live in the arena with one layout and size.
  auto shareable = [&](int in, int out) {
    return in_arena(in) && in_arena(out) && slots[size_t(in)].bytes == slots[size_t(out)].bytes &&
           slots[size_t(in)].layout == slots[size_t(out)].layout;
  };
  auto buffers = [&](std::vector<int> ids) {
    for (int& id : ids) id = buffer[size_t(id)];
    return ids;
  };
  std::vector<ShareRequest> requests;
  for (size_t s = 0; s < steps.size(); ++s) {
    const PlanStep& step = steps[s];
    const Node* node = step.node >= 0 ? &g.nodes[size_t(step.node)] : nullptr;
    const int out = step.outputs.empty() ? -1 : step.outputs[0];
    const bool views = step.exec->views_input() && in_arena(step.inputs[0]) && in_arena(out) &&
                       slots[size_t(step.inputs[0])].bytes == slots[size_t(out)].bytes;
    if (views)
      requests.push_back({ShareRequest::view, int(s), buffer[size_t(out)], buffers({step.inputs[0]}), {}, {}});
    if (node && node->def->hints.joins_inputs_along && in_arena(out)) {
      const size_t axis = node->def->hints.joins_inputs_along(*node->params, step.in);
      std::vector<size_t> offsets = join_offsets(axis, step.in, step.out[0], step.layouts.in, step.layouts.out[0]);
      if (!offsets.empty() && std::all_of(step.inputs.begin(), step.inputs.end(), in_arena))
        requests.push_back(
            {ShareRequest::join, int(s), buffer[size_t(out)], buffers(step.inputs), std::move(offsets), {}});
    }
    const int k = step.exec->in_place_input();
    if (k < 0 || size_t(k) >= step.inputs.size() || !shareable(step.inputs[size_t(k)], out)) continue;
    std::vector<int> also_read;
    for (size_t j = 0; j < step.inputs.size(); ++j)
      if (j != size_t(k) && in_arena(step.inputs[j])) also_read.push_back(buffer[size_t(step.inputs[j])]);
    requests.push_back(
        {ShareRequest::in_place, int(s), buffer[size_t(out)], buffers({step.inputs[size_t(k)]}), {}, also_read});
  }
  return requests;
}

// Step 4: the arena (runtime/memory_plan.h). Sets the slots of the values it holds and marks the steps
// whose output already is their inputs' bytes (granted views and joins) as views; returns the arena's size.
size_t plan_arena(const Graph& g, std::vector<PlanStep>& steps, std::vector<ValueSlot>& slots,
                  const PlanLimits& limits) {
  std::vector<int> first(g.values.size(), -1), last(g.values.size(), -1);
  for (size_t s = 0; s < steps.size(); ++s) {
    for (int id : steps[s].outputs)
      if (id >= 0) first[size_t(id)] = last[size_t(id)] = int(s);
    for (int id : steps[s].inputs)
      if (id >= 0) last[size_t(id)] = int(s);
  }
  size_arena_values(g, first, slots, limits.max_tensor_bytes);
  std::vector<int> buffer(g.values.size(), -1), value;  // value id <-> buffer number
  std::vector<Buffer> buffers;
  for (size_t id = 0; id < g.values.size(); ++id)
    if (slots[id].kind == ValueSlot::arena) {
      buffer[id] = int(buffers.size());
      value.push_back(int(id));
      buffers.push_back({slots[id].bytes, first[id], last[id]});
    }
  const std::vector<ShareRequest> requests = share_requests(g, steps, slots, buffer);
  const MemoryPlan m = plan_memory(buffers, requests);
  for (size_t b = 0; b < buffers.size(); ++b) slots[size_t(value[b])].offset = m.offsets[b];
  for (size_t r = 0; r < requests.size(); ++r)
    if (m.granted[r] && requests[r].kind != ShareRequest::in_place) steps[size_t(requests[r].step)].view = true;
  if (m.arena_bytes > uint64_t(limits.max_arena_bytes))
    fail("the intermediate values of one run need ", m.arena_bytes, " bytes, beyond the arena limit of ",
         limits.max_arena_bytes, " (Options::max_arena_bytes)");
  return m.arena_bytes;
}

// The data of the constants read while the plan runs: inputs their steps' kernels read at run time, those a
// reorder step will read (an input wanted in another layout), and graph outputs (copied out). Kernels that
// prepared a constant at compile time do not read it (CompiledKernel::reads_input_at_run).
std::unordered_set<const void*> constants_read_at_run(const Graph& g, const std::vector<PlanStep>& steps) {
  std::unordered_set<const void*> read;
  for (int id : g.outputs)
    if (g.values[size_t(id)].info.constant) read.insert(g.values[size_t(id)].info.constant->raw());
  for (const PlanStep& step : steps)
    for (size_t i = 0; i < step.inputs.size(); ++i) {
      const int id = step.inputs[i];
      if (id < 0 || !g.values[size_t(id)].info.constant) continue;
      if (step.exec->reads_input_at_run(i) || !is_plain(step.layouts.in[i]))
        read.insert(g.values[size_t(id)].info.constant->raw());
    }
  return read;
}

// Plans the subgraphs of If and Loop nodes (engine/subgraph.h) as plans of their own, with the enclosing
// plan's backend, options, limits and team.
class SubgraphPlans final : public SubgraphPlanner {
 public:
  SubgraphPlans(Backend backend, const std::vector<std::string>& disabled_passes,
                const std::vector<std::string>& disabled_kernels, const PlanLimits& limits, const PlanContext& context)
      : backend_(backend), passes_(disabled_passes), kernels_(disabled_kernels), limits_(limits), context_(context) {}

  std::shared_ptr<const PlannedSubgraph> plan(const Graph& graph, const std::vector<ValueInfo>& inputs) const override {
    auto planned = std::make_shared<Planned>();
    planned->plan = Plan::build(std::make_shared<const Graph>(graph), inputs, backend_, passes_, kernels_, limits_, context_);
    for (int id : planned->plan->graph().outputs) planned->infos.push_back(planned->plan->info(id));
    return planned;
  }
  int64_t max_loop_iterations() const override { return limits_.max_loop_iterations; }

 private:
  struct Planned final : PlannedSubgraph {
    std::shared_ptr<const Plan> plan;
    std::vector<ValueInfo> infos;
    std::vector<Tensor> run(const std::vector<Tensor>& inputs) const override { return plan->run(inputs); }
    const std::vector<ValueInfo>& outputs() const override { return infos; }
  };
  Backend backend_;
  const std::vector<std::string>& passes_;
  const std::vector<std::string>& kernels_;
  PlanLimits limits_;
  PlanContext context_;
};

}  // namespace

std::shared_ptr<const Plan> Plan::build(std::shared_ptr<const Graph> model_graph, const std::vector<ValueInfo>& inputs,
                                        Backend backend, const std::vector<std::string>& disabled_passes,
                                        const std::vector<std::string>& disabled_kernels, const PlanLimits& limits,
                                        const PlanContext& context) {
  auto plan = std::make_shared<Plan>();
  plan->graph_ = std::make_shared<Graph>(*model_graph);
  plan->backend_ = backend;
  plan->precision_ = context.precision;
  plan->threads_ = context.threads > 0 ? context.threads : omp_get_max_threads();
  Graph& g = *plan->graph_;

  std::vector<Node> rest = infer_concrete(g, inputs, limits.max_tensor_bytes);  // 1. shapes
  if (!rest.empty()) {  // shapes from data: the plan computes what the rest reads (plan.h)
    auto tail = std::make_unique<Tail>();
    tail->reads = tail_reads(g, rest);
    // The constants the tail reads stay readable for the plans it makes later (engine/releasable_pages.h).
    for (const Node& node : rest)
      for (int id : node.inputs)
        if (id >= 0 && g.values[size_t(id)].info.constant)
          if (std::shared_ptr<void> pin = pin_pages(g.values[size_t(id)].info.constant->raw()))
            plan->pins_.push_back(std::move(pin));
    auto graph = std::make_shared<Graph>(g);
    graph->nodes.assign(std::make_move_iterator(rest.begin() + 1), std::make_move_iterator(rest.end()));
    graph->inputs = tail->reads;
    for (int id : rest[0].outputs)
      if (id >= 0) graph->inputs.push_back(id);
    graph->captured = 0;
    tail->node = std::move(rest[0]);
    tail->rest = std::move(graph);
    tail->backend = backend;
    tail->disabled_passes = disabled_passes;
    tail->disabled_kernels = disabled_kernels;
    tail->limits = limits;
    // Its plans are made while runs go on: no shared weight store.
    tail->context = {plan->threads_, nullptr, context.precision, context.native_bfloat16};
    g.outputs = tail->reads;
    plan->tail_ = std::move(tail);
  }
  plan->pass_reports_ = run_graph_passes(g, disabled_passes);  // 2. passes
  drop_folded(g);
  if (context.precision == Precision::bf16) {
    plan->pass_reports_.push_back(plan_bfloat16(g, context.native_bfloat16));
    // A model constant with more than one reader keeps its float32 bytes: released, it would come back rounded
    // to bfloat16 (dnnl/prepared_weights.h) for a reader that wants float32 (a later plan's BatchNormalization
    // fold of a weight another Conv shares).
    if (context.native_bfloat16) {
      const Graph& model = *model_graph;
      const std::vector<std::vector<int>> readers = consumers_of(model);
      for (size_t id = 0; id < model.values.size(); ++id)
        if (readers[id].size() > 1 && model.values[id].info.constant)
          if (std::shared_ptr<void> pin = pin_pages(model.values[id].info.constant->raw()))
            plan->pins_.push_back(std::move(pin));
    }
  }
  std::vector<Layout> layouts(g.values.size());        // 3. kernels, then layouts
  HotBufferPacking packing;    // the plan's small prepared weights share huge pages with each other only
  PreparedWeightBatch weights;  // their constant weights reordered together, below
  PlanContext body_context = context;
  body_context.threads = plan->threads_;
  const SubgraphPlans subgraphs(backend, disabled_passes, disabled_kernels, limits, body_context);
  // A native bfloat16 plan tells each bf16 node's kernel (plan_kernels); an emulated one tells none.
  const Precision kernels_may = context.native_bfloat16 ? context.precision : Precision::f32;
  const CompileContext compile{plan->threads_, kernels_may, &packing, context.weights, &weights, &subgraphs};
  ThreadScope team(plan->threads_);
  std::vector<PlanStep> node_steps = plan_kernels(g, backend, disabled_kernels, limits.max_tensor_bytes, compile, layouts);
  for (const void* data : constants_read_at_run(g, node_steps))
    if (std::shared_ptr<void> pin = pin_pages(data)) plan->pins_.push_back(std::move(pin));
  weights.fill();  // releases the unpinned constants they prepared
  plan->steps_ = plan_reorders(g, std::move(node_steps), layouts, plan->outputs_, plan->threads_);
  plan->slots_ = value_slots(g, layouts, plan->outputs_);  // 4. memory
  plan->arena_bytes_ = plan_arena(g, plan->steps_, plan->slots_, limits);
  return plan;
}

std::unique_ptr<Plan::Arena> Plan::acquire_arena() const {
  {
    std::lock_guard<std::mutex> lock(arenas_mutex_);
    if (!free_arenas_.empty()) {
      std::unique_ptr<Arena> arena = std::move(free_arenas_.back());
      free_arenas_.pop_back();
      return arena;
    }
  }
  return std::make_unique<Arena>(*this);
}

void Plan::release_arena(std::unique_ptr<Arena> arena) const {
  std::lock_guard<std::mutex> lock(arenas_mutex_);
  free_arenas_.push_back(std::move(arena));
}

namespace {

// A plain copy of a value held in `layout` (for comparing with reference kernels), made with the run's context.
Tensor plain_copy(const Tensor& t, const Layout& layout, RunContext* context) {
  if (is_plain(layout)) return t;
  Tensor plain(t.dtype(), t.shape());
  make_reorder(layout, Layout(), t.shape(), t.dtype())->run({{&t}, {&plain}, context});
  return plain;
}

// Plain copies of a step's inputs, taken before it runs (it may write over one of them in place).
std::vector<Tensor> plain_inputs(const PlanStep& step, const KernelIO& io) {
  std::vector<Tensor> plain(io.in.size());
  for (size_t i = 0; i < io.in.size(); ++i)
    if (io.in[i])
      plain[i] = is_plain(step.layouts.in[i]) ? io.in[i]->clone() : plain_copy(*io.in[i], step.layouts.in[i], io.context);
  return plain;
}

// Where the plan honours engine/op.h's "reference kernels get their outputs zero-filled before each run": a
// "ref" step's outputs in the arena (which hold an earlier value's bytes) and its graph outputs (allocated
// uninitialized by Plan::run) are zeroed here before it runs. The outputs of the reference kernels that
// check_step runs are new tensors, zero-filled when allocated. A view's step does not run; other kernels write
// every byte.
void zero_fill_for_reference(const PlanStep& step, const std::vector<ValueSlot>& slots, std::vector<Tensor>& values) {
  if (step.kernel != "ref" || step.view) return;
  for (int id : step.outputs)
    if (id >= 0 && (slots[size_t(id)].kind == ValueSlot::arena || slots[size_t(id)].kind == ValueSlot::output))
      std::memset(values[size_t(id)].raw(), 0, values[size_t(id)].bytes());
}

// Runs the reference kernel on plain copies of the step's inputs and compares with what the chosen kernel
// wrote (made plain too).
NodeCheck check_step(const Node& node, const PlanStep& step, const std::vector<Tensor>& plain_in, const KernelIO& io) {
  const Tolerance tol = node.def->tolerance;
  NodeCheck c{node.name, node.op_type, step.kernel, 0, 0, tol.abs, tol.rel, tol.terms_rel, 0, true, ""};
  std::vector<Tensor> want(io.out.size());
  KernelIO ref_io;
  for (size_t i = 0; i < io.in.size(); ++i) ref_io.in.push_back(io.in[i] ? &plain_in[i] : nullptr);
  // A native bfloat16 kernel rounds some inputs itself (passes/bfloat16_plan.h): the reference reads them rounded.
  std::vector<Tensor> rounded;
  rounded.reserve(io.in.size());
  for (size_t i : bfloat16_kernel_converts(node, step.in))
    if (i < io.in.size() && io.in[i] && plain_in[i].dtype() == DType::f32) {
      rounded.push_back(rounded_to_bfloat16(plain_in[i]));
      ref_io.in[i] = &rounded.back();
    }
  for (size_t i = 0; i < io.out.size(); ++i) {
    if (io.out[i]) want[i] = Tensor(io.out[i]->dtype(), io.out[i]->shape());
    ref_io.out.push_back(io.out[i] ? &want[i] : nullptr);
  }
  (step.ref_exec ? *step.ref_exec : *step.exec).run(ref_io);  // a view's kernel may be the reference itself
  const std::vector<Tensor> magnitudes = term_magnitudes(*node.def, node.params, step.in, step.out, ref_io.in);
  for (size_t i = 0; i < io.out.size(); ++i) {
    if (!io.out[i]) continue;
    // An output the kernel stores in bfloat16 (dnnl/layouts.h) is rounded once more: half a bfloat16 ulp, at
    // most 2^-8 of its magnitude.
    Tolerance out_tol = tol;
    if (stores_bfloat16(step.layouts.out[i])) out_tol.rel += 1.0 / 256;
    Difference d = compare(plain_copy(*io.out[i], step.layouts.out[i], io.context), want[i], out_tol,
                           magnitudes.empty() ? nullptr : &magnitudes[i]);
    c.max_abs = std::max(c.max_abs, d.max_abs);
    c.max_rel = std::max(c.max_rel, d.max_rel);
    c.max_ratio = std::max(c.max_ratio, d.max_ratio);
    if (!d.within && c.within) c.detail = "output " + std::to_string(i) + ": " + d.detail;
    c.within = c.within && d.within;
  }
  return c;
}

}  // namespace

std::vector<Tensor> Plan::run(const std::vector<Tensor>& inputs, std::vector<NodeCheck>* checks,
                              std::vector<double>* step_ms, const StepObserver* observe) const {
  const Graph& g = *graph_;
  require(inputs.size() == g.inputs.size(), "expected ", g.inputs.size(), " inputs, got ", inputs.size());
  // The one shape check of a run: every other value has the shape it was planned with, so kernels trust it.
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ValueInfo& planned = info(g.inputs[i]);
    if (inputs[i].shape() != planned.shape || inputs[i].dtype() != planned.dtype)
      fail("input '", g.values[size_t(g.inputs[i])].name, "' was planned as ", dtype_name(planned.dtype), " ",
           to_string(planned.shape), ", got ", dtype_name(inputs[i].dtype()), " ", to_string(inputs[i].shape()));
  }
  std::unique_ptr<Arena> arena = acquire_arena();
  std::vector<Tensor>& values = arena->values;
  struct Return {  // drops the run's inputs and outputs and gives the arena back however the run ends
    const Plan* plan;
    std::unique_ptr<Arena>& arena;
    ~Return() {
      for (int id : plan->graph_->inputs) arena->values[size_t(id)] = Tensor();
      for (int id : plan->outputs_)
        if (plan->slots_[size_t(id)].kind == ValueSlot::output) arena->values[size_t(id)] = Tensor();
      plan->release_arena(std::move(arena));
    }
  } give_back{this, arena};
  for (size_t i = 0; i < inputs.size(); ++i) values[size_t(g.inputs[i])] = inputs[i];
  // Graph outputs are new per run (the caller keeps them); their producers write every element, as into any
  // arena buffer, so they are not zero-filled first (a memset of a decoder's output was 10-19% of a run), but
  // for a reference kernel's (zero_fill_for_reference).
  for (int id : outputs_)
    if (slots_[size_t(id)].kind == ValueSlot::output) values[size_t(id)] = Tensor::uninitialized(info(id).dtype, info(id).shape);
  // Checks run extra oneDNN reorders between the steps: kept memory objects would be handed around.
  arena->dnnl.begin_run(!checks);
  ThreadScope team(threads_);

  if (step_ms) step_ms->resize(steps_.size());
  for (size_t s = 0; s < steps_.size(); ++s) {
    const PlanStep& step = steps_[s];
    struct Timer {  // adds the step's time however it ends
      std::vector<double>* out;
      size_t s;
      std::chrono::steady_clock::time_point start;
      ~Timer() {
        if (out) (*out)[s] += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      }
    } timer{step_ms, s, step_ms ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point()};
    const KernelIO& io = arena->io[s];
    auto show = [&] {
      if (!observe || step.node < 0) return;
      for (size_t k = 0; k < step.outputs.size(); ++k)
        if (step.outputs[k] >= 0 && io.out[k])
          (*observe)(g.nodes[size_t(step.node)], step.outputs[k], plain_copy(*io.out[k], step.layouts.out[k], io.context));
    };
    if (step.view && !checks) {  // the output already is the input's bytes
      show();
      continue;
    }
    ThreadScope one(step.one_thread ? 1 : 0);
    zero_fill_for_reference(step, slots_, values);
    if (step.node < 0) {
      step.exec->run(io);
      continue;
    }
    const Node& node = g.nodes[size_t(step.node)];
    with_node_context(node, [&] {
      if (step.view) {  // nothing runs: check that the shared bytes hold what the kernel would have written
        checks->push_back(check_step(node, step, plain_inputs(step, io), io));
        return;
      }
      const bool check = checks && step.ref_exec;
      const std::vector<Tensor> inputs_before = check ? plain_inputs(step, io) : std::vector<Tensor>();
      step.exec->run(io);
      if (check) checks->push_back(check_step(node, step, inputs_before, io));
    });
    show();
  }
  std::vector<Tensor> outputs;
  for (int id : outputs_) {
    // Constants belong to the plan and inputs to the caller: hand out copies the caller may change. What a plan
    // hands its tail is only read, while this run (and the plan) lives: no copy (a detector's tail of 180
    // NonZero/NMS segments passed every later class's scores on, copied at each segment).
    const ValueSlot::Kind kind = slots_[size_t(id)].kind;
    outputs.push_back(kind == ValueSlot::output || tail_ ? values[size_t(id)] : values[size_t(id)].clone());
  }
  return tail_ ? run_tail(outputs, checks) : outputs;
}

// Plans kept per tail: a detector's count of boxes takes a few values in practice; beyond, the least recently
// used plan is dropped (and made again when its shapes come back).
constexpr size_t kTailPlans = 8;

std::vector<Tensor> Plan::run_tail(const std::vector<Tensor>& handed, std::vector<NodeCheck>* checks) const {
  const Tail& t = *tail_;
  const Graph& g = *t.rest;
  auto handed_value = [&](int id) -> const Tensor* {
    auto at = std::find(t.reads.begin(), t.reads.end(), id);
    return at != t.reads.end() ? &handed[size_t(at - t.reads.begin())] : g.values[size_t(id)].info.constant.get();
  };
  // The node, run with its inputs' data (runtime/data_run.h), under the plan's limits.
  std::vector<const Tensor*> in;
  for (int id : t.node.inputs) in.push_back(id >= 0 ? handed_value(id) : nullptr);
  DataRun data(t.limits, checks);
  std::vector<Tensor> out = data.run_node(t.node, in);
  std::vector<Tensor> inputs(handed);
  std::vector<ValueInfo> infos;
  std::string key;
  for (const Tensor& x : handed) infos.push_back(ValueInfo::of(x.dtype(), x.shape()));
  for (size_t i = 0; i < t.node.outputs.size(); ++i) {
    if (t.node.outputs[i] < 0) continue;
    infos.push_back(ValueInfo::of(out[i].dtype(), out[i].shape()));
    key += to_string(out[i].shape()) + ";";
    inputs.push_back(std::move(out[i]));
  }
  std::shared_ptr<const Plan> plan;
  {
    std::lock_guard<std::mutex> lock(tail_->mutex);
    auto& plans = tail_->plans;
    auto it = std::find_if(plans.begin(), plans.end(), [&](const auto& p) { return p.first == key; });
    if (it != plans.end()) {
      plans.splice(plans.begin(), plans, it);
    } else {
      plans.emplace_front(key, Plan::build(t.rest, infos, t.backend, t.disabled_passes, t.disabled_kernels, t.limits,
                                           t.context));
      if (plans.size() > kTailPlans) plans.pop_back();
    }
    plan = plans.front().second;
  }
  return plan->run(inputs, checks);
}

}  // namespace cnnx
