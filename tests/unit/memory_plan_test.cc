// The memory plan (runtime/memory_plan.h) on synthetic buffers: no graph, no kernels.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "runtime/memory_plan.h"

using namespace cnnx;

namespace {

// "100@0-2 64@1-3": each buffer's bytes@first-last, for CAPTURE.
std::string str(const std::vector<Buffer>& buffers) {
  std::string s;
  for (const Buffer& b : buffers)
    s += (s.empty() ? "" : " ") + std::to_string(b.bytes) + "@" + std::to_string(b.first) + "-" + std::to_string(b.last);
  return s;
}
std::string str(const std::vector<size_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

// "join 4<-[0,1,3]@[0,128,256] s4": each request's kind, output <- inputs (@ offsets, also reading), step.
std::string str(const std::vector<ShareRequest>& requests) {
  std::string s;
  for (const ShareRequest& q : requests) {
    std::vector<size_t> inputs(q.inputs.begin(), q.inputs.end()), also(q.also_read.begin(), q.also_read.end());
    s += s.empty() ? "" : "; ";
    s += q.kind == ShareRequest::view ? "view " : q.kind == ShareRequest::join ? "join " : "in_place ";
    s += std::to_string(q.output) + "<-" + str(inputs) + (q.offsets.empty() ? "" : "@" + str(q.offsets));
    s += (also.empty() ? "" : " also " + str(also)) + " s" + std::to_string(q.step);
  }
  return s;
}
std::string str(const std::vector<int>& v) { return str(std::vector<size_t>(v.begin(), v.end())); }

// Requests for the tables: step, output, input(s).
ShareRequest view(int step, int out, int in) { return {ShareRequest::view, step, out, {in}, {}, {}}; }
ShareRequest join(int step, int out, std::vector<int> in, std::vector<size_t> offsets) {
  return {ShareRequest::join, step, out, std::move(in), std::move(offsets), {}};
}
ShareRequest in_place(int step, int out, int in, std::vector<int> also_read = {}) {
  return {ShareRequest::in_place, step, out, {in}, {}, std::move(also_read)};
}

size_t rounded(size_t bytes) { return (bytes + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment; }
bool alive_together(const Buffer& a, const Buffer& b) { return a.first <= b.last && b.first <= a.last; }

// What every placement must hold: aligned offsets, buffers alive together apart in memory, the arena
// ending at the highest buffer's end.
void check_sound(const std::vector<Buffer>& buffers, const ArenaPlacement& p) {
  REQUIRE(p.offsets.size() == buffers.size());
  size_t end = 0;
  for (size_t a = 0; a < buffers.size(); ++a) {
    CAPTURE(a);
    CHECK(p.offsets[a] % kArenaAlignment == 0);
    end = std::max(end, p.offsets[a] + rounded(buffers[a].bytes));
    for (size_t b = a + 1; b < buffers.size(); ++b) {
      CAPTURE(b);
      if (alive_together(buffers[a], buffers[b]) && buffers[a].bytes && buffers[b].bytes)
        CHECK((p.offsets[a] + rounded(buffers[a].bytes) <= p.offsets[b] ||
               p.offsets[b] + rounded(buffers[b].bytes) <= p.offsets[a]));
    }
  }
  CHECK(p.bytes == end);
}

}  // namespace

TEST_CASE("place_buffers: offsets and arena size") {
  struct Case {
    const char* what;
    std::vector<Buffer> buffers;
    std::vector<size_t> offsets;
    size_t bytes;
  };
  const std::vector<Case> cases = {
      {"nothing to place", {}, {}, 0},
      {"one buffer takes its size rounded up to 64", {{100, 0, 0}}, {0}, 128},
      {"a 64-byte buffer takes exactly 64", {{64, 0, 3}}, {0}, 64},
      {"an empty buffer takes no bytes", {{0, 0, 1}, {64, 0, 1}}, {0, 0}, 64},
      {"disjoint lifetimes share bytes", {{256, 0, 1}, {256, 2, 3}}, {0, 0}, 256},
      {"lifetimes meeting at one step do not", {{256, 0, 1}, {256, 1, 2}}, {0, 256}, 512},
      {"a smaller buffer fits in a larger one's bytes", {{100, 0, 1}, {1000, 2, 3}}, {0, 0}, 1024},
      {"largest first, at the lowest offset", {{100, 0, 1}, {1000, 0, 1}}, {1024, 0}, 1152},
      {"equal sizes in the given order", {{64, 0, 1}, {64, 0, 1}, {64, 0, 1}}, {0, 64, 128}, 192},
      {"every buffer starts 64-byte aligned", {{1, 0, 2}, {65, 0, 2}, {64, 0, 2}}, {192, 0, 128}, 256},
      {"a hole below a buffer alive beside it is taken", {{128, 0, 0}, {64, 0, 2}, {64, 1, 2}}, {0, 128, 0}, 192},
      {"a hole that fits is taken", {{384, 0, 0}, {256, 0, 3}, {192, 1, 3}, {192, 2, 3}}, {0, 384, 0, 192}, 640},
      {"a hole too small is skipped", {{320, 0, 0}, {256, 0, 3}, {192, 1, 3}, {192, 2, 3}}, {0, 320, 0, 576}, 768},
      {"a chain reuses two buffers", {{512, 0, 1}, {512, 1, 2}, {512, 2, 3}, {512, 3, 4}}, {0, 512, 0, 512}, 1024},
      {"a small long-lived buffer goes above larger short-lived ones", {{64, 0, 9}, {128, 1, 2}, {128, 3, 4}}, {128, 0, 0}, 192},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    CAPTURE(str(c.buffers));
    CAPTURE(str(c.offsets));
    CAPTURE(c.bytes);
    const ArenaPlacement p = place_buffers(c.buffers);
    CAPTURE(str(p.offsets));
    CHECK(p.offsets == c.offsets);
    CHECK(p.bytes == c.bytes);
    check_sound(c.buffers, p);
  }
}

TEST_CASE("place_buffers: random lifetimes never overlap in memory, and each takes the lowest free offset") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const int steps = 1 + int(rng() % 12);
    std::vector<Buffer> buffers(1 + rng() % 20);
    for (Buffer& b : buffers) {
      b.bytes = rng() % 4 == 0 ? 64 * (1 + rng() % 4) : 1 + rng() % 1000;  // ties and odd sizes
      b.first = int(rng() % unsigned(steps));
      b.last = b.first + int(rng() % unsigned(steps - b.first));
    }
    CAPTURE(trial);
    CAPTURE(str(buffers));
    const ArenaPlacement p = place_buffers(buffers);
    CAPTURE(str(p.offsets));
    check_sound(buffers, p);
    // Lowest free: every lower aligned offset overlaps a larger (or equal, earlier) buffer alive with it.
    for (size_t a = 0; a < buffers.size(); ++a) {
      CAPTURE(a);
      for (size_t lower = 0; lower < p.offsets[a]; lower += kArenaAlignment) {
        bool blocked = false;
        for (size_t b = 0; b < buffers.size() && !blocked; ++b) {
          const bool before = buffers[b].bytes > buffers[a].bytes || (buffers[b].bytes == buffers[a].bytes && b < a);
          blocked = before && alive_together(buffers[a], buffers[b]) && p.offsets[b] < lower + rounded(buffers[a].bytes) &&
                    lower < p.offsets[b] + rounded(buffers[b].bytes);
        }
        CAPTURE(lower);
        CHECK(blocked);
      }
    }
  }
}

TEST_CASE("group_buffers and plan_memory: which requests are granted, the groups, the offsets") {
  struct Case {
    const char* what;
    std::vector<Buffer> buffers;
    std::vector<ShareRequest> requests;
    std::vector<int> granted, root;
    std::vector<size_t> at, offsets;
    size_t arena;
  };
  const std::vector<Case> cases = {
      {"a view shares its input's bytes and may outlive it",
       {{256, 0, 1}, {256, 1, 3}, {256, 2, 2}}, {view(1, 1, 0)},
       {1}, {0, 0, 2}, {0, 0, 0}, {0, 0, 256}, 512},
      {"a Concat's inputs move into their parts of its output",
       {{128, 0, 2}, {128, 1, 2}, {256, 2, 3}}, {join(2, 2, {0, 1}, {0, 128})},
       {1}, {2, 2, 2}, {0, 128, 0}, {0, 128, 0}, 256},
      {"DenseNet: a Concat whose inputs a later one laid out end to end is a view of them",
       {{128, 0, 4}, {128, 1, 4}, {256, 2, 3}, {128, 3, 4}, {384, 4, 5}},
       {join(2, 2, {0, 1}, {0, 128}), join(4, 4, {0, 1, 3}, {0, 128, 256})},
       {1, 1}, {4, 4, 4, 4, 4}, {0, 128, 0, 256, 0}, {0, 128, 0, 256, 0}, 384},
      {"an input that is part of another Concat's buffer stays there; the earlier Concat runs",
       {{128, 0, 2}, {128, 1, 4}, {256, 2, 5}, {128, 3, 4}, {256, 4, 5}},
       {join(2, 2, {0, 1}, {0, 128}), join(4, 4, {1, 3}, {0, 128})},
       {0, 1}, {0, 4, 2, 4, 4}, {0, 0, 0, 128, 0}, {512, 256, 0, 384, 256}, 640},
      {"the same input twice: the Concat runs",
       {{128, 0, 1}, {256, 1, 2}}, {join(1, 1, {0, 0}, {0, 128})},
       {0}, {0, 1}, {0, 0}, {256, 0}, 384},
      {"in place: the output takes the bytes of an input read last by its step",
       {{256, 0, 1}, {256, 1, 2}}, {in_place(1, 1, 0)},
       {1}, {0, 0}, {0, 0}, {0, 0}, 256},
      {"in place refused: the input is read later",
       {{256, 0, 2}, {256, 1, 2}}, {in_place(1, 1, 0)},
       {0}, {0, 1}, {0, 0}, {0, 256}, 512},
      {"in place refused: the step reads the input twice",
       {{256, 0, 1}, {256, 1, 2}}, {in_place(1, 1, 0, {0})},
       {0}, {0, 1}, {0, 0}, {0, 256}, 512},
      {"in place refused: a view of the input is read later",
       {{256, 0, 2}, {256, 1, 3}, {256, 2, 3}}, {view(1, 1, 0), in_place(2, 2, 0)},
       {1, 0}, {0, 0, 2}, {0, 0, 0}, {0, 0, 256}, 512},
      {"in place refused: the step reads a view of the input too",
       {{256, 0, 2}, {256, 1, 2}, {256, 2, 3}}, {view(1, 1, 0), in_place(2, 2, 0, {1})},
       {1, 0}, {0, 0, 2}, {0, 0, 0}, {0, 0, 256}, 512},
      {"in place over a view: the whole group is read last by the step",
       {{256, 0, 1}, {256, 1, 2}, {256, 2, 3}}, {view(1, 1, 0), in_place(2, 2, 1)},
       {1, 1}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, 256},
      {"in place refused: the output already shares bytes (a joined Concat's input)",
       {{128, 0, 1}, {128, 1, 2}, {128, 1, 2}, {256, 2, 3}},
       {in_place(1, 1, 0), join(2, 3, {1, 2}, {0, 128})},
       {0, 1}, {0, 3, 3, 3}, {0, 0, 128, 0}, {256, 0, 128, 0}, 384},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    CAPTURE(str(c.buffers));
    CAPTURE(str(c.requests));
    CAPTURE(str(c.granted));
    CAPTURE(str(c.root));
    CAPTURE(str(c.at));
    CAPTURE(str(c.offsets));
    CAPTURE(c.arena);
    const BufferGroups g = group_buffers(c.buffers, c.requests);
    CHECK(std::vector<int>(g.granted.begin(), g.granted.end()) == c.granted);
    CHECK(g.root == c.root);
    CHECK(g.at == c.at);
    for (size_t b = 0; b < c.buffers.size(); ++b) {  // a root's lifetime covers its group's
      CAPTURE(b);
      CHECK(g.buffers[size_t(g.root[b])].first <= c.buffers[b].first);
      CHECK(g.buffers[size_t(g.root[b])].last >= c.buffers[b].last);
    }
    const MemoryPlan m = plan_memory(c.buffers, c.requests);
    CAPTURE(str(m.offsets));
    CHECK(m.offsets == c.offsets);
    CHECK(m.arena_bytes == c.arena);
    CHECK(m.granted == g.granted);
  }
}
