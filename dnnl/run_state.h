// What oneDNN kernels use while one run of a plan goes, without oneDNN's headers (RunContext::dnnl; the plan
// keeps one per pooled arena, which one run holds at a time):
//   - a stream: oneDNN's streams are not thread-safe, so each run in flight has its own;
//   - the scratchpad buffer: every cnnx primitive is made with scratchpad_mode::user (oneDNN's
//     library-managed scratchpad is shared by all primitives and ties a primitive to the thread that made it),
//     and a run's primitives run one at a time, so one buffer, grown as needed, serves them all;
//   - memory objects kept from one run to the next. Why: a dnnl kernel hands each tensor to its primitive as
//     a oneDNN memory object, 3 to 5 per step, each ~0.2 us to make and destroy (mallocs inside oneDNN). In a
//     small network at 2 threads, where a step takes 10-20 us, that serial work on the calling thread is a
//     tenth of the step while the other thread waits. A plan runs its steps in the same order every run and
//     the arena holds its values at fixed offsets, so the memory objects are taken in the order they are
//     asked for: the one kept at that position from an earlier run is used again when it has an equal
//     descriptor over the same address, else a new one is made and kept in its place. After the first run
//     only graph inputs and outputs (new buffers per run) are made anew.
#pragma once

#include <cstddef>
#include <memory>

namespace cnnx {

struct RunContext;

class DnnlRunState {
 public:
  DnnlRunState();
  ~DnnlRunState();

  // Starts a run: memory objects are taken from the first position again; `keep_memory` false makes every
  // one anew and keeps none (a run with checks runs extra reorders between its steps, in another order).
  void begin_run(bool keep_memory);

  struct Parts;  // dnnl/run_state.cc
  Parts& parts() { return *parts_; }

 private:
  std::unique_ptr<Parts> parts_;
};

// A 64-byte-aligned buffer of at least `bytes` for a kernel's copies during one run: the run state's own
// (kept for the next run; kernels of a run take it one at a time), or one made for this object alone when the
// context has no run state. Not the scratchpad: that one is the primitive's while it executes.
class DnnlWorkspace {
 public:
  DnnlWorkspace(RunContext* context, size_t bytes);
  char* data() const { return data_; }

 private:
  std::shared_ptr<char> own_;
  char* data_ = nullptr;
};

}  // namespace cnnx
