// Hot buffers: alignment, huge-page advice, small buffers packed into pages shared within one packing scope and
// freed with the last buffer in them. Under AddressSanitizer every buffer is an ordinary allocation (so the
// sanitizer sees overflows): only sizes and lifetimes are checked there.
#include <doctest/doctest.h>

#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/hot_buffer.h"
#include "engine/sanitizers.h"

namespace {

uintptr_t address(const std::shared_ptr<void>& p) { return reinterpret_cast<uintptr_t>(p.get()); }

// The VmFlags line of the /proc/self/smaps mapping holding `p` ("" when not found).
std::string vm_flags_of(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> begin >> dash >> end && dash == '-' && line.find(':') > line.find(' ')) {
      inside = begin <= a && a < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

// True when this kernel takes MADV_HUGEPAGE advice (it has transparent huge pages).
bool kernel_takes_huge_page_advice() {
  const size_t n = cnnx::kHugePageBytes;
  void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return false;
  const bool taken = madvise(p, n, MADV_HUGEPAGE) == 0;
  munmap(p, n);
  return taken;
}

}  // namespace

TEST_CASE("hot buffers are 64-byte aligned; large ones start on a huge page and are advised as huge") {
  const bool advice = kernel_takes_huge_page_advice();
  for (size_t bytes : {size_t(0), size_t(1), size_t(63), size_t(4097), cnnx::kHugePageBytes - 1,
                       cnnx::kHugePageBytes, cnnx::kHugePageBytes + 1, size_t(5) << 20}) {
    CAPTURE(bytes);
    std::shared_ptr<void> p = cnnx::allocate_hot_buffer(bytes);
    REQUIRE(p != nullptr);
    CHECK(address(p) % 64 == 0);
    std::memset(p.get(), 0xA5, bytes);  // every byte is ours (ASan checks)
    if (CNNX_ASAN || bytes < cnnx::kHugePageBytes) continue;
    CHECK(address(p) % cnnx::kHugePageBytes == 0);
    const std::string flags = vm_flags_of(p.get());
    CAPTURE(flags);
    CAPTURE(advice);
    CHECK((!advice || flags.find(" hg") != std::string::npos));
  }
}

TEST_CASE("small hot buffers share pages through one packing, disjoint, freed with the last buffer in them") {
  std::vector<std::shared_ptr<void>> kept;
  std::vector<size_t> sizes;
  for (size_t i = 0; i < 300; ++i) sizes.push_back(i % 7 == 0 ? (size_t(700) << 10) + i : 64 * i + i % 5);
  std::weak_ptr<void> alone;
  {
    cnnx::HotBufferPacking packing;
    alone = cnnx::allocate_hot_buffer(100, &packing);  // the only buffer in its page: freed at once
    CHECK(alone.expired());
    for (size_t bytes : sizes) {
      CAPTURE(bytes);
      kept.push_back(cnnx::allocate_hot_buffer(bytes, &packing));
      REQUIRE(kept.back() != nullptr);
      CHECK(address(kept.back()) % 64 == 0);
      std::memset(kept.back().get(), int(kept.size() % 251), bytes);
    }
  }
  for (size_t i = 0; i < kept.size(); ++i) {  // no buffer overwrote another
    CAPTURE(i);
    const auto* b = static_cast<const unsigned char*>(kept[i].get());
    for (size_t k = 0; k < sizes[i]; k += 61) REQUIRE(b[k] == (i + 1) % 251);
  }
  if (!CNNX_ASAN) {
    // Packed: the huge pages they occupy are more than half full (one page each would be 300).
    size_t total = 0;
    std::set<uintptr_t> pages;
    for (size_t i = 0; i < kept.size(); ++i) {
      total += sizes[i];
      pages.insert(address(kept[i]) / cnnx::kHugePageBytes);
    }
    CAPTURE(total);
    CHECK(pages.size() <= total * 2 / cnnx::kHugePageBytes + 1);
  }
  // Drop all but the last buffer of the first page: the page lives on (the survivor stays writable), and is
  // freed with it.
  const uintptr_t first_page = address(kept[0]) / cnnx::kHugePageBytes;
  size_t survivor = 0;
  for (size_t i = 0; i < kept.size(); ++i)
    if (address(kept[i]) / cnnx::kHugePageBytes == first_page) survivor = i;
  std::weak_ptr<void> page_of_survivor = kept[survivor];
  for (size_t i = 0; i < kept.size(); ++i)
    if (i != survivor) kept[i].reset();
  std::memset(kept[survivor].get(), 0x5A, sizes[survivor]);
  CHECK_FALSE(page_of_survivor.expired());
  kept[survivor].reset();
  CHECK(page_of_survivor.expired());
}

TEST_CASE("without a packing scope, small hot buffers share no page") {
  std::shared_ptr<void> a = cnnx::allocate_hot_buffer(1000), b = cnnx::allocate_hot_buffer(1000);
  std::weak_ptr<void> wa = a;
  a.reset();
  CHECK(wa.expired());  // b does not keep a's memory
  std::memset(b.get(), 1, 1000);
}
