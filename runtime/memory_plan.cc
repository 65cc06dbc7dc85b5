#include "runtime/memory_plan.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace cnnx {

namespace {

size_t aligned(size_t n) { return (n + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment; }

bool alive_together(const Buffer& a, const Buffer& b) { return a.first <= b.last && b.first <= a.last; }

}  // namespace

ArenaPlacement place_buffers(const std::vector<Buffer>& buffers) {
  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return buffers[a].bytes > buffers[b].bytes; });
  ArenaPlacement p;
  p.offsets.assign(buffers.size(), 0);
  std::vector<size_t> placed;
  for (size_t b : order) {
    const size_t size = aligned(buffers[b].bytes);
    std::vector<std::pair<size_t, size_t>> taken;  // [begin, end) of the placed buffers alive with b
    for (size_t other : placed)
      if (alive_together(buffers[other], buffers[b]))
        taken.push_back({p.offsets[other], p.offsets[other] + aligned(buffers[other].bytes)});
    std::sort(taken.begin(), taken.end());
    size_t offset = 0;
    for (const auto& [begin, end] : taken) {
      if (offset + size <= begin) break;
      offset = std::max(offset, end);
    }
    p.offsets[b] = offset;
    p.bytes = std::max(p.bytes, offset + size);
    placed.push_back(b);
  }
  return p;
}

}  // namespace cnnx
