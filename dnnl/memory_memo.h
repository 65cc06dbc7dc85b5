// oneDNN memory objects kept from one run of a plan to the next, without oneDNN's headers.
//
// Why: a dnnl kernel wraps each tensor it passes to a primitive in a oneDNN memory object (dnnl_wrap, and
// the scratchpad in dnnl_execute), 3 to 5 per step, each ~0.2 us to make and destroy (mallocs inside
// oneDNN). In a small network at 2 threads, where a step takes 10-20 us, that serial work on the calling
// thread is a tenth of the step while the other thread waits.
//
// While a MemoryMemo::Run lives on a thread, the memory objects made there through dnnl_memory
// (dnnl/dnnl_runtime.h) are taken from the memo in the order they are asked for: the one kept at that
// position from an earlier run is used again when it has an equal descriptor over the same address, else a
// new one is made and kept in its place. A plan runs its steps in the same order every run and the arena
// holds its values at fixed offsets, so after the first run only graph inputs and outputs (new buffers per
// run) are made anew.
//
// Thread safety: one Run at a time per memo (runtime/plan.cc keeps one per pooled arena, which one run
// holds at a time). Runs nest: the innermost is the active one.
#pragma once

#include <cstddef>
#include <memory>

namespace cnnx {

class MemoryMemo {
 public:
  MemoryMemo();
  ~MemoryMemo();
  MemoryMemo(const MemoryMemo&) = delete;
  MemoryMemo& operator=(const MemoryMemo&) = delete;

  struct Slots;  // the kept memory objects (dnnl/memory_memo.cc)

  // Makes `memo` this thread's active memo, from its first position, while it lives.
  class Run {
   public:
    explicit Run(MemoryMemo& memo);
    ~Run();
    Run(const Run&) = delete;
    Run& operator=(const Run&) = delete;

   private:
    Slots* saved_;
  };

 private:
  std::unique_ptr<Slots> slots_;
};

}  // namespace cnnx
