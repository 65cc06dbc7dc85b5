#include "engine/releasable_pages.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "engine/error.h"

namespace cnnx {

namespace {

struct Buffer {
  size_t length;  // of the mapping
  int pins = 0;
  bool released = false;
};

struct Registry {
  std::mutex mutex;
  std::map<const void*, Buffer> buffers;  // by start
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: buffers may be freed during static destruction
  return *r;
}

size_t page_bytes() {
  static const size_t page = size_t(sysconf(_SC_PAGESIZE));
  return page;
}

}  // namespace

std::shared_ptr<void> allocate_releasable(size_t bytes) {
  require(bytes <= size_t(-1) / 2, "out of memory allocating ", bytes, " bytes");
  const size_t length = std::max<size_t>(1, (bytes + page_bytes() - 1) / page_bytes()) * page_bytes();
  void* p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  require(p != MAP_FAILED, "out of memory allocating ", bytes, " bytes");
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.buffers[p] = Buffer{length};
  }
  return std::shared_ptr<void>(p, [length](void* q) {
    Registry& r = registry();
    {
      std::lock_guard<std::mutex> lock(r.mutex);
      r.buffers.erase(q);
    }
    munmap(q, length);
  });
}

bool is_releasable(const void* data) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.buffers.count(data) > 0;
}

bool pages_released(const void* data) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.buffers.find(data);
  return it != r.buffers.end() && it->second.released;
}

std::shared_ptr<void> pin_pages(const void* data) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.buffers.find(data);
  if (it == r.buffers.end()) return nullptr;
  require(!it->second.released, "internal error: pinning released constant bytes");
  ++it->second.pins;
  return std::shared_ptr<void>(const_cast<void*>(data), [](void* q) {
    Registry& reg = registry();
    std::lock_guard<std::mutex> l(reg.mutex);
    auto b = reg.buffers.find(q);
    if (b != reg.buffers.end()) --b->second.pins;
  });
}

bool release_pages(const void* data, size_t offset, size_t bytes) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.buffers.find(data);
  if (it == r.buffers.end() || it->second.pins > 0) return false;
  const size_t length = it->second.length, page = page_bytes();
  const size_t begin = std::min(length, (offset + page - 1) / page * page);
  const size_t end = bytes >= length - std::min(offset, length) ? length : (offset + bytes) / page * page;
  if (end > begin) {
    char* p = static_cast<char*>(const_cast<void*>(data)) + begin;
    // Unreadable first: should dropping the pages fail, they still are never read.
    if (mprotect(p, end - begin, PROT_NONE) != 0) return it->second.released;
    madvise(p, end - begin, MADV_DONTNEED);
  }
  it->second.released = true;
  return true;
}

void restore_pages(const void* data) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.buffers.find(data);
  if (it == r.buffers.end() || !it->second.released) return;
  require(mprotect(const_cast<void*>(data), it->second.length, PROT_READ | PROT_WRITE) == 0,
          "cannot make released constant bytes writable again");
  it->second.released = false;
}

}  // namespace cnnx
