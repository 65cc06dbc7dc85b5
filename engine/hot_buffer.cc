#include "engine/hot_buffer.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <new>

#include "engine/error.h"
#include "engine/sanitizers.h"

namespace cnnx {

namespace {

constexpr size_t kAlign = 64;
constexpr size_t kMaxOpen = 16;  // pages of a packing scope still offered to new buffers

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

std::shared_ptr<void> ordinary(size_t n) {
  void* p = ::operator new(n, std::align_val_t(kAlign), std::nothrow);
  require(p != nullptr, "out of memory allocating ", n, " bytes");
  return std::shared_ptr<void>(p, [](void* q) { ::operator delete(q, std::align_val_t(kAlign)); });
}

// A mapping of its own for `n` bytes, starting on a huge page and advised as huge pages.
std::shared_ptr<void> huge_mapping(size_t n) {
  const size_t length = round_up(n, size_t(4096));
  // Map a huge page more than needed, then unmap the unaligned head and the tail.
  void* raw = mmap(nullptr, length + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  require(raw != MAP_FAILED, "out of memory allocating ", n, " bytes");
  const uintptr_t start = uintptr_t(raw), aligned = round_up(start, kHugePageBytes);
  if (aligned > start) munmap(raw, aligned - start);
  if (start + kHugePageBytes > aligned)
    munmap(reinterpret_cast<void*>(aligned + length), start + kHugePageBytes - aligned);
  void* p = reinterpret_cast<void*>(aligned);
  madvise(p, length, MADV_HUGEPAGE);  // advice only: a kernel without THP refuses it, which is fine
  return std::shared_ptr<void>(p, [length](void* q) { munmap(q, length); });
}

}  // namespace

std::shared_ptr<void> allocate_hot_buffer(size_t bytes, HotBufferPacking* packing) {
  require(bytes <= size_t(-1) / 2, "out of memory allocating ", bytes, " bytes");
  if (CNNX_ASAN) return ordinary(std::max<size_t>(bytes, 1));  // exact, so the sanitizer sees overflows
  const size_t n = bytes == 0 ? kAlign : round_up(bytes, kAlign);
  if (n >= kHugePageBytes) return huge_mapping(n);
  if (!packing) return ordinary(n);
  std::vector<HotBufferPacking::Page>& open = packing->open_;
  for (HotBufferPacking::Page& page : open) {  // first fit
    std::shared_ptr<void> shared = page.bytes.lock();
    if (!shared || n > kHugePageBytes - page.used) continue;
    void* p = static_cast<char*>(shared.get()) + page.used;
    page.used += n;
    return std::shared_ptr<void>(shared, p);  // owns a share of the page
  }
  std::shared_ptr<void> shared = huge_mapping(kHugePageBytes);
  auto spent = [](const HotBufferPacking::Page& p) { return p.bytes.expired() || p.used + kAlign > kHugePageBytes; };
  open.erase(std::remove_if(open.begin(), open.end(), spent), open.end());
  if (open.size() == kMaxOpen) open.erase(open.begin());
  open.push_back({shared, n});
  return shared;
}

}  // namespace cnnx
