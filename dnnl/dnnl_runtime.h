// The oneDNN runtime every dnnl kernel shares: one CPU engine for the process, attributes, execution on a
// run's stream and scratchpad (dnnl/run_state.h), memory over cnnx tensors, layout reorders and the checks
// behind `declines`.
//
// Thread safety: a compiled kernel creates its primitives once and runs them from any number of threads, each
// run with its own RunContext. oneDNN's library-managed scratchpad is shared by all primitives and ties a
// primitive to the thread that created it, so every cnnx primitive is made with scratchpad_mode::user and
// gets its run's scratchpad.
#pragma once

#include <memory>
#include <oneapi/dnnl/dnnl.hpp>

#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dnnl/layouts.h"
#include "dnnl/run_state.h"
#include "engine/layout.h"
#include "engine/op.h"

namespace cnnx {

// The short names of oneDNN's own examples, for the kernels that describe memory.
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

dnnl::engine& dnnl_engine();

// A plain (row-major) f32 memory descriptor for a concrete shape; dims as oneDNN wants them.
dnnl::memory::desc plain_f32_desc(const std::vector<int64_t>& shape);

// One argument of a primitive: a memory object made at compile time (prepared weights), or bytes of a run
// (a tensor's) described by `md`, which dnnl_execute hands over as a memory object of the run's
// (dnnl/run_state.h: kept from the run before when equal). `md` is not copied (a descriptor is ~700 bytes,
// and a step passes 3 to 6): it must outlive the execution, as a kernel's member or a descriptor made in
// the same full expression does.
struct DnnlMemoryArg {
  DnnlMemoryArg(dnnl::memory m) : memory(std::move(m)) {}  // NOLINT: a memory object converts
  DnnlMemoryArg(const dnnl::memory::desc& md, void* data) : md(&md), data(data) {}
  dnnl::memory memory;
  const dnnl::memory::desc* md = nullptr;
  void* data = nullptr;
};

// A primitive's arguments (DNNL_ARG_*): a few, so kept in a vector (no hashing, one allocation).
class DnnlArgs {
 public:
  DnnlArgs(std::initializer_list<std::pair<int, DnnlMemoryArg>> args) : args_(args) {}
  void reserve(size_t n) { args_.reserve(n); }
  void insert(std::pair<int, DnnlMemoryArg> arg) { args_.push_back(std::move(arg)); }
  const std::vector<std::pair<int, DnnlMemoryArg>>& list() const { return args_; }

 private:
  std::vector<std::pair<int, DnnlMemoryArg>> args_;
};

// The attributes every cnnx primitive starts from: scratchpad_mode::user.
dnnl::primitive_attr dnnl_attr();

// Runs `prim` on the stream of `context`'s run with a scratchpad of `scratchpad` (the run's, grown as
// needed), and waits. Without a run state (a null context or context->dnnl), a stream and scratchpad are
// made for this call alone. Defined in dnnl/run_state.cc.
void dnnl_execute(RunContext* context, const dnnl::primitive& prim, const dnnl::memory::desc& scratchpad,
                  const DnnlArgs& args);


// The tensor's own buffer (no copy) as a primitive argument. A plain `md` must describe exactly its bytes; a
// blocked one may need more (padded channels): the plan allocates blocked values with md.get_size() bytes.
DnnlMemoryArg dnnl_wrap(const dnnl::memory::desc& md, const Tensor& t);
// Part of the tensor's buffer: md.get_size() bytes from byte `offset`, which must lie inside it (a plain
// `md`: one execution of a kernel that loops over the tensor's leading dims).
DnnlMemoryArg dnnl_wrap(const dnnl::memory::desc& md, const Tensor& t, size_t offset);

// oneDNN memory over a hot buffer of its own (engine/hot_buffer.h: in huge pages, packed through the
// compile's packing), for data a kernel prepares once at compile time and keeps, such as reordered weights.
// Default-constructed: empty.
struct OwnedMemory {
  OwnedMemory() = default;
  OwnedMemory(const dnnl::memory::desc& md, const CompileContext& context);
  std::shared_ptr<void> buffer;
  dnnl::memory memory;
};

// Constant data `constant`, described by `from`, reordered once into `to` (a primitive's weights layout):
// shared with an earlier equal request of the model's other plans (context.weights; dnnl/prepared_weights.h),
// else new, reordered with the plan's others (context.batch) or at once; the constant's own bytes when `from`
// equals `to`. Never to be written. Defined in dnnl/prepared_weights.cc.
OwnedMemory prepare_constant(const CompileContext& context, const dnnl::memory::desc& from, const Tensor& constant,
                             const dnnl::memory::desc& to);

// Layouts (engine/layout.h) are opaque to the core; here they are oneDNN memory descriptors.
// The descriptor a layout holds (the zero descriptor for plain).
const dnnl::memory::desc& md_of(const Layout& layout);
// The oneDNN descriptor of a float32 value of `shape` held in `layout` (plain: plain_f32_desc(shape)).
dnnl::memory::desc dnnl_desc(const Layout& layout, const Shape& shape);
// What a kernel reports for a descriptor its primitive chose: the plain Layout when it places every element
// as the plain one does (strides of unit dims aside).
Layout layout_of(const dnnl::memory::desc& md);
// A dense float32 descriptor of `shape` whose dims are ordered in memory as in `like` (e.g. channels last
// when `like` is channels last); plain when `like` is plain or has inner blocks (nChw16c).
dnnl::memory::desc same_order_desc(const Layout& like, const Shape& shape);
// The part of a float32 value of `shape` arriving in `layout` that starts at `offsets` and spans `dims`: as
// `view`, a sub-memory of `input`, which is the value as it arrives, or plain when an offset falls inside a
// block (nChw16c), where oneDNN has no sub-memory. A reorder from `input` through `view` copies the part out.
struct SubmemoryView {
  dnnl::memory::desc input, view;
};
SubmemoryView submemory_view(const Layout& layout, const Shape& shape, const dnnl::memory::dims& dims,
                             const dnnl::memory::dims& offsets);

// The channel-blocked layout of a float32 value of `shape` (N, C, 1 to 3 spatial dims): nChw16c and its 3-D
// and 5-D kin. With N = 1 and a multiple of 16 channels, a channel range starting at a multiple of 16 is a
// contiguous run of bytes in it, as in plain NCHW.
dnnl::memory::desc channel_blocked_desc(const Shape& shape);

// For kernels that work in whichever layout input 0 arrives in (eltwise, BN, LRN, pooling, binary): the
// descriptor to run on, the arriving blocked layout, or `plain_view` (the kernel's own view of plain data).
dnnl::memory::desc follow(const Layout& arriving, const dnnl::memory::desc& plain_view);
// Layouts of a kernel that reads input 0 in `layout` (other inputs plain) and writes output 0 in it too.
KernelLayouts follow_layouts(const Layout& layout, size_t inputs, size_t outputs = 1);
// oneDNN's name of a blocked layout, e.g. "aBcd16b" (nChw16c); "plain" for the zero descriptor.
std::string dnnl_layout_name(const dnnl::memory::desc& layout);

// A reorder between two layouts of one tensor, created once; empty when the layouts are the same.
class DnnlReorder {
 public:
  DnnlReorder() = default;
  DnnlReorder(const dnnl::memory::desc& from, const dnnl::memory::desc& to);
  explicit operator bool() const { return needed_; }
  void run(RunContext* context, const DnnlMemoryArg& from, const DnnlMemoryArg& to) const;

 private:
  bool needed_ = false;
  dnnl::reorder prim_;
  dnnl::memory::desc scratchpad_;
};

// `md` with its layout for elements of `type` (oneDNN 2.x counts strides in elements: the blocking carries over).
dnnl::memory::desc with_data_type(dnnl::memory::desc md, dnnl::memory::data_type type);

// A float32 operand as a primitive reads it: as it is, or, for a primitive that computes in bfloat16 (a native
// bfloat16 plan: CompileContext::precision), reordered per run into a workspace of the run in `read`, the
// primitive's descriptor. Its values are bfloat16's already (passes/bfloat16_plan.h rounds them), so nothing
// changes. Default-constructed, or with `read` equal to `f32`: as it is.
class DnnlBfloat16Operand {
 public:
  DnnlBfloat16Operand() = default;
  DnnlBfloat16Operand(const dnnl::memory::desc& f32, const dnnl::memory::desc& read) : read_(read), to_read_(f32, read) {}
  // `from` (described by `f32`) as the primitive reads it: itself, or its copy in `space`'s buffer (made here; at
  // most one per run at a time, dnnl/run_state.h).
  DnnlMemoryArg convert(RunContext* context, const DnnlMemoryArg& from, std::optional<DnnlWorkspace>& space) const;

 private:
  dnnl::memory::desc read_;
  DnnlReorder to_read_;
};

// A kernel that copies between layouts with one oneDNN reorder: the moving ops (Transpose, Slice) and the
// reorders the plan inserts.
class ReorderCopy : public CompiledKernel {
 public:
  // `from` describes the input as the output's view (permuted or sub-memory); `to` the output.
  ReorderCopy(const dnnl::memory::desc& input, const dnnl::memory::desc& from, const dnnl::memory::desc& to,
              size_t inputs);
  void run(const KernelIO& io) const override;
  const KernelLayouts* layouts() const override { return &layouts_; }

 protected:
  dnnl::memory::desc input_, from_, to_;
  DnnlReorder reorder_;
  KernelLayouts layouts_;
};
// A ReorderCopy whose output is its input's bytes (`from` and `to` describe the same memory): the plan gives
// both one buffer (CompiledKernel::views_input) and skips it; called, it copies. Transpose's and the reshaping
// ops' views of dense inputs.
class ReorderView : public ReorderCopy {
 public:
  using ReorderCopy::ReorderCopy;
  bool views_input() const override { return true; }
};

// "" when inputs [first, first + count) that are present are float32 with concrete, non-empty shapes of
// rank <= DNNL_MAX_NDIMS; otherwise why a oneDNN f32 kernel declines them.
std::string dnnl_declines_inputs(const std::vector<ValueInfo>& in, size_t first = 0, size_t count = size_t(-1));

// True when oneDNN picked its reference implementation ("ref:any", ...): correct, and often 10-100x slower
// than a JIT one, so a kernel offered a choice of layouts takes another.
inline bool is_reference(const dnnl::primitive_desc_base& pd) {
  return std::string(pd.impl_info_str()).rfind("ref", 0) == 0;
}
// The instruction set of oneDNN's implementation, the part of its name after the last ':': "avx512_core" of
// "brgconv:avx512_core", "avx2" of "jit_1x1:avx2", "any" of "ref:any".
inline std::string implementation_isa(const dnnl::primitive_desc_base& pd) {
  const std::string impl = pd.impl_info_str();
  return impl.substr(impl.rfind(':') + 1);
}
template <class PD>
bool is_reference(const std::vector<PD>& pds) {
  for (const PD& pd : pds)
    if (is_reference(pd)) return true;
  return false;
}

// True when `make` (which returns one primitive descriptor, or a vector of them) succeeds without oneDNN's
// reference implementation; false when oneDNN refuses or would run its reference one. A kernel offered a
// blocked layout asks this before taking it.
template <class F>
bool runs_without_reference(F make) {
  try {
    return !is_reference(make());
  } catch (const dnnl::error&) {
    return false;
  }
}

// Calls `make` (which creates oneDNN descriptors) and returns "" or why oneDNN refused.
template <class F>
std::string dnnl_refuses(F make) {
  try {
    make();
    return "";
  } catch (const dnnl::error& e) {
    return std::string("oneDNN refuses this case (") + e.what() + ")";
  }
}

// A kernel's compile step in one: `make` builds the oneDNN descriptors and the kernel (returning a
// Compiled or a kernel pointer); when oneDNN refuses the case, the kernel declines and says so.
template <class F>
Compiled compile_or_refuse(F make) {
  try {
    return make();
  } catch (const dnnl::error& e) {
    return Compiled::decline(std::string("oneDNN refuses this case (") + e.what() + ")");
  }
}

// The "dnnl" kernel of an op with params P whose inputs must all suit a oneDNN f32 kernel: it declines what
// dnnl_declines_inputs declines, and otherwise returns compile(params, args).
template <class P, Compiled (*compile)(const P& params, const KernelArgs& args)>
Kernel<P> dnnl_f32_kernel() {
  return {"dnnl", [](const std::shared_ptr<const P>& params, const KernelArgs& a) -> Compiled {
            const std::string why = dnnl_declines_inputs(a.in);
            if (!why.empty()) return Compiled::decline(why);
            return compile(*params, a);
          }};
}

}  // namespace cnnx
