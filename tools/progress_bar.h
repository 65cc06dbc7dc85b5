// A one-line progress bar on stderr for long runs: done/total, a bar, the rate and the time left, e.g.
//   [##########----------]  512/1024  86.3 img/s  ETA 0:06
// Drawn only when stderr is a terminal (scripts and logs see nothing of it), at most 10 times a second.
#pragma once

#include <chrono>
#include <cstddef>

namespace cnnx::tools {

class ProgressBar {
 public:
  explicit ProgressBar(size_t total);
  // `n` more done; redraws when due.
  void advance(size_t n = 1);
  // Draws the final state and ends the line (nothing when nothing was drawn).
  void finish();
  // Items per second since construction.
  double rate() const;

 private:
  void draw();
  size_t total_, done_ = 0;
  bool enabled_;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace cnnx::tools
