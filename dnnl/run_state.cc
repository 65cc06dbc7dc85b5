#include "dnnl/run_state.h"

#include <cstdlib>
#include <new>
#include <optional>
#include <vector>

#include "dnnl/dnnl_runtime.h"

namespace cnnx {

struct DnnlRunState::Parts {
  struct Slot {
    dnnl::memory::desc md;
    void* data = nullptr;
    dnnl::memory memory;
  };
  dnnl::stream stream{dnnl_engine()};
  struct Buffer {
    std::unique_ptr<char, decltype(&std::free)> data{nullptr, &std::free};
    size_t bytes = 0;
  };
  Buffer scratchpad;  // the primitives'
  Buffer workspace;   // the kernels' (DnnlWorkspace)
  std::vector<dnnl_exec_arg_t> c_args;  // reused: execute takes the arguments as an array
  std::vector<dnnl::memory> held;       // reused: the memory objects c_args points to
  std::vector<Slot> kept;               // memory objects in the order a run asks for them
  size_t next = 0;                      // the position the next request takes
  bool keep_memory = true;

  dnnl::memory memory(const dnnl::memory::desc& md, void* data) {
    if (!keep_memory) return dnnl::memory(md, dnnl_engine(), data);
    const size_t at = next++;
    if (at == kept.size()) kept.emplace_back();
    Slot& slot = kept[at];
    if (!slot.memory || slot.data != data || slot.md != md) slot = {md, data, dnnl::memory(md, dnnl_engine(), data)};
    return slot.memory;
  }

  static char* grown(Buffer& b, size_t bytes) {
    if (bytes > b.bytes || !b.data) {
      b.data.reset(static_cast<char*>(std::aligned_alloc(64, (bytes + 64) / 64 * 64)));
      if (!b.data) throw std::bad_alloc();
      b.bytes = bytes;
    }
    return b.data.get();
  }
};

DnnlRunState::DnnlRunState() : parts_(std::make_unique<Parts>()) {}
DnnlRunState::~DnnlRunState() = default;

void DnnlRunState::begin_run(bool keep_memory) {
  parts_->next = 0;
  parts_->keep_memory = keep_memory;
}

DnnlWorkspace::DnnlWorkspace(RunContext* context, size_t bytes) {
  if (context && context->dnnl) {
    data_ = DnnlRunState::Parts::grown(context->dnnl->parts().workspace, bytes);
    return;
  }
  own_ = std::shared_ptr<char>(static_cast<char*>(std::aligned_alloc(64, (bytes + 64) / 64 * 64)), &std::free);
  if (!own_) throw std::bad_alloc();
  data_ = own_.get();
}

void dnnl_execute(RunContext* context, const dnnl::primitive& prim, const dnnl::memory::desc& scratchpad,
                  const DnnlArgs& args) {
  std::optional<DnnlRunState> own;  // made only when the caller has no run state: a one-off run
  if (!(context && context->dnnl)) own.emplace().begin_run(false);
  DnnlRunState::Parts& state = own ? own->parts() : context->dnnl->parts();
  std::vector<dnnl_exec_arg_t>& c_args = state.c_args;
  c_args.clear();
  std::vector<dnnl::memory>& held = state.held;  // the memory objects of this call live until it returns
  held.clear();
  auto add = [&](int arg, dnnl::memory m) {
    c_args.push_back({arg, m.get(true)});
    held.push_back(std::move(m));
  };
  for (const auto& [arg, a] : args.list()) add(arg, a.memory ? a.memory : state.memory(*a.md, a.data));
  add(DNNL_ARG_SCRATCHPAD, state.memory(scratchpad, DnnlRunState::Parts::grown(state.scratchpad, scratchpad.get_size())));
  dnnl::error::wrap_c_api(dnnl_primitive_execute(prim.get(), state.stream.get(), int(c_args.size()), c_args.data()),
                          "could not execute a primitive");
  state.stream.wait();
}

}  // namespace cnnx
