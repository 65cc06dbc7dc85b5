// Buffers every run streams through and that live as long as a plan: its arenas and the weights its kernels
// prepare once. They live in transparent huge pages (madvise MADV_HUGEPAGE): with 4 KiB pages each page read
// costs a TLB miss, and a run reads all of a model's weights (resnet50: ~100 MB; huge pages took it from 36.3
// to 35.8 ms). Where the kernel has no THP the advice is refused and nothing changes; where its THP defrag
// setting is "madvise" a first touch may wait for the kernel to compact memory (on a fragmented host, a slower
// load). Tensors (a model's initializers, a run's outputs) are not hot: they use ordinary pages.
//
// A buffer of kHugePageBytes or more is a mapping of its own, aligned to a huge page (its last partial huge page
// stays in small pages), unmapped when the buffer is freed. A smaller one is packed into huge pages shared with
// the other small buffers allocated through the same HotBufferPacking (the planner makes one per plan and hands
// it to its kernels in CompileContext::packing, so a plan's pages hold only its own buffers and go with the
// plan); without one it is an ordinary 64-byte-aligned allocation. Under AddressSanitizer every buffer is an ordinary allocation of
// exactly its size, so overflows stay visible.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace cnnx {

inline constexpr size_t kHugePageBytes = size_t(2) << 20;

class HotBufferPacking;

// At least `bytes` (0 gives a small non-null buffer), 64-byte aligned, uninitialized; a small one packed
// through `packing` when given. Throws cnnx::Error when out of memory. Not thread-safe for one `packing`.
std::shared_ptr<void> allocate_hot_buffer(size_t bytes, HotBufferPacking* packing = nullptr);

// Small hot buffers allocated through one share huge pages. A page is freed with the last buffer in it,
// whether or not the packing still lives.
class HotBufferPacking {
 public:
  HotBufferPacking() = default;
  HotBufferPacking(const HotBufferPacking&) = delete;
  HotBufferPacking& operator=(const HotBufferPacking&) = delete;

 private:
  friend std::shared_ptr<void> allocate_hot_buffer(size_t bytes, HotBufferPacking* packing);
  struct Page {
    std::weak_ptr<void> bytes;  // the page is freed with the last buffer in it
    size_t used;
  };
  std::vector<Page> open_;  // pages with room left, oldest first
};

}  // namespace cnnx
