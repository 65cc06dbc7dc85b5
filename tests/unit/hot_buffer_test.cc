// Hot buffers: alignment, huge-page advice, small buffers packed into shared pages that live as long as any
// buffer in them (the ASan build catches a page freed too early).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/hot_buffer.h"

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

}  // namespace

TEST_CASE("hot buffers are 64-byte aligned, in pages advised as huge; large ones 2 MiB aligned") {
  for (size_t bytes : {size_t(0), size_t(1), size_t(63), size_t(4097), cnnx::kHugePageBytes - 1,
                       cnnx::kHugePageBytes, cnnx::kHugePageBytes + 1, size_t(5) << 20}) {
    CAPTURE(bytes);
    std::shared_ptr<void> p = cnnx::allocate_hot_buffer(bytes);
    REQUIRE(p != nullptr);
    CHECK(address(p) % 64 == 0);
    std::memset(p.get(), 0xA5, bytes);  // every byte is ours (ASan checks)
    if (bytes >= cnnx::kHugePageBytes) CHECK(address(p) % cnnx::kHugePageBytes == 0);
    // madvise(MADV_HUGEPAGE) marks the mapping "hg" wherever the kernel has transparent huge pages.
    if (std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled")) {
      const std::string flags = vm_flags_of(p.get());
      CAPTURE(flags);
      CHECK(flags.find(" hg") != std::string::npos);
    }
  }
}

TEST_CASE("small hot buffers are packed into shared pages, disjoint, alive while any buffer in the page is") {
  std::vector<std::shared_ptr<void>> kept;
  std::vector<size_t> sizes;
  for (size_t i = 0; i < 300; ++i) sizes.push_back(i % 7 == 0 ? (size_t(700) << 10) + i : 64 * i + i % 5);
  for (size_t bytes : sizes) {
    kept.push_back(cnnx::allocate_hot_buffer(bytes));
    REQUIRE(kept.back() != nullptr);
    CHECK(address(kept.back()) % 64 == 0);
    std::memset(kept.back().get(), int(kept.size() % 251), bytes);
  }
  for (size_t i = 0; i < kept.size(); ++i) {  // no buffer overwrote another
    CAPTURE(i);
    const auto* b = static_cast<const unsigned char*>(kept[i].get());
    for (size_t k = 0; k < sizes[i]; k += 61) REQUIRE(b[k] == (i + 1) % 251);
  }
  // Small buffers are packed: the huge pages they occupy are more than half full (one page each would be 300).
  size_t small_bytes = 0;
  std::set<uintptr_t> small_pages;
  for (size_t i = 0; i < kept.size(); ++i) {
    small_bytes += sizes[i];
    small_pages.insert(address(kept[i]) / cnnx::kHugePageBytes);
  }
  CAPTURE(small_bytes);
  CHECK(small_pages.size() <= small_bytes * 2 / cnnx::kHugePageBytes + 1);
  // Drop every other buffer: the survivors stay usable (a page is freed only with its last buffer).
  for (size_t i = 0; i < kept.size(); i += 2) kept[i].reset();
  for (size_t i = 1; i < kept.size(); i += 2) std::memset(kept[i].get(), 0x5A, sizes[i]);
  std::shared_ptr<void> large = cnnx::allocate_hot_buffer(cnnx::kHugePageBytes + 1);
  CHECK(address(large) % cnnx::kHugePageBytes == 0);
  std::memset(large.get(), 1, cnnx::kHugePageBytes + 1);
}
