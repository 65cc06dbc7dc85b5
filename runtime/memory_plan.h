// The memory plan of one run (step 4 of runtime/plan.h), over plain numbers so that it can be tested alone:
// buffers are numbered by the caller and live from one step to another (steps: positions in execution order).
//   1. groups: buffers that share bytes, as steps request it (views, Concats joined in place, kernels
//      working in place), each group held by the buffer of one "root";
//   2. placement: the roots in one arena, each with its group's lifetime;
// plan_memory does both.
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

// A step's request that buffers share bytes. The caller makes one only where the sharing is sound in itself
// (a view's or in-place output has its input's layout and size; a join's inputs, in their layouts, are runs
// of its output's bytes); group_buffers grants it where it stays sound with the groups made so far.
struct ShareRequest {
  enum Kind {
    view,      // `output` is inputs[0]'s bytes (Reshape, ...). Always granted.
    join,      // `inputs` written straight into their parts of `output`, at `offsets` (a Concat joined in
               // place). Granted when they already lie so, or can move there: each the whole of a group.
    in_place,  // `output` takes inputs[0]'s bytes. Granted when inputs[0]'s group's lifetime ends at `step`,
               // `output` is in no group yet and no buffer of `also_read` is in inputs[0]'s group.
  } kind = view;
  int step = 0;                 // the step asking, in execution order
  int output = -1;              // a buffer number, as are `inputs` and `also_read`
  std::vector<int> inputs;
  std::vector<size_t> offsets;  // join: each input's byte offset in `output`
  std::vector<int> also_read;   // in_place: the step's other inputs
};

struct BufferGroups {
  std::vector<int> root;        // per buffer: the buffer whose bytes hold it (itself for a root)
  std::vector<size_t> at;       // per buffer: its byte offset in its root
  std::vector<Buffer> buffers;  // as given, but a root's lifetime covers its whole group
  std::vector<bool> granted;    // per request
};

// Groups buffers as `requests` (of one kind in execution order) allow: views first, then joins from the last
// step back (so that a Concat whose inputs a later one laid out end to end becomes a view of them, as
// DenseNet's growing Concats are), then in-place kernels.
BufferGroups group_buffers(const std::vector<Buffer>& buffers, const std::vector<ShareRequest>& requests);

struct MemoryPlan {
  std::vector<size_t> offsets;  // per buffer, from the start of the arena
  size_t arena_bytes = 0;
  std::vector<bool> granted;    // per request
};

// Groups the buffers, then places the roots (each by its own size and its group's lifetime); every other
// buffer lies at its root's offset plus its offset in it.
MemoryPlan plan_memory(const std::vector<Buffer>& buffers, const std::vector<ShareRequest>& requests);

}  // namespace cnnx
