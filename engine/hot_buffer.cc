#include "engine/hot_buffer.h"

#include <sys/mman.h>

#include <algorithm>
#include <mutex>
#include <new>
#include <vector>

#include "engine/error.h"

namespace cnnx {

namespace {

constexpr size_t kAlign = 64;

constexpr size_t kMaxOpen = 16;  // shared pages still offered to new buffers

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

// `n` bytes aligned to and advised as huge pages. Their last partial huge page (if any) stays in small pages.
std::shared_ptr<void> allocate_huge_pages(size_t n) {
  void* p = ::operator new(n, std::align_val_t(kHugePageBytes), std::nothrow);
  require(p != nullptr, "out of memory allocating ", n, " bytes");
  madvise(p, n, MADV_HUGEPAGE);  // advice only: a kernel without THP refuses it, which is fine
  return std::shared_ptr<void>(p, [](void* q) { ::operator delete(q, std::align_val_t(kHugePageBytes)); });
}

}  // namespace

std::shared_ptr<void> allocate_hot_buffer(size_t bytes) {
  require(bytes <= size_t(-1) / 2, "out of memory allocating ", bytes, " bytes");
  const size_t n = bytes == 0 ? kAlign : round_up(bytes, kAlign);
  if (n >= kHugePageBytes) return allocate_huge_pages(n);
  struct Page {
    std::weak_ptr<void> bytes;  // freed with the last buffer in it
    size_t used;
  };
  static std::mutex mutex;
  static std::vector<Page> open;  // shared pages with room left, oldest first
  std::lock_guard<std::mutex> lock(mutex);
  open.erase(std::remove_if(open.begin(), open.end(), [](const Page& p) { return p.bytes.expired(); }), open.end());
  for (Page& page : open) {  // first fit
    std::shared_ptr<void> shared = page.bytes.lock();
    if (!shared || n > kHugePageBytes - page.used) continue;
    void* p = static_cast<char*>(shared.get()) + page.used;
    page.used += n;
    return std::shared_ptr<void>(shared, p);  // owns a share of the page
  }
  std::shared_ptr<void> shared = allocate_huge_pages(kHugePageBytes);
  if (open.size() == kMaxOpen) open.erase(open.begin());
  open.push_back({shared, n});
  return shared;
}

}  // namespace cnnx
