#include "dnnl/memory_memo.h"

#include <vector>

#include "dnnl/dnnl_runtime.h"

namespace cnnx {

struct MemoryMemo::Slots {
  struct Slot {
    dnnl::memory::desc md;
    void* data = nullptr;
    dnnl::memory memory;
  };
  std::vector<Slot> kept;  // in the order a run asks for them
  size_t next = 0;         // the position the next request takes
};

namespace {
thread_local MemoryMemo::Slots* active = nullptr;
}  // namespace

MemoryMemo::MemoryMemo() : slots_(std::make_unique<Slots>()) {}
MemoryMemo::~MemoryMemo() = default;

MemoryMemo::Run::Run(MemoryMemo& memo) : saved_(active) {
  active = memo.slots_.get();
  active->next = 0;
}

MemoryMemo::Run::~Run() { active = saved_; }

dnnl::memory dnnl_memory(const dnnl::memory::desc& md, void* data) {
  if (!active) return dnnl::memory(md, dnnl_engine(), data);
  std::vector<MemoryMemo::Slots::Slot>& kept = active->kept;
  const size_t at = active->next++;
  if (at == kept.size()) kept.emplace_back();
  MemoryMemo::Slots::Slot& slot = kept[at];
  if (!slot.memory || slot.data != data || slot.md != md) slot = {md, data, dnnl::memory(md, dnnl_engine(), data)};
  return slot.memory;
}

}  // namespace cnnx
