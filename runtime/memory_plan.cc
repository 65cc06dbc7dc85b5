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

BufferGroups group_buffers(const std::vector<Buffer>& buffers, const std::vector<ShareRequest>& requests) {
  BufferGroups g{{}, std::vector<size_t>(buffers.size(), 0), buffers, std::vector<bool>(requests.size(), false)};
  std::vector<int>& root = g.root;
  std::vector<size_t>& at = g.at;
  for (size_t b = 0; b < buffers.size(); ++b) root.push_back(int(b));
  // Moves group `from` (a root and its members) into group `to`, at byte `offset` of its buffer.
  auto merge = [&](int from, int to, size_t offset) {
    for (size_t x = 0; x < root.size(); ++x)
      if (root[x] == from) root[x] = to, at[x] += offset;
    Buffer& t = g.buffers[size_t(to)];
    t.first = std::min(t.first, g.buffers[size_t(from)].first);
    t.last = std::max(t.last, g.buffers[size_t(from)].last);
  };
  // A view is written once, by its input's producer, so it may outlive the input.
  for (size_t r = 0; r < requests.size(); ++r) {
    const ShareRequest& q = requests[r];
    if (q.kind != ShareRequest::view) continue;
    merge(q.output, root[size_t(q.inputs[0])], at[size_t(q.inputs[0])]);
    g.granted[r] = true;
  }
  // Nothing writes a joined Concat's output after its inputs' producers, and its parts do not overlap.
  for (size_t r = requests.size(); r-- > 0;) {
    const ShareRequest& q = requests[r];
    if (q.kind != ShareRequest::join) continue;
    std::vector<int> groups;
    for (int id : q.inputs) groups.push_back(root[size_t(id)]);
    const int out = q.output, R = root[size_t(out)];
    auto placed = [&](int group, size_t base) {  // every input at its part of `group`'s buffer from `base`
      for (size_t i = 0; i < q.inputs.size(); ++i)
        if (groups[i] != group || at[size_t(q.inputs[i])] != base + q.offsets[i]) return false;
      return true;
    };
    if (placed(R, at[size_t(out)])) {
      g.granted[r] = true;
    } else if (R == out && groups[0] != R && placed(groups[0], at[size_t(q.inputs[0])])) {
      merge(out, groups[0], at[size_t(q.inputs[0])]);  // the output is a view of inputs laid out already
      g.granted[r] = true;
    } else {
      // The inputs move into the output's buffer: each must be the whole of a group of its own (exactly:
      // a root larger than its part would spill over the next part).
      std::vector<int> distinct = groups;
      std::sort(distinct.begin(), distinct.end());
      bool movable = std::adjacent_find(distinct.begin(), distinct.end()) == distinct.end();
      for (size_t i = 0; i < groups.size(); ++i) {
        const size_t id = size_t(q.inputs[i]);
        movable = movable && groups[i] != R && at[id] == 0 && buffers[id].bytes == buffers[size_t(groups[i])].bytes;
      }
      if (!movable) continue;
      for (size_t i = 0; i < groups.size(); ++i) merge(groups[i], R, at[size_t(out)] + q.offsets[i]);
      g.granted[r] = true;
    }
  }
  // In place: the input's group must not be read after this step, nor by it through another input (a
  // joined Concat holding it, a view of it, or the input itself twice).
  for (size_t r = 0; r < requests.size(); ++r) {
    const ShareRequest& q = requests[r];
    if (q.kind != ShareRequest::in_place) continue;
    const int in = q.inputs[0], group = root[size_t(in)];
    if (g.buffers[size_t(group)].last != q.step || root[size_t(q.output)] != q.output) continue;
    bool shared = false;
    for (int other : q.also_read) shared = shared || root[size_t(other)] == group;
    if (shared) continue;
    merge(q.output, group, at[size_t(in)]);
    g.granted[r] = true;
  }
  return g;
}

MemoryPlan plan_memory(const std::vector<Buffer>& buffers, const std::vector<ShareRequest>& requests) {
  const BufferGroups g = group_buffers(buffers, requests);
  std::vector<int> roots;
  std::vector<Buffer> groups;
  std::vector<size_t> slot(buffers.size(), 0);  // a root's place in `roots`
  for (size_t b = 0; b < buffers.size(); ++b)
    if (g.root[b] == int(b)) {
      slot[b] = roots.size();
      roots.push_back(int(b));
      groups.push_back(g.buffers[b]);
    }
  const ArenaPlacement placement = place_buffers(groups);
  MemoryPlan m{std::vector<size_t>(buffers.size(), 0), placement.bytes, g.granted};
  for (size_t b = 0; b < buffers.size(); ++b) m.offsets[b] = placement.offsets[slot[size_t(g.root[b])]] + g.at[b];
  return m;
}

}  // namespace cnnx
