// A team size for the calling thread while a ThreadScope lives. oneDNN is built on OpenMP here: a primitive
// takes its thread count from the calling thread's OpenMP setting when it is created and when it runs, and
// that setting is per calling thread, so concurrent runs with different counts do not disturb each other.
// The planner sets it per step (runtime/plan.cc) from the team its caller decided (runtime/team.h). 0 leaves
// it unchanged.
#pragma once

#include <omp.h>

namespace cnnx {

class ThreadScope {
 public:
  explicit ThreadScope(int threads) : saved_(omp_get_max_threads()), set_(threads > 0) {
    if (set_) omp_set_num_threads(threads);
  }
  ~ThreadScope() {
    if (set_) omp_set_num_threads(saved_);
  }
  ThreadScope(const ThreadScope&) = delete;
  ThreadScope& operator=(const ThreadScope&) = delete;

 private:
  int saved_;
  bool set_;
};

}  // namespace cnnx
