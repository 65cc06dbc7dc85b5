// The memory plan of one run (step 4 of runtime/plan.h), over plain numbers so that it can be tested alone:
// buffers are numbered by the caller and live from one step to another (steps: positions in execution order).
#pragma once

#include <cstddef>
#include <vector>

namespace cnnx {

// Every buffer starts at a multiple of this, and takes its size rounded up to it.
constexpr size_t kArenaAlignment = 64;

// A buffer: its size, and its lifetime from the first step that writes it to the last that reads it (both
// included). Two buffers alive at one common step must not overlap in memory; others may.
struct Buffer {
  size_t bytes = 0;
  int first = 0, last = 0;
};

struct ArenaPlacement {
  std::vector<size_t> offsets;  // per buffer, from the start of the arena
  size_t bytes = 0;             // the arena's size: the highest end of a buffer (size rounded up)
};

// Offsets for `buffers` in one arena. Greedy: largest first (equal sizes in the given order), each at the
// lowest offset where it overlaps none of the buffers placed before it that are alive with it.
ArenaPlacement place_buffers(const std::vector<Buffer>& buffers);

}  // namespace cnnx
